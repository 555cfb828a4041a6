#include "bootstrap/peer_acceptor.h"

#include <sys/socket.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <deque>
#include <memory>
#include <optional>
#include <thread>

namespace rabit::bootstrap {

using treering::Result;
using treering::Status;

namespace {

// How long the accept loop waits before looking at finished handshakes again: the most a real
// peer's finished handshake waits to be noticed.
constexpr double kPollSeconds = 0.005;

// One accepted connection and the handshake running on it.
struct Attempt {
  transport::TcpSocket socket;
  std::string remote;
  std::optional<Result<int>> result;  // set by the thread, read after done
  std::atomic<bool> done{false};
  std::thread thread;

  // Wakes the handshake out of any wait (its reads then fail) without closing the descriptor
  // under the thread's feet.
  void Cancel() { ::shutdown(socket.fd(), SHUT_RDWR); }
};

std::string RankList(const std::vector<int>& ranks) {
  std::string text;
  for (int r : ranks) text += (text.empty() ? "" : ", ") + std::to_string(r);
  return text;
}

class Acceptor {
 public:
  Acceptor(std::vector<int> expected, const PeerAuth& me, std::vector<transport::Link>* links)
      : waiting_(std::move(expected)), me_(me), links_(links) {}
  ~Acceptor() {
    for (auto& a : pending_) a->Cancel();
    for (auto& a : pending_) a->thread.join();
  }

  bool Complete() const { return waiting_.empty(); }
  const std::vector<int>& waiting() const { return waiting_; }

  void Start(transport::TcpSocket socket, transport::Deadline deadline) {
    if (static_cast<int>(pending_.size()) >= kMaxPendingHandshakes) pending_.front()->Cancel();
    auto a = std::make_unique<Attempt>();
    a->socket = std::move(socket);
    a->remote = a->socket.RemoteEndpoint();
    const transport::Deadline shake =
        std::min(deadline, transport::DeadlineAfter(kHandshakeSeconds));
    Attempt* raw = a.get();
    a->thread = std::thread([raw, this, candidates = waiting_, shake] {
      raw->result = ShakeHands(raw->socket, LinkSide::kAccept, me_, candidates, shake);
      raw->done.store(true, std::memory_order_release);
    });
    pending_.push_back(std::move(a));
  }

  // Takes in every finished handshake: a proven expected rank becomes a link, anything else is
  // logged and dropped.
  void Harvest() {
    for (auto it = pending_.begin(); it != pending_.end();) {
      Attempt& a = **it;
      if (!a.done.load(std::memory_order_acquire)) {
        ++it;
        continue;
      }
      a.thread.join();
      const Result<int>& rank = *a.result;
      auto slot =
          rank.ok() ? std::find(waiting_.begin(), waiting_.end(), rank.value()) : waiting_.end();
      if (slot != waiting_.end()) {
        waiting_.erase(slot);
        links_->push_back(transport::Link{rank.value(), std::move(a.socket)});
      } else {
        const std::string why = rank.ok()
                                    ? "rank " + std::to_string(rank.value()) + " is linked already"
                                    : rank.status().message();
        std::fprintf(stderr, "rank %d: ignored a peer connection from %s: %s\n", me_.rank,
                     a.remote.c_str(), why.c_str());
      }
      it = pending_.erase(it);
    }
  }

 private:
  std::vector<int> waiting_;
  const PeerAuth& me_;
  std::vector<transport::Link>* links_;
  std::deque<std::unique_ptr<Attempt>> pending_;
};

}  // namespace

Status AcceptExpectedPeers(const transport::TcpSocket& listener, std::vector<int> expected,
                           const PeerAuth& me, transport::Deadline deadline,
                           std::vector<transport::Link>* links) {
  Acceptor acceptor(std::move(expected), me, links);
  while (true) {
    acceptor.Harvest();
    if (acceptor.Complete()) return Status::Ok();
    const transport::Deadline slice = std::min(deadline, transport::DeadlineAfter(kPollSeconds));
    auto socket = listener.Accept(slice);
    if (socket.ok()) {
      acceptor.Start(std::move(socket.value()), deadline);
    } else if (socket.status().code() != treering::StatusCode::kTimeout ||
               transport::Clock::now() >= deadline) {
      return socket.status().WithContext("waiting for rank(s) " + RankList(acceptor.waiting()) +
                                         " to dial rank " + std::to_string(me.rank));
    }
  }
}

}  // namespace rabit::bootstrap
