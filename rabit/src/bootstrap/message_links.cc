#include "bootstrap/message_links.h"

#include <algorithm>

#include "bootstrap/peer_acceptor.h"
#include "bootstrap/peer_handshake.h"
#include "transport/wire_format.h"

namespace rabit::bootstrap {

using treering::Result;
using treering::Status;

namespace {

// One rank's listening address in the Allgather: a fixed-size slot (transport/wire_format.h).
using transport::AddressSlot;
using Address = AddressSlot;

Result<std::vector<Address>> ExchangeAddresses(collective::Communicator& comm, std::uint64_t seq,
                                               const std::string& host, std::uint16_t port) {
  constexpr std::size_t kHostBytes = AddressSlot::kHostBytes, kSlot = AddressSlot::kBytes;
  if (host.size() >= kHostBytes) {
    return Status::InvalidInput("peer links: host name '" + host + "' is longer than " +
                                std::to_string(kHostBytes - 1) + " bytes");
  }
  const int world = comm.world();
  std::vector<std::uint8_t> slots(kSlot * world, 0);
  const auto mine = AddressSlot{host, port}.Encode();
  std::copy(mine.begin(), mine.end(), slots.begin() + kSlot * comm.rank());
  Status gathered = comm.Allgather(seq, slots.data(), std::vector<std::size_t>(world, kSlot));
  if (!gathered.ok()) return gathered.WithContext("exchanging peer-link addresses");
  std::vector<Address> out;
  for (int r = 0; r < world; ++r) {
    auto slot = AddressSlot::Decode({slots.data() + kSlot * r, kSlot});
    if (!slot.ok()) return slot.status().WithContext("rank " + std::to_string(r));
    out.push_back(std::move(slot.value()));
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
