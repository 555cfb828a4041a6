#include "bootstrap/tracker_bootstrap.h"

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

}  // namespace

// Both sides send PeerHello first, then check the other's token, epoch and rank.
Result<int> ShakeHands(TcpSocket& sock, const BootstrapConfig& config, int rank,
                       std::uint32_t epoch, Deadline deadline) {
  Status sent = sock.SendAll(proto::Encode(proto::PeerHello{config.token, rank, epoch}), deadline);
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
  if (hello->epoch != epoch) {
    return Status::Protocol("peer rank " + std::to_string(hello->rank) + " is in link epoch " +
                            std::to_string(hello->epoch) + ", this rank in " +
                            std::to_string(epoch));
  }
  return hello->rank;
}

namespace {

Status DialPeers(const proto::Assign& assign, const BootstrapConfig& config, Deadline deadline,
                 std::vector<Link>* links) {
  for (const proto::PeerAddress& peer : assign.connect_to) {
    const std::string where =
        "rank " + std::to_string(peer.rank) + " at " + peer.host + ":" + std::to_string(peer.port);
    auto sock = TcpSocket::ConnectWithRetry(peer.host, peer.port, deadline);
    if (!sock.ok()) return sock.status().WithContext("dialling " + where);
    auto rank = ShakeHands(sock.value(), config, assign.rank, assign.epoch, deadline);
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
    auto rank = ShakeHands(sock.value(), config, topo.rank, assign.epoch, deadline);
    if (!rank.ok()) return rank.status().WithContext("handshake with an accepted peer");
    const int r = rank.value();
    const bool known = std::find(expected.begin(), expected.end(), r) != expected.end();
    const bool duplicate =
        std::any_of(links->begin(), links->end(), [r](const Link& l) { return l.peer == r; });
    if (!known || duplicate || r <= topo.rank) {
      return Status::Protocol("rank " + std::to_string(r) + " dialled rank " +
                              std::to_string(topo.rank) + " but is not a neighbour expected to");
    }
    links->push_back(Link{r, std::move(sock.value())});
  }
  return Status::Ok();
}

// A first start sends command start; a restarted worker (attempt > 0) and a survivor relinking
// send recover, the survivor with its rank, the restarted worker with -1 (the tracker maps its
// task id to its old rank).
proto::Hello MakeHello(const BootstrapConfig& config, const std::string& host, std::uint16_t port,
                       int rank) {
  proto::Hello hello;
  hello.token = config.token;
  hello.task_id = config.task_id;
  const bool recover = rank >= 0 || config.attempt > 0;
  hello.command = recover ? proto::Command::kRecover : proto::Command::kStart;
  hello.rank = rank;
  hello.world_size = config.world_size;
  hello.attempt = config.attempt;
  hello.host = host;
  hello.port = port;
  return hello;
}

// Dials and accepts the links `assign` asks for and tunes them for collectives.
Result<LinkSet> LinkAsAssigned(TcpSocket& listener, const proto::Assign& assign,
                               const BootstrapConfig& config, Deadline deadline) {
  const Topology topo = TopologyOf(assign);
  std::vector<Link> links;
  Status linked = DialPeers(assign, config, deadline, &links);
  if (linked.ok()) linked = AcceptPeers(listener, assign, topo, config, deadline, &links);
  if (!linked.ok()) {
    return linked.WithContext("rank " + std::to_string(topo.rank) + " linking peers (epoch " +
                              std::to_string(assign.epoch) + ")");
  }
  for (Link& link : links) {
    Status tuned = link.socket.TuneForCollectives(config.socket_buffer_bytes);
    if (!tuned.ok()) return tuned;
  }
  return LinkSet(topo, std::move(links));
}

}  // namespace

Result<Bootstrapped> BootstrapThroughTracker(const BootstrapConfig& config) {
  const Deadline deadline = DeadlineAfter(config.timeout_seconds);
  auto listener = TcpSocket::Listen(0);
  if (!listener.ok()) return listener.status().WithContext("opening the peer listener");
  auto tracker = TrackerClient::Connect(config.tracker_host, config.tracker_port, deadline);
  if (!tracker.ok()) return tracker.status();
  const std::string host =
      config.advertised_host.empty() ? tracker.value()->LocalAddress() : config.advertised_host;
  auto assign = tracker.value()->Join(MakeHello(config, host, listener->port(), -1), deadline);
  if (!assign.ok()) return assign.status();
  auto links = LinkAsAssigned(listener.value(), assign.value(), config, deadline);
  if (!links.ok()) return links.status();
  return Bootstrapped{std::move(tracker.value()), std::move(links.value()), assign->epoch};
}

Result<LinkSet> RelinkThroughTracker(TrackerClient* tracker, const BootstrapConfig& config,
                                     int rank) {
  const Deadline deadline = DeadlineAfter(config.timeout_seconds);
  const std::string who = "rank " + std::to_string(rank) + " relinking";
  while (true) {
    // A fresh port per epoch: a peer still dialling an old one cannot reach this epoch's.
    auto listener = TcpSocket::Listen(0);
    if (!listener.ok()) return listener.status().WithContext("opening the peer listener");
    const std::string host =
        config.advertised_host.empty() ? tracker->LocalAddress() : config.advertised_host;
    auto assign = tracker->Join(MakeHello(config, host, listener->port(), rank), deadline);
    if (!assign.ok()) return assign.status().WithContext(who);
    if (assign->rank != rank) {
      return Status::Protocol("asked to relink rank " + std::to_string(rank) +
                              " but the tracker assigned rank " + std::to_string(assign->rank));
    }
    // Every peer listened before it asked, so linking is quick unless a peer died after its
    // Hello (two ranks killed together: the second may ask, then die). Then this epoch can
    // never complete: give up on it after link_timeout_seconds and ask for the next one.
    const Deadline link_deadline = std::min(deadline, DeadlineAfter(config.link_timeout_seconds));
    auto links = LinkAsAssigned(listener.value(), assign.value(), config, link_deadline);
    const bool link_failure =
        !links.ok() && (links.status().code() == treering::StatusCode::kNetwork ||
                        links.status().code() == treering::StatusCode::kTimeout);
    if (!link_failure || Clock::now() >= deadline) return links;
  }
}

}  // namespace rabit::transport
