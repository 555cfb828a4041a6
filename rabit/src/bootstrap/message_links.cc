#include "bootstrap/message_links.h"

#include <cstring>

#include "bootstrap/peer_acceptor.h"
#include "bootstrap/peer_handshake.h"

namespace rabit::bootstrap {

using treering::Result;
using treering::Status;

namespace {

// One rank's listening address in the Allgather: NUL-padded host, then the port (LE).
constexpr std::size_t kHostBytes = 64;
constexpr std::size_t kSlotBytes = kHostBytes + 2;

struct Address {
  std::string host;
  std::uint16_t port;
};

Result<std::vector<Address>> ExchangeAddresses(collective::Communicator& comm, std::uint64_t seq,
                                               const std::string& host, std::uint16_t port) {
  if (host.size() >= kHostBytes) {
    return Status::InvalidInput("peer links: host name '" + host + "' is longer than " +
                                std::to_string(kHostBytes - 1) + " bytes");
  }
  const int world = comm.world();
  std::vector<std::uint8_t> slots(kSlotBytes * world, 0);
  std::uint8_t* mine = slots.data() + kSlotBytes * comm.rank();
  std::memcpy(mine, host.data(), host.size());
  mine[kHostBytes] = static_cast<std::uint8_t>(port & 0xff);
  mine[kHostBytes + 1] = static_cast<std::uint8_t>(port >> 8);
  Status gathered = comm.Allgather(seq, slots.data(), std::vector<std::size_t>(world, kSlotBytes));
  if (!gathered.ok()) return gathered.WithContext("exchanging peer-link addresses");
  std::vector<Address> out(world);
  for (int r = 0; r < world; ++r) {
    const auto* slot = reinterpret_cast<const char*>(slots.data() + kSlotBytes * r);
    out[r].host.assign(slot, strnlen(slot, kHostBytes - 1));
    out[r].port = static_cast<std::uint16_t>(slots[kSlotBytes * r + kHostBytes] |
                                             (slots[kSlotBytes * r + kHostBytes + 1] << 8));
  }
  return out;
}

}  // namespace

Result<std::vector<transport::Link>> LinkPeers(collective::Communicator& comm, std::uint64_t seq,
                                               const std::string& host,
                                               const BootstrapConfig& config, std::uint32_t epoch,
                                               const std::vector<int>& peers,
                                               const std::string& what) {
  const transport::Deadline deadline = transport::DeadlineAfter(config.timeout_seconds);
  const int rank = comm.rank();
  auto listener = OpenPeerListener(host);
  if (!listener.ok()) return listener.status().WithContext("opening the " + what + " listener");
  auto addresses = ExchangeAddresses(comm, seq, host, listener->port());
  if (!addresses.ok()) return addresses.status();
  const PeerAuth me{config.token, rank, epoch};
  std::vector<transport::Link> links;
  std::vector<int> higher;
  for (int peer : peers) {
    if (peer > rank) {
      higher.push_back(peer);
      continue;
    }
    const Address& a = addresses.value()[peer];
    const std::string where = "rank " + std::to_string(peer) + "'s " + what + " at " + a.host +
                              ":" + std::to_string(a.port);
    auto sock = transport::TcpSocket::ConnectWithRetry(a.host, a.port, deadline);
    if (!sock.ok()) return sock.status().WithContext("dialling " + where);
    const int want[] = {peer};
    auto got = ShakeHands(sock.value(), LinkSide::kDial, me, want, deadline);
    if (!got.ok()) return got.status().WithContext("handshake with " + where);
    links.push_back(transport::Link{peer, std::move(sock.value())});
  }
  if (!higher.empty()) {
    Status accepted =
        AcceptExpectedPeers(listener.value(), std::move(higher), me, deadline, &links);
    if (!accepted.ok()) {
      return accepted.WithContext("rank " + std::to_string(rank) + " accepting " + what + "s");
    }
  }
  for (transport::Link& link : links) {
    Status tuned = link.socket.TuneForCollectives(config.socket_buffer_bytes);
    if (!tuned.ok()) return tuned;
  }
  return links;
}

Result<std::vector<transport::Link>> LinkMessagePeers(collective::Communicator& comm,
                                                      std::uint64_t seq, const std::string& host,
                                                      const BootstrapConfig& config,
                                                      std::uint32_t epoch) {
  std::vector<int> others;
  for (int r = 0; r < comm.world(); ++r) {
    if (r != comm.rank()) others.push_back(r);
  }
  return LinkPeers(comm, seq, host, config, epoch, others, "message link");
}

}  // namespace rabit::bootstrap
