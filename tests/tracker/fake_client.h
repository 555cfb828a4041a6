// A blocking test client for the tracker: raw TCP with receive deadlines, plus helpers that
// speak the native protocol (frames) and the legacy one (native-endian ints and strings).
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "base/status.h"
#include "tracker/protocol.h"

namespace treering::testing {

struct Frame {
  proto::FrameHeader header;
  std::vector<std::uint8_t> payload;
};

class FakeClient {
 public:
  FakeClient() = default;
  ~FakeClient();
  FakeClient(FakeClient&& other) noexcept;
  FakeClient& operator=(FakeClient&&) = delete;

  // `source_ip` (optional) binds the local end first, e.g. 127.0.0.2 to look like another host.
  Status Connect(const std::string& host, std::uint16_t port, const std::string& source_ip = "");
  Status SendRaw(const std::vector<std::uint8_t>& bytes);
  Status RecvRaw(void* buffer, std::size_t n, double timeout_s);
  Result<Frame> ReadFrame(double timeout_s = 10);
  // True when the tracker closed the connection (EOF) within the timeout.
  bool WaitClosed(double timeout_s);
  void Close();

  // Native helpers. SendHello and SayHello run the challenge-response of tracker/auth.h with
  // `token`: Hello, the tracker's Challenge, our Proof, the tracker's Proof. A Reject or Abort
  // the tracker sends instead stays queued for the next ReadFrame; a tracker Proof that does not
  // verify is a kProtocol error.
  Status SendHello(const std::string& token, const std::string& task_id, const std::string& host,
                   std::uint16_t port, std::int32_t world_size = -1);
  Status SayHello(proto::Hello hello, const std::string& token);
  Result<proto::Assign> ReadAssign(double timeout_s = 10);

  // Legacy helpers.
  Status SendInt(std::int32_t v);
  Status SendStr(const std::string& s);
  Result<std::int32_t> RecvInt(double timeout_s = 10);
  Result<std::string> RecvStr(double timeout_s = 10);

 private:
  int fd_ = -1;
  std::optional<Frame> unread_;  // a frame the handshake read but did not expect
};

}  // namespace treering::testing
