#include "peer_handshake_harness.h"

#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>

#include "bootstrap/peer_handshake.h"

namespace rabit::bootstrap::fuzz {

using transport::Clock;
using transport::DeadlineAfter;
using transport::TcpSocket;

std::string CheckHandshakeOn(std::span<const std::uint8_t> input, std::string* error) {
  if (input.empty()) return "";
  const bool accept = input[0] % 2 == 0;
  const auto theirs = input.subspan(1, std::min(input.size() - 1, kMaxInput));
  int fds[2];
  if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds) != 0) return "socketpair failed";
  TcpSocket ours(fds[0]);
  TcpSocket other(fds[1]);
  // Everything the other side says, then EOF: ShakeHands never waits, so the deadline is only
  // a guard against a hang (a finding).
  if (!other.SendAll(theirs, DeadlineAfter(1)).ok()) return "could not queue the input";
  shutdown(other.fd(), SHUT_WR);
  const int candidates[] = {3, 4};
  const PeerAuth me{kToken, 1, 2};
  const auto start = Clock::now();
  auto r = accept
               ? ShakeHands(ours, LinkSide::kAccept, me, candidates, DeadlineAfter(5))
               : ShakeHands(ours, LinkSide::kDial, me, std::span(candidates, 1), DeadlineAfter(5));
  if (Clock::now() - start > std::chrono::seconds(4)) return "ShakeHands waited for its deadline";
  if (r.ok()) {
    // Only a right proof could get here; random bytes cannot make one.
    return "accepted a peer: rank " + std::to_string(r.value());
  }
  if (error != nullptr) *error = r.status().message();
  const treering::StatusCode code = r.status().code();
  if (code != treering::StatusCode::kProtocol && code != treering::StatusCode::kNetwork) {
    return "unexpected status: " + r.status().message();
  }
  if (r.status().message().empty()) return "an error without a message";
  if (r.status().message().find(kToken) != std::string::npos) return "the token in an error";
  return "";
}

}  // namespace rabit::bootstrap::fuzz
