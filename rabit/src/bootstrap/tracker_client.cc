#include "bootstrap/tracker_client.h"

#include <poll.h>

#include <cstdint>

namespace rabit::bootstrap {

using treering::Result;
using treering::Status;

namespace proto = treering::proto;
namespace {

constexpr double kSendSeconds = 30;  // a tracker that takes no bytes for this long is gone

Status AbortedBy(const std::string& who, const std::string& reason) {
  return Status::Aborted("the tracker " + who + " the job: " + reason);
}

// The N of each "rank N" in this worker's own failure message, in order.
std::vector<std::int32_t> RanksNamedIn(const std::string& text) {
  std::vector<std::int32_t> ranks;
  static const std::string kRank = "rank ";
  for (std::size_t at = text.find(kRank); at != std::string::npos;
       at = text.find(kRank, at + kRank.size())) {
    std::size_t end = at + kRank.size();
    std::int64_t rank = 0;
    while (end < text.size() && text[end] >= '0' && text[end] <= '9' && rank <= INT32_MAX) {
      rank = rank * 10 + (text[end++] - '0');
    }
    if (end > at + kRank.size() && rank <= INT32_MAX)
      ranks.push_back(static_cast<std::int32_t>(rank));
  }
  return ranks;
}

}  // namespace

Result<std::pair<proto::FrameHeader, std::vector<std::uint8_t>>> ReadProtoFrame(
    transport::TcpSocket& socket, transport::Deadline deadline) {
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
                                                              std::uint16_t port, std::string token,
                                                              transport::Deadline deadline) {
  auto sock = transport::TcpSocket::ConnectWithRetry(host, port, deadline);
  if (!sock.ok()) {
    return sock.status().WithContext("cannot reach the tracker at " + host + ":" +
                                     std::to_string(port));
  }
  return std::unique_ptr<TrackerClient>(
      new TrackerClient(std::move(sock.value()), std::move(token)));
}

Result<TrackerClient::Frame> TrackerClient::ReadFrame(transport::Deadline deadline) {
  auto frame = ReadProtoFrame(socket_, deadline);
  if (!frame.ok()) return frame.status().WithContext("reading from the tracker");
  return Frame{frame->first, std::move(frame->second)};
}

Status TrackerClient::Send(const std::vector<std::uint8_t>& frame) {
  std::lock_guard<std::mutex> lock(send_mutex_);
  if (closed_) return Status::Network("the tracker connection is closed");
  Status sent = socket_.SendAll(frame, transport::DeadlineAfter(kSendSeconds));
  return sent.WithContext("writing to the tracker");
}

// Reject and Abort carry the tracker's reason; any other kind is a protocol error.
Status TrackerClient::RejectedOrUnexpected(const Frame& frame, const char* waiting_for) {
  switch (frame.header.kind) {
    case proto::Kind::kReject: {
      auto reject = proto::DecodeReject(frame.payload);
      if (!reject.ok()) return reject.status();
      return AbortedBy("rejected this worker from", reject->reason);
    }
    case proto::Kind::kAbort: {
      auto abort = proto::DecodeAbort(frame.payload);
      if (!abort.ok()) return abort.status();
      return AbortedBy("aborted", abort->reason);
    }
    default:
      return Status::Protocol(std::string("the tracker sent ") +
                              proto::KindName(frame.header.kind) +
                              " while this worker waited for " + waiting_for);
  }
}

// Hello{nonce_w} -> Challenge{nonce_t} -> our Proof -> the tracker's Proof (tracker/auth.h).
Status TrackerClient::Authenticate(proto::Hello& hello, transport::Deadline deadline) {
  auto nonce = proto::NewNonce();
  if (!nonce.ok()) return nonce.status();
  hello.nonce = nonce.value();
  const std::vector<std::uint8_t> frame = proto::Encode(hello);
  Status sent = Send(frame);
  if (!sent.ok()) return sent;
  const auto payload = std::span<const std::uint8_t>(frame).subspan(proto::kHeaderBytes);
  auto challenge_frame = ReadFrame(deadline);
  if (!challenge_frame.ok()) return challenge_frame.status();
  if (challenge_frame->header.kind != proto::Kind::kChallenge) {
    return RejectedOrUnexpected(challenge_frame.value(), "the tracker's Challenge");
  }
  auto challenge = proto::DecodeChallenge(challenge_frame->payload);
  if (!challenge.ok()) return challenge.status();
  const proto::Nonce& theirs = challenge->nonce;
  sent = Send(proto::Encode(
      proto::Proof{proto::HelloProof(token_, proto::Prover::kWorker, theirs, payload)}));
  if (!sent.ok()) return sent;
  auto proof_frame = ReadFrame(deadline);
  if (!proof_frame.ok()) return proof_frame.status();
  if (proof_frame->header.kind != proto::Kind::kProof) {
    return RejectedOrUnexpected(proof_frame.value(), "the tracker's Proof");
  }
  auto proof = proto::DecodeProof(proof_frame->payload);
  if (!proof.ok()) return proof.status();
  if (!proto::SameMac(proof->mac,
                      proto::HelloProof(token_, proto::Prover::kTracker, theirs, payload))) {
    return Status::Protocol("the tracker could not prove it knows the job token");
  }
  authenticated_ = true;
  return Status::Ok();
}

Result<proto::Assign> TrackerClient::Join(proto::Hello hello, transport::Deadline deadline) {
  if (!authenticated_) {
    Status authenticated = Authenticate(hello, deadline);
    if (!authenticated.ok()) return authenticated;
  } else {
    Status sent = Send(proto::Encode(hello));
    if (!sent.ok()) return sent;
  }
  auto frame = ReadFrame(deadline);
  // A ResizePending sent before this epoch's Assign is answered by the epoch itself.
  while (frame.ok() && frame->header.kind == proto::Kind::kResizePending) {
    resize_pending_ = false;
    frame = ReadFrame(deadline);
  }
  if (!frame.ok()) return frame.status().WithContext("waiting for the rank assignment");
  if (frame->header.kind == proto::Kind::kAssign) return proto::DecodeAssign(frame->payload);
  return RejectedOrUnexpected(frame.value(), "its rank assignment");
}

Status TrackerClient::OnReadable() {
  auto frame = ReadFrame(transport::DeadlineAfter(kSendSeconds));
  if (!frame.ok())
    return Status::Aborted("lost the tracker connection: " + frame.status().message());
  if (frame->header.kind == proto::Kind::kResizePending) {
    resize_pending_ = true;
    return Status::Ok();
  }
  if (frame->header.kind != proto::Kind::kAbort) {
    return Status::Protocol("unexpected frame kind " +
                            std::to_string(static_cast<int>(frame->header.kind)) +
                            " from the tracker");
  }
  auto abort = proto::DecodeAbort(frame->payload);
  if (!abort.ok()) return abort.status();
  return AbortedBy("aborted", abort->reason);
}

Result<bool> TrackerClient::PollResizePending() {
  for (;;) {
    pollfd p{socket_.fd(), POLLIN, 0};
    const int rc = ::poll(&p, 1, 0);
    if (rc <= 0 || p.revents == 0) break;
    Status st = OnReadable();
    if (!st.ok()) return st;
  }
  const bool pending = resize_pending_;
  resize_pending_ = false;
  return pending;
}

Status TrackerClient::Print(const std::string& message) {
  return Send(proto::Encode(proto::Print{message}));
}

Status TrackerClient::ReportError(const std::string& message, std::vector<std::int32_t> ranks) {
  return Send(proto::Encode(proto::ErrorReport{message, std::move(ranks)}));
}

Status TrackerClient::ReportError(const std::string& message) {
  return ReportError(message, RanksNamedIn(message));
}

Status TrackerClient::Shutdown() {
  Status sent = Send(proto::Encode(proto::Shutdown{}));
  std::lock_guard<std::mutex> lock(send_mutex_);
  closed_ = true;
  socket_.Close();
  return sent;
}

Status TrackerClient::SendReport(const proto::Report& report) {
  return Send(proto::Encode(report));
}

}  // namespace rabit::bootstrap
