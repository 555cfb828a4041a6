// The worker side of the handshakes (tracker/auth.h) against a tracker the test plays itself:
// the job token never crosses the wire (neither to the tracker nor to a stranger on a peer
// port), strangers that connect to a worker's peer port during link set-up are dropped while
// the real link is still made, the peer listener is bound to the advertised address only, and
// a host that cannot resolve fails at once, naming it.
#include <netinet/in.h>
#include <sys/socket.h>

#include <chrono>
#include <optional>
#include <string>
#include <thread>

#include <gtest/gtest.h>

#include "bootstrap/peer_handshake.h"
#include "bootstrap/tracker_bootstrap.h"
#include "collective/communicator.h"
#include "tracker/protocol.h"

namespace rabit::bootstrap {

using collective::CollectiveOptions;
using collective::Communicator;
using transport::Deadline;
using transport::DeadlineAfter;
using transport::TcpSocket;
using treering::Result;
using treering::Status;

namespace {

namespace proto = treering::proto;
using Bytes = std::vector<std::uint8_t>;
constexpr char kToken[] = "sekrit-job-token-4711";

bool Contains(const Bytes& haystack, const std::string& needle) {
  return std::search(haystack.begin(), haystack.end(), needle.begin(), needle.end()) !=
         haystack.end();
}

// The tracker's half of the native protocol over plain sockets, one step at a time, so the test
// decides what happens between the Hellos and the Assigns. Records every payload it receives.
class ScriptedTracker {
 public:
  explicit ScriptedTracker(const std::string& host) {
    auto l = TcpSocket::Listen(host, 0);
    EXPECT_TRUE(l.ok()) << l.status().message();
    if (l.ok()) listener_ = std::move(l.value());
  }
  std::uint16_t port() const { return listener_.port(); }

  // Accepts one worker and authenticates it; returns its Hello.
  Result<proto::Hello> Admit() {
    const Deadline deadline = DeadlineAfter(20);
    auto sock = listener_.Accept(deadline);
    if (!sock.ok()) return sock.status();
    auto hello_frame = Read(sock.value(), deadline);
    if (!hello_frame.ok()) return hello_frame.status();
    auto hello = proto::DecodeHello(hello_frame.value());
    if (!hello.ok()) return hello.status();
    const proto::Nonce nonce = proto::NewNonce().value();
    Status s = sock->SendAll(proto::Encode(proto::Challenge{nonce}), deadline);
    if (!s.ok()) return s;
    auto proof_frame = Read(sock.value(), deadline);
    if (!proof_frame.ok()) return proof_frame.status();
    auto proof = proto::DecodeProof(proof_frame.value());
    if (!proof.ok()) return proof.status();
    if (!proto::SameMac(proof->mac, proto::HelloProof(kToken, proto::Prover::kWorker, nonce,
                                                      hello_frame.value()))) {
      return Status::Protocol("the worker's proof does not verify");
    }
    s = sock->SendAll(proto::Encode(proto::Proof{proto::HelloProof(kToken, proto::Prover::kTracker,
                                                                   nonce, hello_frame.value())}),
                      deadline);
    if (!s.ok()) return s;
    workers_.push_back(std::move(sock.value()));
    task_of_.push_back(hello->task_id);
    return hello;
  }

  Status SendAssign(const std::string& task, const proto::Assign& a) {
    for (std::size_t i = 0; i < workers_.size(); ++i) {
      if (task_of_[i] == task) return workers_[i].SendAll(proto::Encode(a), DeadlineAfter(5));
    }
    return Status::Internal("no worker with task " + task);
  }

  const Bytes& received() const { return received_; }

 private:
  Result<Bytes> Read(TcpSocket& sock, Deadline deadline) {
    auto frame = ReadProtoFrame(sock, deadline);
    if (!frame.ok()) return frame.status();
    received_.insert(received_.end(), frame->second.begin(), frame->second.end());
    return std::move(frame->second);
  }

