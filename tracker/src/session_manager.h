// Owns every live session (as the Asio HTTP server example's connection_manager does), so the
// tracker can stop or abort all of them at once.
#pragma once

#include <map>
#include <memory>
#include <set>
#include <string>

#include "session.h"

namespace treering::tracker {

class SessionManager {
 public:
  void Start(std::shared_ptr<Session> session);
  // Starts a session that has not said who it is yet (no verified Hello, no legacy preamble).
  // Such connections cost a descriptor and memory before anything proves they belong to the
  // job, so at most `cap` exist: starting one more stops the oldest of them first.
  void StartAnonymous(std::shared_ptr<Session> session, std::size_t cap);
  void Identified(std::uint64_t id);  // its Hello was verified (or its preamble read)
  std::size_t num_anonymous() const { return anonymous_.size(); }
  void Remove(std::uint64_t id);  // the session ended on its own
  std::shared_ptr<Session> Find(std::uint64_t id) const;
  void FinishAll();  // OnJobSucceeded on every session
  void AbortAll(const std::string& reason);
  std::size_t size() const { return sessions_.size(); }

 private:
  std::map<std::uint64_t, std::shared_ptr<Session>> sessions_;
  std::set<std::uint64_t> anonymous_;  // ids grow with arrival, so begin() is the oldest
};

}  // namespace treering::tracker
