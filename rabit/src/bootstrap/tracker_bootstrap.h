// Tracker bootstrap: turns the environment's tracker address into a ready LinkSet.
//   1. connect to the tracker;
//   2. listen for peers on port 0 of the advertised address (before saying Hello, so the port
//      can be advertised; bound to that address only, not to every interface);
//   3. send Hello (task id, attempt, advertised host:port) and prove the job token
//      (challenge-response, tracker/auth.h: the token is never sent);
//   4. receive Assign (rank, tree, ring, whom to dial, how many will dial us);
//   5. dial every connect_to peer (retrying until the bootstrap deadline) and accept the
//      higher-ranked ones; each link is authenticated by ShakeHands (peer_handshake.h). A
//      connection that fails it is logged and dropped, and the wait for the real peers goes on.
// Every step is bounded by the bootstrap deadline; errors name the peer or the tracker.
// A restarted worker (attempt > 0) says Hello{command=recover, rank=-1} instead and gets its
// old rank back in the next recovery epoch; survivors rebuild their links with
// RelinkThroughTracker (docs/fault-tolerance.md).
#pragma once

#include <memory>
#include <string>

#include "bootstrap/tracker_client.h"
#include "transport/link_set.h"

namespace rabit::bootstrap {

struct BootstrapConfig {
  std::string tracker_host;
  std::uint16_t tracker_port = 0;
  std::string token;
  std::string task_id;
  std::uint32_t attempt = 0;
  int world_size = -1;          // expected world (DMLC_NUM_WORKER), -1 when unknown
  std::string advertised_host;  // "" = the local address of the tracker connection
  double timeout_seconds = 120;
  // Relink only: linking one epoch's peers may take this long before the epoch is abandoned
  // (a peer died after asking) and the next one is asked for, within timeout_seconds overall.
  double link_timeout_seconds = 10;
  int socket_buffer_bytes = 0;  // 0: kernel autotuning
  // rabit_elastic: a relink may come back with another rank and world (the tracker dropped a
  // lost rank and renumbered the survivors); otherwise a changed rank is a protocol error.
  bool elastic = false;
};

struct Bootstrapped {
  std::unique_ptr<TrackerClient> tracker;
  transport::LinkSet links;
  // 0 when every rank joined the job's first linking; > 0 when this worker joined a recovery
  // epoch (the others are survivors, so the robust engine starts by recovering).
  std::uint32_t epoch = 0;
};

// A listener for peers on `host` (the advertised address), or on every interface of its family
// when that address cannot be bound (said on stderr). Also used for the message links.
treering::Result<transport::TcpSocket> OpenPeerListener(const std::string& host);

treering::Result<Bootstrapped> BootstrapThroughTracker(const BootstrapConfig& config);

// Survivor side of a recovery epoch: after a link failure (every old link already closed),
// sends Hello{command=recover, rank} on the existing tracker connection with a fresh listening
// port, waits for the epoch's Assign (every rank must ask: up to config.timeout_seconds), and
// links to the peers exactly as at bootstrap. If a peer of that epoch is dead (linking fails or
// takes longer than link_timeout_seconds) it asks again, so the tracker runs the next epoch.
// kAborted when the tracker aborts the job. With config.elastic the links may be those of a
// smaller world (LinkSet::topology() says the new rank and world).
treering::Result<transport::LinkSet> RelinkThroughTracker(TrackerClient* tracker,
                                                          const BootstrapConfig& config, int rank);

}  // namespace rabit::bootstrap