  TcpSocket listener_;
  std::vector<TcpSocket> workers_;
  std::vector<std::string> task_of_;
  Bytes received_;
};

// Rank 0 accepts rank 1; rank 1 dials rank 0 at `host0:port0`.
proto::Assign AssignFor(int rank, const std::string& host0, std::uint16_t port0) {
  proto::Assign a;
  a.rank = rank;
  a.world_size = 2;
  a.parent = rank == 0 ? -1 : 0;
  a.tree_neighbours = {1 - rank};
  a.ring_prev = a.ring_next = 1 - rank;
  if (rank == 1) a.connect_to = {{0, host0, port0}};
  a.num_accept = rank == 0 ? 1 : 0;
  return a;
}

BootstrapConfig ConfigFor(const std::string& tracker_host, std::uint16_t port, int task) {
  BootstrapConfig c;
  c.tracker_host = tracker_host;
  c.tracker_port = port;
  c.token = kToken;
  c.task_id = std::to_string(task);
  c.world_size = 2;
  c.timeout_seconds = 30;
  return c;
}

// A worker thread: bootstrap, then one allreduce of (rank + 1) over the links it got.
struct Worker {
  Worker(const std::string& tracker_host, std::uint16_t port, int task)
      : thread([this, tracker_host, port, task] {
          auto boot = BootstrapThroughTracker(ConfigFor(tracker_host, port, task));
          if (!boot.ok()) {
            error = boot.status().message();
            return;
          }
          auto comm = Communicator::Create(std::move(boot->links), CollectiveOptions{}, nullptr);
          if (!comm.ok()) {
            error = comm.status().message();
            return;
          }
          std::int64_t v = comm.value()->rank() + 1;
          Status s = comm.value()->Allreduce(1, &v, 1, DataType::kInt64, OpKind::kSum);
          if (!s.ok()) error = s.message();
          sum = v;
        }) {}
  ~Worker() {
    if (thread.joinable()) thread.join();
  }
  std::string error;
  std::int64_t sum = -1;
  std::thread thread;
};

Result<TcpSocket> Dial(const std::string& host, std::uint16_t port) {
  return TcpSocket::Connect(host, port, DeadlineAfter(5));
}

// What a stranger that connects gets before it says anything: exactly one Challenge frame.
Bytes ReadChallenge(TcpSocket& sock) {
  Bytes b(proto::kHeaderBytes + proto::kNonceBytes);
  Status s = sock.RecvAll(b, DeadlineAfter(10));
  EXPECT_TRUE(s.ok()) << s.message();
  return b;
}

// True when the worker hangs up on us without sending another byte.
bool HungUp(TcpSocket& sock) {
  std::uint8_t byte = 0;
  Status s = sock.RecvAll(std::span(&byte, 1), DeadlineAfter(10));
  return s.code() == treering::StatusCode::kNetwork;
}

// Strangers knock on rank 0's peer port while it waits for rank 1: one reads the challenge and
// stays silent, one hangs up, one sends an HTTP request, one answers with a proof made from a wrong
// token, one with the right token but another epoch (a dial left over from an older epoch). Each is
// dropped, none learns more than a random nonce, and rank 1's real link is still made.
TEST(BootstrapAuthTest, StrangersAtThePeerPortAreDroppedAndTheJobCompletes) {
  ScriptedTracker tracker("127.0.0.1");
  Worker w0("127.0.0.1", tracker.port(), 0), w1("127.0.0.1", tracker.port(), 1);
  auto first = tracker.Admit();
  auto second = tracker.Admit();
  ASSERT_TRUE(first.ok() && second.ok());
  const proto::Hello& h0 = first->task_id == "0" ? first.value() : second.value();
  ASSERT_TRUE(tracker.SendAssign("0", AssignFor(0, h0.host, h0.port)).ok());

  // One stays connected and silent: the worker gives up on it after 5 s and goes on.
  auto lingering = Dial(h0.host, h0.port);
  ASSERT_TRUE(lingering.ok());
  ReadChallenge(lingering.value());

  auto silent = Dial(h0.host, h0.port);
  ASSERT_TRUE(silent.ok());
  const Bytes challenge = ReadChallenge(silent.value());
  EXPECT_EQ(challenge[6], static_cast<std::uint8_t>(proto::Kind::kChallenge));
  EXPECT_FALSE(Contains(challenge, kToken));
  silent->Close();

  auto http = Dial(h0.host, h0.port);
  ASSERT_TRUE(http.ok());
  const std::string get = "GET / HTTP/1.1\r\n\r\n";
  ASSERT_TRUE(http->SendAll(Bytes(get.begin(), get.end()), DeadlineAfter(5)).ok());
  ReadChallenge(http.value());
  EXPECT_TRUE(HungUp(http.value()));

  for (const auto& [token, epoch] : {std::pair<std::string, std::uint32_t>{"wrong-token", 0},
                                     std::pair<std::string, std::uint32_t>{kToken, 7}}) {
    auto liar = Dial(h0.host, h0.port);
    ASSERT_TRUE(liar.ok());
    const Bytes c = ReadChallenge(liar.value());
    auto nonce = proto::DecodeChallenge(std::span(c).subspan(proto::kHeaderBytes));
    ASSERT_TRUE(nonce.ok());
    proto::PeerHello hello{1, epoch, proto::NewNonce().value(), {}};
    hello.proof =
        proto::PeerProof(token, proto::Prover::kDialler, {hello.nonce, nonce->nonce, epoch, 1, 0});
    ASSERT_TRUE(liar->SendAll(proto::Encode(hello), DeadlineAfter(5)).ok());
    EXPECT_TRUE(HungUp(liar.value())) << "token " << token << ", epoch " << epoch;
  }

  ASSERT_TRUE(tracker.SendAssign("1", AssignFor(1, h0.host, h0.port)).ok());
  w0.thread.join();
  w1.thread.join();
  EXPECT_EQ(w0.error, "");
  EXPECT_EQ(w1.error, "");
  EXPECT_EQ(w0.sum, 3);
  EXPECT_EQ(w1.sum, 3);
  // Both Hellos and both Proofs reached the tracker; the token is in none of them.
  EXPECT_GT(tracker.received().size(), 2 * (proto::kNonceBytes + proto::kMacBytes));
  EXPECT_FALSE(Contains(tracker.received(), kToken));
}

// Silent strangers cost the real peer nothing: each handshake runs on its own thread, so 40 of
// them holding connections open (more than the 32 handshake slots: the oldest are cancelled) do
// not delay rank 1's link. Handled one at a time, as before, each held the accept loop for 5 s
// and the job missed its 30 s deadline.
TEST(BootstrapAuthTest, SilentStrangersDoNotDelayTheRealPeer) {
  ScriptedTracker tracker("127.0.0.1");
  Worker w0("127.0.0.1", tracker.port(), 0), w1("127.0.0.1", tracker.port(), 1);
  auto first = tracker.Admit();
  auto second = tracker.Admit();
  ASSERT_TRUE(first.ok() && second.ok());
  const proto::Hello& h0 = first->task_id == "0" ? first.value() : second.value();
  ASSERT_TRUE(tracker.SendAssign("0", AssignFor(0, h0.host, h0.port)).ok());
  std::vector<TcpSocket> strangers;
  for (int i = 0; i < 40; ++i) {
    auto s = Dial(h0.host, h0.port);
    ASSERT_TRUE(s.ok());
    strangers.push_back(std::move(s.value()));
  }
  const auto start = std::chrono::steady_clock::now();
  ASSERT_TRUE(tracker.SendAssign("1", AssignFor(1, h0.host, h0.port)).ok());
  w0.thread.join();
  w1.thread.join();
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_EQ(w0.error, "");
  EXPECT_EQ(w1.error, "");
  EXPECT_EQ(w0.sum, 3);
  EXPECT_LT(seconds, 2.0) << "the real peer waited behind the strangers";
}

// Linux routes all of 127.0.0.0/8 to loopback; false where this sandbox does not.
bool SecondLoopbackAddressWorks() {
  auto any = TcpSocket::Listen("0.0.0.0", 0);
  if (!any.ok()) return false;
  return TcpSocket::Connect("127.0.0.2", any->port(), DeadlineAfter(2)).ok();
}

// A loopback job advertises 127.0.0.1, so its peer port must not answer on another address.
TEST(BootstrapAuthTest, PeerListenerIsBoundToTheAdvertisedAddressOnly) {
  ScriptedTracker tracker("127.0.0.1");
  Worker w0("127.0.0.1", tracker.port(), 0);
  auto hello = tracker.Admit();
  ASSERT_TRUE(hello.ok()) << hello.status().message();
  EXPECT_EQ(hello->host, "127.0.0.1");
  EXPECT_TRUE(Dial("127.0.0.1", hello->port).ok());  // the advertised address answers
  if (SecondLoopbackAddressWorks()) {
    auto other = Dial("127.0.0.2", hello->port);
    EXPECT_FALSE(other.ok()) << "the peer port answers on 127.0.0.2: bound to every interface";
  } else {
    std::printf(
        "note: 127.0.0.2 does not reach a wildcard listener here; only 127.0.0.1 checked\n");
  }
  // Let the worker go: a one-rank world needs no links.
  proto::Assign solo;
  solo.rank = 0;
  solo.world_size = 1;
  ASSERT_TRUE(tracker.SendAssign("0", solo).ok());
  w0.thread.join();
}

bool HasIpv6Loopback() { return TcpSocket::Listen("::1", 0).ok(); }

// The same two-rank job over ::1: Hello, links and the allreduce work on IPv6, and the
// listener answers on ::1 but not on 127.0.0.1.
TEST(BootstrapAuthTest, TwoRanksLinkOverIpv6Loopback) {
  if (!HasIpv6Loopback()) GTEST_SKIP() << "no IPv6 loopback (::1) on this machine";
  ScriptedTracker tracker("::1");
  Worker w0("::1", tracker.port(), 0), w1("::1", tracker.port(), 1);
  auto first = tracker.Admit();
  auto second = tracker.Admit();
  ASSERT_TRUE(first.ok() && second.ok());
  const proto::Hello& h0 = first->task_id == "0" ? first.value() : second.value();
  EXPECT_EQ(h0.host, "::1");
  EXPECT_FALSE(Dial("127.0.0.1", h0.port).ok());
  ASSERT_TRUE(tracker.SendAssign("0", AssignFor(0, h0.host, h0.port)).ok());
  ASSERT_TRUE(tracker.SendAssign("1", AssignFor(1, h0.host, h0.port)).ok());
  w0.thread.join();
  w1.thread.join();
  EXPECT_EQ(w0.error, "");
  EXPECT_EQ(w1.error, "");
  EXPECT_EQ(w0.sum, 3);
  EXPECT_EQ(w1.sum, 3);
}

// A name that does not resolve is permanent: no retrying until the bootstrap deadline (30 s).
TEST(BootstrapAuthTest, UnresolvableHostsFailAtOnceNamingTheHost) {
  const auto start = std::chrono::steady_clock::now();
  auto boot = BootstrapThroughTracker(ConfigFor("no-such-tracker.invalid", 9, 0));
  ASSERT_FALSE(boot.ok());
  EXPECT_NE(boot.status().message().find("no-such-tracker.invalid"), std::string::npos)
      << boot.status().message();
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(5));

  // A peer address that does not resolve (rank 1 is told to dial it).
  ScriptedTracker tracker("127.0.0.1");
  Worker w1("127.0.0.1", tracker.port(), 1);
  ASSERT_TRUE(tracker.Admit().ok());
  const auto assigned = std::chrono::steady_clock::now();
  ASSERT_TRUE(tracker.SendAssign("1", AssignFor(1, "no-such-peer.invalid", 9)).ok());
  w1.thread.join();
  EXPECT_NE(w1.error.find("no-such-peer.invalid"), std::string::npos) << w1.error;
  EXPECT_LT(std::chrono::steady_clock::now() - assigned, std::chrono::seconds(5));
}

}  // namespace
}  // namespace rabit::bootstrap
