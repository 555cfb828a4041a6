#include "bootstrap/tracker_client.h"

namespace rabit::transport {
namespace proto = treering::proto;
namespace {

constexpr double kSendSeconds = 30;  // a tracker that takes no bytes for this long is gone

Status AbortedBy(const std::string& who, const std::string& reason) {
  return Status::Aborted("the tracker " + who + " the job: " + reason);
}

}  // namespace

Result<std::pair<proto::FrameHeader, std::vector<std::uint8_t>>> ReadProtoFrame(TcpSocket& socket,
                                                                                Deadline deadline) {
  std::vector<std::uint8_t> head(proto::kHeaderBytes);
  Status got = socket.RecvAll(head, deadline);
  if (!got.ok()) return got;
  auto header = proto::DecodeHeader(head);
  if (!header.ok()) return header.status();
  std::vector<std::uint8_t> payload(header->payload_bytes);
  got = socket.RecvAll(payload, deadline);
  if (!got.ok()) return got;
  return std::make_pair(header.value(), std::move(payload));
}

Result<std::unique_ptr<TrackerClient>> TrackerClient::Connect(const std::string& host,
                                                              std::uint16_t port,
                                                              Deadline deadline) {
  auto sock = TcpSocket::ConnectWithRetry(host, port, deadline);
  if (!sock.ok()) {
    return sock.status().WithContext("cannot reach the tracker at " + host + ":" +
                                     std::to_string(port));
  }
  return std::unique_ptr<TrackerClient>(new TrackerClient(std::move(sock.value())));
}

Result<TrackerClient::Frame> TrackerClient::ReadFrame(Deadline deadline) {
  auto frame = ReadProtoFrame(socket_, deadline);
  if (!frame.ok()) return frame.status().WithContext("reading from the tracker");
  return Frame{frame->first, std::move(frame->second)};
}

Status TrackerClient::Send(const std::vector<std::uint8_t>& frame) {
  Status sent = socket_.SendAll(frame, DeadlineAfter(kSendSeconds));
  return sent.WithContext("writing to the tracker");
}

Result<proto::Assign> TrackerClient::Join(const proto::Hello& hello, Deadline deadline) {
  Status sent = Send(proto::Encode(hello));
  if (!sent.ok()) return sent;
  auto frame = ReadFrame(deadline);
  if (!frame.ok()) return frame.status().WithContext("waiting for the rank assignment");
  switch (frame->header.kind) {
    case proto::Kind::kAssign:
      return proto::DecodeAssign(frame->payload);
    case proto::Kind::kReject: {
      auto reject = proto::DecodeReject(frame->payload);
      if (!reject.ok()) return reject.status();
      return AbortedBy("rejected this worker from", reject->reason);
    }
    case proto::Kind::kAbort: {
      auto abort = proto::DecodeAbort(frame->payload);
      if (!abort.ok()) return abort.status();
      return AbortedBy("aborted", abort->reason);
    }
    default:
      return Status::Protocol("the tracker answered Hello with frame kind " +
                              std::to_string(static_cast<int>(frame->header.kind)));
  }
}

Status TrackerClient::OnReadable() {
  auto frame = ReadFrame(DeadlineAfter(kSendSeconds));
  if (!frame.ok())
    return Status::Aborted("lost the tracker connection: " + frame.status().message());
  if (frame->header.kind != proto::Kind::kAbort) {
    return Status::Protocol("unexpected frame kind " +
                            std::to_string(static_cast<int>(frame->header.kind)) +
                            " from the tracker");
  }
  auto abort = proto::DecodeAbort(frame->payload);
  if (!abort.ok()) return abort.status();
  return AbortedBy("aborted", abort->reason);
}

Status TrackerClient::Print(const std::string& message) {
  return Send(proto::Encode(proto::Print{message}));
}

Status TrackerClient::ReportError(const std::string& message) {
  return Send(proto::Encode(proto::ErrorReport{message}));
}

Status TrackerClient::Shutdown() {
  Status sent = Send(proto::Encode(proto::Shutdown{}));
  socket_.Close();
  return sent;
}

}  // namespace rabit::transport
