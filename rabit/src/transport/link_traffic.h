// Per-peer byte counters of one rank's collective links, for the status page and the hang
// watch ("its link to rank 3 has carried no bytes for 40 s", docs/status.md). The collective's
// thread (Exchange) adds to them with relaxed atomic stores, no lock and no system call beyond
// the clock read it already makes; the heartbeat thread reads them. Indexed by peer rank: the
// world does not change over a job (a relink keeps each rank's number), so the table outlives
// every Communicator of the job.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>

namespace rabit::transport {

struct LinkTraffic {
  std::atomic<std::uint64_t> sent{0};
  std::atomic<std::uint64_t> received{0};
  std::atomic<std::int64_t> last_byte_ns{0};  // steady clock, when a byte last moved; 0 never
  std::atomic<int> waiting{0};                // running collectives with I/O pending on it
  std::atomic<bool> used{false};              // some collective ran on it
};

class LinkTrafficTable {
 public:
  explicit LinkTrafficTable(int world)
      : world_(world), peers_(std::make_unique<LinkTraffic[]>(static_cast<std::size_t>(world))) {}
  int world() const { return world_; }
  // nullptr for a rank outside the world.
  LinkTraffic* Peer(int peer) { return peer >= 0 && peer < world_ ? &peers_[peer] : nullptr; }
  const LinkTraffic* Peer(int peer) const {
    return peer >= 0 && peer < world_ ? &peers_[peer] : nullptr;
  }
  static std::int64_t NowNs() {
    return std::chrono::duration_cast<std::chrono::nanoseconds>(
               std::chrono::steady_clock::now().time_since_epoch())
        .count();
  }

 private:
  int world_;
  std::unique_ptr<LinkTraffic[]> peers_;
};

}  // namespace rabit::transport
