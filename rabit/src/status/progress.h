// What this rank reports to the tracker's status page and hang watch (docs/status.md): the
// collective it last entered and finished, the bytes it handed to collectives, its round and
// phase. The engine's thread writes it on every collective with a few relaxed atomic stores
// (no lock, no system call: the hot path pays nanoseconds); the heartbeat thread reads it.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>

#include "tracker/protocol.h"
#include "transport/link_traffic.h"

namespace rabit::status {

class Progress {
 public:
  void Enter(treering::proto::OpKind kind, std::uint64_t seq, std::uint64_t bytes) noexcept {
    op_.store(static_cast<std::uint8_t>(kind), std::memory_order_relaxed);
    bytes_.store(bytes_.load(std::memory_order_relaxed) + bytes, std::memory_order_relaxed);
    entered_.store(seq, std::memory_order_release);
  }
  void Finish(std::uint64_t seq) noexcept { finished_.store(seq, std::memory_order_release); }
  // `phase` must outlive the process's use of it (a string literal).
  const char* SetPhase(const char* phase) noexcept {
    return phase_.exchange(phase, std::memory_order_relaxed);
  }
  void SetRound(int round) noexcept { round_.store(round, std::memory_order_relaxed); }
  // Both set once, before the heartbeat starts: the links' counters to report (the same table
  // the Communicator counts into) and the worker's rabit_hang_report (-1: not set).
  void TrackLinks(std::shared_ptr<const transport::LinkTrafficTable> links) {
    links_ = std::move(links);
  }
  void SetHangReport(double seconds) { hang_report_s_ = seconds; }

  // The fields of a Report (done_round -1, no metrics; each link a collective used): a
  // consistent enough view for a display; each field is read once.
  treering::proto::Report Snapshot() const;

 private:
  std::atomic<std::uint8_t> op_{0};
  std::atomic<std::uint64_t> entered_{0};
  std::atomic<std::uint64_t> finished_{0};
  std::atomic<std::uint64_t> bytes_{0};  // one writer: load + store, no locked add
  std::atomic<const char*> phase_{"starting"};
  std::atomic<int> round_{-1};
  std::shared_ptr<const transport::LinkTrafficTable> links_;
  double hang_report_s_ = -1;
};

}  // namespace rabit::status
