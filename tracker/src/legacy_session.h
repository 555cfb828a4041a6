// One connection of a legacy dmlc/rabit worker (XGBoost <= 1.7): magic 0xff99 echoed, then
// native-endian int32 rank, world, string task id, string command; one command per connection:
//   print    -> a string, forwarded like a native Print
//   shutdown -> the rank is done
//   start    -> waits for the batch, sends the rank and topology, then runs the link
//               negotiation loop (LegacyLinkBroker) in rank order and reads the worker's port
//   recover  -> same for an already-ranked worker, without waiting for the batch
// Every read has the hello deadline. There is no persistent connection, so the tracker cannot
// see a legacy worker die; the launcher notices the process exit instead.
// The dialect has no token: print, shutdown and recover name a rank that is only believed when
// JobCoordinator::CheckLegacyClaim agrees (never in a job of native workers).
#pragma once

#include <string>
#include <vector>

#include "connection.h"
#include "job_coordinator.h"
#include "session.h"

namespace treering::tracker {

class LegacySession : public Session {
 public:
  LegacySession(std::uint64_t id, std::shared_ptr<Connection> conn, JobCoordinator& job,
                SessionManager& sessions);

  void Start() override;
  void OnRankAssigned(int rank) override;
  void Abort(const std::string& reason) override;
  void Stop() override;
  void OnJobSucceeded() override;

 private:
  struct Preamble {
    std::int32_t rank = -1;
    std::int32_t world_size = -1;
    std::string task_id;
    std::string command;
  };
  asio::awaitable<void> Run();
  asio::awaitable<Result<Preamble>> ReadPreamble();
  void Failed(const Status& s, bool in_link_setup);
  asio::awaitable<Status> Dispatch(const std::string& command);
  asio::awaitable<Status> Start(bool recover);
  asio::awaitable<Status> Negotiate();
  void SendAssignment();
  asio::awaitable<Result<std::int32_t>> ReadInt(const char* field);
  asio::awaitable<Result<std::string>> ReadString(const char* field, std::uint32_t max_bytes);
  void SendInt(std::int32_t v);
  void SendString(const std::string& s);
  void FlushReply();

  std::shared_ptr<Connection> conn_;
  JobCoordinator& job_;
  SessionManager& sessions_;
  Millis timeout_;
  asio::steady_timer rank_known_;
  int rank_ = -1;
  std::string task_id_;
  std::string command_;          // once the preamble is read
  bool claim_verified_ = false;  // rank_ is this connection's by assignment or a checked claim
  std::vector<std::uint8_t> reply_;
};

}  // namespace treering::tracker
