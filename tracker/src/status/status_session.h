// One HTTP request on the tracker's port (its first bytes were "GET " or "HEAD"): read the
// header within the hello deadline, answer from status_http.h, close. It stays an anonymous
// connection (counted against max_anonymous_connections) and can only read the job's status.
#pragma once

#include <memory>
#include <string>

#include "connection.h"
#include "job_coordinator.h"
#include "session.h"
#include "session_manager.h"

namespace treering::tracker {

class StatusSession : public Session {
 public:
  StatusSession(std::uint64_t id, std::shared_ptr<Connection> conn, std::string first_bytes,
                JobCoordinator& job, SessionManager& sessions)
      : Session(id),
        conn_(std::move(conn)),
        received_(std::move(first_bytes)),
        job_(job),
        sessions_(sessions) {}

  void Start() override;
  void OnRankAssigned(int) override {}
  void Abort(const std::string&) override { conn_->Close(); }
  void Stop() override { conn_->Close(); }

 private:
  asio::awaitable<void> Run();

  std::shared_ptr<Connection> conn_;
  std::string received_;
  JobCoordinator& job_;
  SessionManager& sessions_;
};

}  // namespace treering::tracker
