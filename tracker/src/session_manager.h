// Owns every live session (as the Asio HTTP server example's connection_manager does), so the
// tracker can stop or abort all of them at once.
#pragma once

#include <map>
#include <memory>
#include <string>

#include "session.h"

namespace treering::tracker {

class SessionManager {
 public:
  void Start(std::shared_ptr<Session> session);
  void Remove(std::uint64_t id);  // the session ended on its own
  std::shared_ptr<Session> Find(std::uint64_t id) const;
  void FinishAll();  // OnJobSucceeded on every session
  void AbortAll(const std::string& reason);
  std::size_t size() const { return sessions_.size(); }

 private:
  std::map<std::uint64_t, std::shared_ptr<Session>> sessions_;
};

}  // namespace treering::tracker
