// TrackerClient: this worker's one persistent connection to the tracker (native protocol,
// tracker/include/tracker/protocol.h). Bootstrap uses it for Hello/Assign; afterwards it carries
// Print, Error and Shutdown, and the collectives watch it (AbortWatch) so that an Abort from the
// tracker stops a blocked collective at once with the tracker's reason.
#pragma once

#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "tracker/protocol.h"
#include "transport/exchange.h"
#include "transport/tcp_socket.h"

namespace rabit::bootstrap {

class TrackerClient final : public transport::AbortWatch {
 public:
  // Dials the tracker, retrying until `deadline` (workers may start before the tracker listens).
  // `token` is the job token: it only keys the handshake's proofs and is never sent.
  static treering::Result<std::unique_ptr<TrackerClient>> Connect(const std::string& host,
                                                                  std::uint16_t port,
                                                                  std::string token,
                                                                  transport::Deadline deadline);

  // Sends Hello and waits for Assign; Reject or Abort become kAborted with the tracker's reason.
  // The first Hello on the connection runs the challenge-response of tracker/auth.h (its nonce
  // is filled in here); a tracker that cannot prove it knows the token is kProtocol.
  treering::Result<treering::proto::Assign> Join(treering::proto::Hello hello,
                                                 transport::Deadline deadline);

  treering::Status Print(const std::string& message);
  // Error{message, ranks}: `ranks` are the other ranks the error is about, which the tracker
  // names with their hosts. The one-argument form takes them from `message` itself (the
  // collectives' own phrasing, "rank 2 never started this op"), until a failed Status carries
  // its peers as data; the tracker no longer reads rank numbers out of any text.
  treering::Status ReportError(const std::string& message, std::vector<std::int32_t> ranks);
  treering::Status ReportError(const std::string& message);
  treering::Status Shutdown();
  // Progress for the status page (docs/status.md): one frame, no answer. Safe from the
  // heartbeat thread while the engine's thread uses the connection (sends are serialised).
  treering::Status SendReport(const treering::proto::Report& report);

  int fd() const override { return socket_.fd(); }
  // Reads one unsolicited frame: Abort fails with the tracker's reason, ResizePending (an
  // elastic job: a worker waits to join) sets the flag below.
  treering::Status OnReadable() override;
  // Elastic jobs, at a round boundary: reads what the tracker sent meanwhile without blocking,
  // and returns (and clears) whether a resize is pending.
  treering::Result<bool> PollResizePending();
  // Address of our end of the tracker connection: the interface that reaches the tracker.
  std::string LocalAddress() const { return socket_.LocalAddress(); }

 private:
  TrackerClient(transport::TcpSocket socket, std::string token)
      : socket_(std::move(socket)), token_(std::move(token)) {}
  struct Frame {
    treering::proto::FrameHeader header;
    std::vector<std::uint8_t> payload;
  };
  treering::Result<Frame> ReadFrame(transport::Deadline deadline);
  treering::Status Send(const std::vector<std::uint8_t>& frame);
  treering::Status Authenticate(treering::proto::Hello& hello, transport::Deadline deadline);
  treering::Status RejectedOrUnexpected(const Frame& frame, const char* waiting_for);

  transport::TcpSocket socket_;
  std::string token_;
  bool authenticated_ = false;
  std::mutex send_mutex_;        // whole frames: the heartbeat thread sends too
  bool closed_ = false;          // under send_mutex_: Shutdown closed the socket
  bool resize_pending_ = false;  // the engine's thread only (the heartbeat never reads)
};

// Reads one native frame (header + payload) from `socket`; shared with the peer handshake.
treering::Result<std::pair<treering::proto::FrameHeader, std::vector<std::uint8_t>>> ReadProtoFrame(
    transport::TcpSocket& socket, transport::Deadline deadline);

}  // namespace rabit::bootstrap
