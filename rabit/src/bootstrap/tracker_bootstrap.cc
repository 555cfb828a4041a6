#include "bootstrap/tracker_bootstrap.h"

#include <algorithm>
#include <cstdio>

#include "bootstrap/peer_acceptor.h"
#include "bootstrap/peer_handshake.h"

namespace rabit::bootstrap {

using treering::Result;
using treering::Status;

namespace proto = treering::proto;
namespace {

transport::Topology TopologyOf(const proto::Assign& assign) {
  transport::Topology t;
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

PeerAuth AuthFor(const BootstrapConfig& config, const proto::Assign& assign) {
  return PeerAuth{config.token, assign.rank, assign.epoch};
}

Status DialPeers(const proto::Assign& assign, const BootstrapConfig& config,
                 transport::Deadline deadline, std::vector<transport::Link>* links) {
  for (const proto::PeerAddress& peer : assign.connect_to) {
    const std::string where =
        "rank " + std::to_string(peer.rank) + " at " + peer.host + ":" + std::to_string(peer.port);
    auto sock = transport::TcpSocket::ConnectWithRetry(peer.host, peer.port, deadline);
    if (!sock.ok()) return sock.status().WithContext("dialling " + where);
    const int want[] = {peer.rank};
    auto rank = ShakeHands(sock.value(), LinkSide::kDial, AuthFor(config, assign), want, deadline);
    if (!rank.ok()) return rank.status().WithContext("handshake with " + where);
    links->push_back(transport::Link{peer.rank, std::move(sock.value())});
  }
  return Status::Ok();
}

// The higher-ranked neighbours, which dial us.
std::vector<int> ExpectedDiallers(const transport::Topology& topo) {
  std::vector<int> expected;
  for (int peer : topo.AllNeighbours()) {
    if (peer > topo.rank) expected.push_back(peer);
  }
  return expected;
}

// Accepts until every expected dialler is linked; strangers are logged and dropped
// (peer_acceptor.h), only the deadline ends the wait.
Status AcceptPeers(transport::TcpSocket& listener, const proto::Assign& assign,
                   const transport::Topology& topo, const BootstrapConfig& config,
                   transport::Deadline deadline, std::vector<transport::Link>* links) {
  std::vector<int> waiting = ExpectedDiallers(topo);
  if (waiting.size() != assign.num_accept) {
    return Status::Protocol("the tracker says " + std::to_string(assign.num_accept) +
                            " peers dial rank " + std::to_string(topo.rank) + ", its topology " +
                            std::to_string(waiting.size()));
  }
  return AcceptExpectedPeers(listener, std::move(waiting), AuthFor(config, assign), deadline,
                             links);
}

// A first start sends command start; a restarted worker (attempt > 0) and a survivor relinking
// send recover, the survivor with its rank, the restarted worker with -1 (the tracker maps its
// task id to its old rank).
proto::Hello MakeHello(const BootstrapConfig& config, const std::string& host, std::uint16_t port,
                       int rank) {
  proto::Hello hello;
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
Result<transport::LinkSet> LinkAsAssigned(transport::TcpSocket& listener,
                                          const proto::Assign& assign,
                                          const BootstrapConfig& config,
                                          transport::Deadline deadline) {
  const transport::Topology topo = TopologyOf(assign);
  std::vector<transport::Link> links;
  Status linked = DialPeers(assign, config, deadline, &links);
  if (linked.ok()) linked = AcceptPeers(listener, assign, topo, config, deadline, &links);
  if (!linked.ok()) {
    return linked.WithContext("rank " + std::to_string(topo.rank) + " linking peers (epoch " +
                              std::to_string(assign.epoch) + ")");
  }
  for (transport::Link& link : links) {
    Status tuned = link.socket.TuneForCollectives(config.socket_buffer_bytes);
    if (!tuned.ok()) return tuned;
  }
  return transport::LinkSet(topo, std::move(links));
}

}  // namespace

// Binds the advertised address, so the peer port is open only where peers are told to dial (a
// loopback job stays on loopback). An address that is not this machine's (NAT, a container's
// published address) cannot be bound: then every interface of its family, said on stderr.
Result<transport::TcpSocket> OpenPeerListener(const std::string& host) {
  auto listener = transport::TcpSocket::Listen(host, 0);
  if (listener.ok() || listener.status().code() != treering::StatusCode::kNetwork) {
    return listener;
  }
  const std::string any = host.find(':') != std::string::npos ? "::" : "0.0.0.0";
  std::fprintf(stderr, "peer listener: %s; listening on %s instead\n",
               listener.status().message().c_str(), any.c_str());
  return transport::TcpSocket::Listen(any, 0);
}

namespace {

std::string AdvertisedHost(const BootstrapConfig& config, const TrackerClient& tracker) {
  return config.advertised_host.empty() ? tracker.LocalAddress() : config.advertised_host;
}

}  // namespace

Result<Bootstrapped> BootstrapThroughTracker(const BootstrapConfig& config) {
  const transport::Deadline deadline = transport::DeadlineAfter(config.timeout_seconds);
  auto tracker =
      TrackerClient::Connect(config.tracker_host, config.tracker_port, config.token, deadline);
  if (!tracker.ok()) return tracker.status();
  const std::string host = AdvertisedHost(config, *tracker.value());
  auto listener = OpenPeerListener(host);
  if (!listener.ok()) return listener.status().WithContext("opening the peer listener");
  auto assign = tracker.value()->Join(MakeHello(config, host, listener->port(), -1), deadline);
  if (!assign.ok()) return assign.status();
  auto links = LinkAsAssigned(listener.value(), assign.value(), config, deadline);
  if (!links.ok()) return links.status();
  return Bootstrapped{std::move(tracker.value()), std::move(links.value()), assign->epoch};
}

Result<transport::LinkSet> RelinkThroughTracker(TrackerClient* tracker,
                                                const BootstrapConfig& config, int rank) {
  const transport::Deadline deadline = transport::DeadlineAfter(config.timeout_seconds);
  const std::string who = "rank " + std::to_string(rank) + " relinking";
  while (true) {
    // A second try after a dead peer of a resized epoch asks under the rank it was given.
    // A fresh port per epoch: a peer still dialling an old one cannot reach this epoch's.
    const std::string host = AdvertisedHost(config, *tracker);
    auto listener = OpenPeerListener(host);
    if (!listener.ok()) return listener.status().WithContext("opening the peer listener");
    auto assign = tracker->Join(MakeHello(config, host, listener->port(), rank), deadline);
    if (!assign.ok()) return assign.status().WithContext(who);
    if (assign->rank != rank && !config.elastic) {
      return Status::Protocol("asked to relink rank " + std::to_string(rank) +
                              " but the tracker assigned rank " + std::to_string(assign->rank));
    }
    // Every peer listened before it asked, so linking is quick unless a peer died after its
    // Hello (two ranks killed together: the second may ask, then die). Then this epoch can
    // never complete: give up on it after link_timeout_seconds and ask for the next one.
    const transport::Deadline link_deadline =
        std::min(deadline, transport::DeadlineAfter(config.link_timeout_seconds));
    auto links = LinkAsAssigned(listener.value(), assign.value(), config, link_deadline);
    const bool link_failure =
        !links.ok() && (links.status().code() == treering::StatusCode::kNetwork ||
                        links.status().code() == treering::StatusCode::kTimeout);
    if (!link_failure || transport::Clock::now() >= deadline) return links;
    rank = assign->rank;
  }
}

}  // namespace rabit::bootstrap
