// Tracker bootstrap: turns the environment's tracker address into a ready LinkSet.
//   1. listen on port 0 for peers (before saying Hello, so the port can be advertised);
//   2. connect to the tracker, send Hello (token, task id, attempt, advertised host:port);
//   3. receive Assign (rank, tree, ring, whom to dial, how many will dial us);
//   4. dial every connect_to peer (retrying until the bootstrap deadline) and accept num_accept
//      peers; on each link both sides send PeerHello {token, rank} and check the other's.
// Every step is bounded by the bootstrap deadline; errors name the peer or the tracker.
#pragma once

#include <memory>
#include <string>

#include "socket/link_set.h"
#include "socket/tracker_client.h"

namespace rabit::transport {

struct BootstrapConfig {
  std::string tracker_host;
  std::uint16_t tracker_port = 0;
  std::string token;
  std::string task_id;
  std::uint32_t attempt = 0;
  int world_size = -1;          // expected world (DMLC_NUM_WORKER), -1 when unknown
  std::string advertised_host;  // "" = the local address of the tracker connection
  double timeout_seconds = 120;
  int socket_buffer_bytes = 0;  // 0: kernel autotuning
};

struct Bootstrapped {
  std::unique_ptr<TrackerClient> tracker;
  LinkSet links;
};

Result<Bootstrapped> BootstrapThroughTracker(const BootstrapConfig& config);

}  // namespace rabit::transport
