#include "socket/tracker_bootstrap.h"

#include <algorithm>

namespace rabit::transport {
namespace proto = treering::proto;
namespace {

Topology TopologyOf(const proto::Assign& assign) {
  Topology t;
  t.rank = assign.rank;
  t.world = assign.world_size;
  t.parent = assign.parent;
  for (int peer : assign.tree_neighbours) {
    if (peer != assign.parent) t.children.push_back(peer);
  }
  t.ring_prev = assign.ring_prev;
  t.ring_next = assign.ring_next;
  return t;
}

// Both sides send PeerHello first, then check the other's token and rank.
Result<int> ShakeHands(TcpSocket& sock, const BootstrapConfig& config, int rank,
                       Deadline deadline) {
  Status sent = sock.SendAll(proto::Encode(proto::PeerHello{config.token, rank}), deadline);
  if (!sent.ok()) return sent;
  auto frame = ReadProtoFrame(sock, deadline);
  if (!frame.ok()) return frame.status();
  if (frame->first.kind != proto::Kind::kPeerHello) {
    return Status::Protocol("peer sent frame kind " +
                            std::to_string(static_cast<int>(frame->first.kind)) +
                            " instead of PeerHello");
  }
  auto hello = proto::DecodePeerHello(frame->second);
  if (!hello.ok()) return hello.status();
  if (hello->token != config.token) return Status::Protocol("peer has another job token");
  return hello->rank;
}

Status DialPeers(const proto::Assign& assign, const BootstrapConfig& config, Deadline deadline,
                 std::vector<Link>* links) {
  for (const proto::PeerAddress& peer : assign.connect_to) {
    const std::string where = "rank " + std::to_string(peer.rank) + " at " + peer.host + ":" +
                              std::to_string(peer.port);
    auto sock = TcpSocket::ConnectWithRetry(peer.host, peer.port, deadline);
    if (!sock.ok()) return sock.status().WithContext("dialling " + where);
    auto rank = ShakeHands(sock.value(), config, assign.rank, deadline);
    if (!rank.ok()) return rank.status().WithContext("handshake with " + where);
    if (rank.value() != peer.rank) {
      return Status::Protocol("dialled " + where + " but it says it is rank " +
                              std::to_string(rank.value()));
    }
    links->push_back(Link{peer.rank, std::move(sock.value())});
  }
  return Status::Ok();
}

Status AcceptPeers(TcpSocket& listener, const proto::Assign& assign, const Topology& topo,
                   const BootstrapConfig& config, Deadline deadline, std::vector<Link>* links) {
  const std::vector<int> expected = topo.AllNeighbours();
  for (std::uint32_t i = 0; i < assign.num_accept; ++i) {
    auto sock = listener.Accept(deadline);
    if (!sock.ok()) {
      return sock.status().WithContext("waiting for " + std::to_string(assign.num_accept - i) +
                                       " more peer(s) to dial rank " + std::to_string(topo.rank));
    }
    auto rank = ShakeHands(sock.value(), config, topo.rank, deadline);
    if (!rank.ok()) return rank.status().WithContext("handshake with an accepted peer");
    const int r = rank.value();
    const bool known = std::find(expected.begin(), expected.end(), r) != expected.end();
    const bool duplicate = std::any_of(links->begin(), links->end(),
                                       [r](const Link& l) { return l.peer == r; });
    if (!known || duplicate || r <= topo.rank) {
      return Status::Protocol("rank " + std::to_string(r) + " dialled rank " +
                              std::to_string(topo.rank) + " but is not a neighbour expected to");
    }
    links->push_back(Link{r, std::move(sock.value())});
  }
  return Status::Ok();
}

proto::Hello MakeHello(const BootstrapConfig& config, const std::string& host,
                       std::uint16_t port) {
  proto::Hello hello;
  hello.token = config.token;
  hello.task_id = config.task_id;
  hello.command = proto::Command::kStart;
  hello.world_size = config.world_size;
  hello.attempt = config.attempt;
  hello.host = host;
  hello.port = port;
  return hello;
}

}  // namespace

Result<Bootstrapped> BootstrapThroughTracker(const BootstrapConfig& config) {
  const Deadline deadline = DeadlineAfter(config.timeout_seconds);
  auto listener = TcpSocket::Listen(0);
  if (!listener.ok()) return listener.status().WithContext("opening the peer listener");
  auto tracker = TrackerClient::Connect(config.tracker_host, config.tracker_port, deadline);
  if (!tracker.ok()) return tracker.status();
  const std::string host = config.advertised_host.empty() ? tracker.value()->LocalAddress()
                                                          : config.advertised_host;
  auto assign = tracker.value()->Join(MakeHello(config, host, listener->port()), deadline);
  if (!assign.ok()) return assign.status();
  const Topology topo = TopologyOf(assign.value());
  std::vector<Link> links;
  Status linked = DialPeers(assign.value(), config, deadline, &links);
  if (linked.ok()) linked = AcceptPeers(listener.value(), assign.value(), topo, config, deadline, &links);
  if (!linked.ok()) return linked.WithContext("rank " + std::to_string(topo.rank) + " linking peers");
  for (Link& link : links) {
    Status tuned = link.socket.TuneForCollectives(config.socket_buffer_bytes);
    if (!tuned.ok()) return tuned;
  }
  return Bootstrapped{std::move(tracker.value()), LinkSet(topo, std::move(links))};
}

}  // namespace rabit::transport
