// One native worker connection: Hello (within the hello deadline) -> Assign or Reject, then
// Print / Error / Shutdown frames for the rest of the job. Waiting for the next frame has no
// deadline (workers train for hours); once a frame starts, it must complete within the hello
// deadline. The session also sniffs the first 4 bytes and hands legacy (0xff99) clients over
// to a LegacySession.
#pragma once

#include <array>
#include <span>
#include <vector>

#include "connection.h"
#include "job_coordinator.h"
#include "session.h"

namespace treering::tracker {

struct Frame {
  proto::FrameHeader header;
  std::vector<std::uint8_t> payload;
};

class TrackerSession : public Session {
 public:
  TrackerSession(std::uint64_t id, tcp::socket socket, JobCoordinator& job,
                 SessionManager& sessions);

  void Start() override;
  void OnRankAssigned(int rank) override;
  void Abort(const std::string& reason) override;
  void Stop() override;
  void Drop() override;
  void OnResizePending() override;

 private:
  asio::awaitable<void> Run();
  asio::awaitable<Result<Frame>> ReadFrame(std::vector<std::uint8_t> prefix, Millis first_wait,
                                           std::uint64_t max_payload = proto::kMaxPayload);
  asio::awaitable<Status> Admit(std::array<std::uint8_t, 4> magic);
  asio::awaitable<Status> Authenticate(std::span<const std::uint8_t> hello_payload);
  Status CheckHello(const proto::Hello& hello) const;
  Status Handle(const Frame& frame);
  void Refuse(const std::string& reason);
  void Ended(const Status& why);
  std::string Who() const;

  std::shared_ptr<Connection> conn_;
  JobCoordinator& job_;
  SessionManager& sessions_;
  Millis hello_timeout_;
  std::string task_id_;
  int rank_ = -1;
  bool dropped_ = false;  // an elastic shrink dropped the rank: the end is expected
  bool joined_ = false;
  bool shut_down_ = false;
  bool handed_over_ = false;
  std::vector<int> blamed_;  // the ranks the worker's Error report names
};

}  // namespace treering::tracker
