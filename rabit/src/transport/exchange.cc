#include "transport/exchange.h"

#include <poll.h>
#include <sched.h>
#include <sys/socket.h>
#include <sys/uio.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <sstream>

namespace rabit::transport {
namespace {

constexpr std::size_t kHeader = OpHeader::kBytes;

// The bytes of stream positions [from, to) as at most two iovecs (two when they wrap around);
// at most one lap of a circular buffer per call (a stream may go round more than once).
int FlowIovecs(const Flow& f, std::size_t from, std::size_t to, iovec* out) {
  if (to <= from) return 0;
  const std::size_t len = f.ring == 0 ? to - from : std::min(to - from, f.ring);
  if (f.ring == 0) {
    out[0] = {f.base + f.begin + from, len};
    return 1;
  }
  const std::size_t pos = (f.begin + from) % f.ring;
  const std::size_t first = std::min(len, f.ring - pos);
  out[0] = {f.base + pos, first};
  if (first == len) return 1;
  out[1] = {f.base, len - first};
  return 2;
}

bool WouldBlock(int err) { return err == EAGAIN || err == EWOULDBLOCK || err == EINTR; }

std::string Seconds(double s) {
  std::ostringstream out;
  out << s << " s";
  return out.str();
}

}  // namespace

bool Channel::SendPending() const { return header_sent < kHeader || send.done < send.total; }
bool Channel::RecvPending() const { return header_received < kHeader || recv.done < recv.total; }
bool Channel::CanSend() const {
  // Our header waits for our first data bytes on this link (one packet, one wake-up for the
  // peer) unless no data will follow or the exchange is about to block.
  const bool header_due = header_sent < kHeader && (flush_header || send.total == 0);
  return header_due || send.limit > send.done;
}
bool Channel::CanRecv() const { return header_received < kHeader || recv.limit > recv.done; }

Exchange::Exchange(const OpHeader& header, const ExchangeOptions& options, LinkSet* links)
    : header_(header), header_bytes_(header.Encode()), options_(options), links_(links) {
  channels_.reserve(links_->links().size());
}

Exchange::~Exchange() {
  for (Channel& ch : channels_) {
    if (ch.counted_waiting) ch.traffic->waiting.fetch_sub(1, std::memory_order_relaxed);
  }
}

void Exchange::CountTraffic(Channel* ch, std::size_t sent, std::size_t received) {
  LinkTraffic* t = ch->traffic;
  if (t == nullptr) return;
  // One writer per counter (this rank's collective thread): load + store, no locked add.
  if (sent > 0)
    t->sent.store(t->sent.load(std::memory_order_relaxed) + sent, std::memory_order_relaxed);
  if (received > 0) {
    t->received.store(t->received.load(std::memory_order_relaxed) + received,
                      std::memory_order_relaxed);
  }
  if (sent + received > 0)
    t->last_byte_ns.store(LinkTrafficTable::NowNs(), std::memory_order_relaxed);
  if (ch->counted_waiting && !ch->SendPending() && !ch->RecvPending()) {
    ch->counted_waiting = false;
    t->waiting.fetch_sub(1, std::memory_order_relaxed);
  }
}

Channel* Exchange::To(int peer) {
  for (Channel& ch : channels_) {
    if (ch.peer() == peer) return &ch;
  }
  Link* link = links_->ToPeer(peer);
  if (link == nullptr) return nullptr;
  Channel& ch = channels_.emplace_back();
  ch.link = link;
  ch.header_out = header_bytes_;
  ch.send_quiet_since = ch.recv_quiet_since = Clock::now();
  if (options_.traffic != nullptr && (ch.traffic = options_.traffic->Peer(peer)) != nullptr) {
    if (!ch.traffic->used.exchange(true, std::memory_order_relaxed)) {
      ch.traffic->last_byte_ns.store(LinkTrafficTable::NowNs(), std::memory_order_relaxed);
    }
    ch.traffic->waiting.fetch_add(1, std::memory_order_relaxed);
    ch.counted_waiting = true;
  }
  return &ch;
}

// A later phase's flow makes a link that had nothing left waited on again.
static void Rearm(Channel* ch) {
  if (ch->traffic == nullptr || ch->counted_waiting) return;
  if (!ch->SendPending() && !ch->RecvPending()) return;
  ch->counted_waiting = true;
  ch->traffic->waiting.fetch_add(1, std::memory_order_relaxed);
}

void Exchange::SetSend(Channel* ch, const Flow& flow) {
  ch->send = flow;
  Rearm(ch);
}

void Exchange::SetRecv(Channel* ch, const Flow& flow) {
  ch->recv = flow;
  Rearm(ch);
}

std::string Exchange::OpName() const {
  return header_.Describe() + " op #" + std::to_string(header_.sequence) + " on rank " +
         std::to_string(options_.rank);
}

bool Exchange::AnyPending() const {
  return std::any_of(channels_.begin(), channels_.end(),
                     [](const Channel& ch) { return ch.SendPending() || ch.RecvPending(); });
}

treering::Status Exchange::Run(const std::function<void()>& advance) {
  const auto spin = std::chrono::microseconds(options_.spin_microseconds);
  auto spin_until = Clock::now() + spin;
  while (true) {
    advance();
    if (!AnyPending()) return treering::Status::Ok();
    auto progressed = PumpAll();
    if (!progressed.ok()) return progressed.status();
    if (progressed.value()) {
      spin_until = Clock::now() + spin;
      continue;
    }
    // A peer's next bytes usually follow within microseconds: retrying (and yielding the core
    // to co-scheduled ranks) beats a poll() sleep + wake-up, as Open MPI's yield_when_idle does.
    if (Clock::now() < spin_until) {
      sched_yield();
      continue;
    }
    if (FlushHeaders()) continue;  // never block with a header unsent: peers check it
    treering::Status waited = WaitForIo();
    if (!waited.ok()) return waited;
  }
}

bool Exchange::FlushHeaders() {
  bool any = false;
  for (Channel& ch : channels_) {
    if (ch.header_sent < kHeader && !ch.flush_header) {
      ch.flush_header = true;
      any = true;
    }
  }
  return any;
}

treering::Result<bool> Exchange::PumpAll() {
  bool progressed = false;
  for (Channel& ch : channels_) {
    auto sent = PumpSend(&ch);
    if (!sent.ok()) return sent.status();
    auto received = PumpRecv(&ch);
    if (!received.ok()) return received.status();
    if (sent.value()) ch.send_quiet_since = Clock::now();
    if (received.value()) ch.recv_quiet_since = Clock::now();
    progressed = progressed || sent.value() || received.value();
  }
  return progressed;
}

treering::Result<bool> Exchange::PumpSend(Channel* ch) {
  if (!ch->CanSend()) return false;
  iovec iov[3];
  int n = 0;
  const std::size_t header_left = kHeader - ch->header_sent;
  if (header_left > 0) iov[n++] = {ch->header_out.data() + ch->header_sent, header_left};
  n += FlowIovecs(ch->send, ch->send.done, ch->send.limit, iov + n);
  msghdr msg{};
  msg.msg_iov = iov;
  msg.msg_iovlen = static_cast<std::size_t>(n);
  const ssize_t moved = ::sendmsg(ch->link->socket.fd(), &msg, MSG_NOSIGNAL | MSG_DONTWAIT);
  if (moved < 0) {
    if (WouldBlock(errno)) return false;
    return LinkError(*ch, std::string("sending to it failed: ") + std::strerror(errno));
  }
  std::size_t bytes = static_cast<std::size_t>(moved);
  const std::size_t to_header = std::min(bytes, header_left);
  ch->header_sent += to_header;
  ch->send.done += bytes - to_header;
  CountTraffic(ch, bytes, 0);
  return bytes > 0;
}

treering::Result<bool> Exchange::PumpRecv(Channel* ch) {
  if (!ch->CanRecv()) return false;
  iovec iov[3];
  int n = 0;
  const std::size_t header_left = kHeader - ch->header_received;
  if (header_left > 0) iov[n++] = {ch->header_in.data() + ch->header_received, header_left};
  n += FlowIovecs(ch->recv, ch->recv.done, ch->recv.limit, iov + n);
  msghdr msg{};
  msg.msg_iov = iov;
  msg.msg_iovlen = static_cast<std::size_t>(n);
  const ssize_t moved = ::recvmsg(ch->link->socket.fd(), &msg, MSG_DONTWAIT);
  if (moved == 0) return LinkError(*ch, "it closed its link (exited or failed)");
  if (moved < 0) {
    if (WouldBlock(errno)) return false;
    return LinkError(*ch, std::string("receiving from it failed: ") + std::strerror(errno));
  }
  const std::size_t bytes = static_cast<std::size_t>(moved);
  const std::size_t to_header = std::min(bytes, header_left);
  ch->header_received += to_header;
  ch->recv.done += bytes - to_header;
  CountTraffic(ch, 0, bytes);
  if (to_header > 0 && ch->HeaderArrived()) {
    treering::Status checked = CheckHeader(*ch);
    if (!checked.ok()) return checked;
  }
  return true;
}

treering::Status Exchange::CheckHeader(const Channel& ch) const {
  const auto theirs = OpHeader::Decode(ch.header_in.data());
  if (!theirs) {
    return treering::Status::Protocol(OpName() + ": rank " + std::to_string(ch.peer()) +
                                      " sent bytes that are not an op header (out of step)");
  }
  if (*theirs == header_) return treering::Status::Ok();
  return treering::Status::Protocol("collective mismatch: " +
                                    MismatchMessage(options_.rank, header_, ch.peer(), *theirs));
}

treering::Status Exchange::WaitForIo() {
  std::vector<pollfd> fds;
  fds.reserve(channels_.size() + 1);
  const auto now = Clock::now();
  const auto timeout = std::chrono::duration_cast<Clock::duration>(
      std::chrono::duration<double>(options_.timeout_seconds));
  Deadline deadline = now + 2 * timeout;
  for (Channel& ch : channels_) {
    // A direction blocked by our own progress (not by this peer) restarts its clock.
    if (ch.CanRecv())
      deadline = std::min(deadline, ch.recv_quiet_since + RecvPatience(ch));
    else
      ch.recv_quiet_since = now;
    if (ch.CanSend())
      deadline = std::min(deadline, ch.send_quiet_since + timeout);
    else
      ch.send_quiet_since = now;
    const short events =
        static_cast<short>((ch.CanRecv() ? POLLIN : 0) | (ch.CanSend() ? POLLOUT : 0));
    if (events != 0) fds.push_back({ch.link->socket.fd(), events, 0});
  }
  AbortWatch* watch = options_.abort_watch;
  if (watch != nullptr && watch->fd() >= 0) fds.push_back({watch->fd(), POLLIN, 0});
  const int rc = ::poll(fds.data(), fds.size(), MillisecondsLeft(deadline));
  if (rc < 0 && errno != EINTR) {
    return treering::Status::Network(OpName() + ": poll failed: " + std::strerror(errno));
  }
  if (rc == 0 && Clock::now() >= deadline) return TimeoutError(Clock::now());
  if (watch != nullptr && watch->fd() >= 0 && fds.back().revents != 0) {
    treering::Status aborted = watch->OnReadable();
    if (!aborted.ok()) return aborted.WithContext(OpName());
  }
  return treering::Status::Ok();
}

// A peer whose header for this op has arrived is alive and in the same op, so it is most likely
// waiting on someone else: give it twice the timeout, so that the ranks next to the real culprit
// (whose header never came) time out first and name it, and the rest see their links close.
Clock::duration Exchange::RecvPatience(const Channel& ch) const {
  const auto timeout = std::chrono::duration_cast<Clock::duration>(
      std::chrono::duration<double>(options_.timeout_seconds));
  return ch.HeaderArrived() ? 2 * timeout : timeout;
}

treering::Status Exchange::TimeoutError(Clock::time_point now) const {
  const auto timeout = std::chrono::duration<double>(options_.timeout_seconds);
  std::string absent, silent, stuck;
  auto add = [](std::string& list, int peer) {
    list += (list.empty() ? "rank " : ", rank ") + std::to_string(peer);
  };
  for (const Channel& ch : channels_) {
    if (ch.CanRecv() && now - ch.recv_quiet_since >= RecvPatience(ch)) {
      add(ch.HeaderArrived() ? silent : absent, ch.peer());
    }
    if (ch.CanSend() && now - ch.send_quiet_since >= timeout) add(stuck, ch.peer());
  }
  std::string what =
      OpName() + ": no progress within rabit_timeout (" + Seconds(options_.timeout_seconds) + ")";
  if (!absent.empty())
    what += "; " + absent + " never started this op (frozen, dead or far behind?)";
  if (!silent.empty())
    what +=
        "; " + silent + " started it but sent no data for " + Seconds(2 * options_.timeout_seconds);
  if (!stuck.empty()) what += "; " + stuck + " accepted no data";
  return treering::Status::Timeout(what);
}

treering::Status Exchange::LinkError(const Channel& ch, const std::string& what) const {
  return treering::Status::Network(OpName() + ": link to rank " + std::to_string(ch.peer()) +
                                   " failed: " + what);
}

}  // namespace rabit::transport
