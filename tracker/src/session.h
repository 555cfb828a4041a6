// A tracker session: one worker connection. The coordinator talks to sessions only through
// this interface, so native and legacy (dmlc/rabit) workers are handled alike.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

namespace treering::tracker {

class Session : public std::enable_shared_from_this<Session> {
 public:
  explicit Session(std::uint64_t id) : id_(id) {}
  virtual ~Session() = default;

  virtual void Start() = 0;
  // The batch was assigned and this session's worker got `rank`.
  virtual void OnRankAssigned(int rank) = 0;
  // The job failed: tell the worker if the dialect allows it, then close.
  virtual void Abort(const std::string& reason) = 0;
  // Close now (job over or tracker stopping).
  virtual void Stop() = 0;
  // An elastic shrink dropped this session's rank: close it, and its end is no loss.
  virtual void Drop() { Stop(); }
  // Elastic: a worker waits to join; a ranked native worker is told (it relinks at the next
  // round boundary). Nothing for other sessions.
  virtual void OnResizePending() {}
  // Every rank said Shutdown. A session still busy with a legacy print may finish it (its reads
  // have deadlines), so rank 0's last evaluation line is not lost; the rest close now.
  virtual void OnJobSucceeded() { Stop(); }

  std::uint64_t id() const { return id_; }

 private:
  std::uint64_t id_;
};

}  // namespace treering::tracker
