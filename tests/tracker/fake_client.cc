#include "fake_client.h"

#include <arpa/inet.h>
#include <netdb.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cstring>

namespace treering::testing {

FakeClient::~FakeClient() { Close(); }

FakeClient::FakeClient(FakeClient&& other) noexcept
    : fd_(other.fd_), unread_(std::move(other.unread_)) {
  other.fd_ = -1;
}

void FakeClient::Close() {
  if (fd_ >= 0) ::close(fd_);
  fd_ = -1;
  unread_.reset();
}

Status FakeClient::Connect(const std::string& host, std::uint16_t port,
                           const std::string& source_ip) {
  addrinfo hints{};
  hints.ai_socktype = SOCK_STREAM;
  addrinfo* res = nullptr;
  if (getaddrinfo(host.c_str(), std::to_string(port).c_str(), &hints, &res) != 0) {
    return Status::Network("cannot resolve " + host);
  }
  fd_ = ::socket(res->ai_family, SOCK_STREAM, 0);
  if (fd_ >= 0 && !source_ip.empty()) {
    sockaddr_in local{};
    local.sin_family = AF_INET;
    if (::inet_pton(AF_INET, source_ip.c_str(), &local.sin_addr) != 1 ||
        ::bind(fd_, reinterpret_cast<sockaddr*>(&local), sizeof(local)) != 0) {
      freeaddrinfo(res);
      return Status::Network("cannot bind the client to " + source_ip);
    }
  }
  const int rc = fd_ < 0 ? -1 : ::connect(fd_, res->ai_addr, res->ai_addrlen);
  freeaddrinfo(res);
  if (rc != 0) return Status::Network(std::string("connect: ") + std::strerror(errno));
  return Status::Ok();
}

Status FakeClient::SendRaw(const std::vector<std::uint8_t>& bytes) {
  std::size_t sent = 0;
  while (sent < bytes.size()) {
    const ssize_t n = ::send(fd_, bytes.data() + sent, bytes.size() - sent, MSG_NOSIGNAL);
    if (n <= 0) return Status::Network(std::string("send: ") + std::strerror(errno));
    sent += static_cast<std::size_t>(n);
  }
  return Status::Ok();
}

Status FakeClient::RecvRaw(void* buffer, std::size_t n, double timeout_s) {
  auto* out = static_cast<std::uint8_t*>(buffer);
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(timeout_s);
  std::size_t got = 0;
  while (got < n) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
        deadline - std::chrono::steady_clock::now());
    pollfd p{fd_, POLLIN, 0};
    if (left.count() <= 0 || ::poll(&p, 1, static_cast<int>(left.count())) <= 0) {
      return Status::Timeout("no data from the tracker");
    }
    const ssize_t r = ::recv(fd_, out + got, n - got, 0);
    if (r == 0) return Status::Network("tracker closed the connection");
    if (r < 0) return Status::Network(std::string("recv: ") + std::strerror(errno));
    got += static_cast<std::size_t>(r);
  }
  return Status::Ok();
}

Result<Frame> FakeClient::ReadFrame(double timeout_s) {
  if (unread_) {
    Frame f = std::move(*unread_);
    unread_.reset();
    return f;
  }
  std::vector<std::uint8_t> header(proto::kHeaderBytes);
  Status s = RecvRaw(header.data(), header.size(), timeout_s);
  if (!s.ok()) return s;
  auto h = proto::DecodeHeader(header);
  if (!h.ok()) return h.status();
  Frame f{h.value(), std::vector<std::uint8_t>(h->payload_bytes)};
  s = RecvRaw(f.payload.data(), f.payload.size(), timeout_s);
  if (!s.ok()) return s;
  return f;
}

bool FakeClient::WaitClosed(double timeout_s) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(timeout_s);
  std::uint8_t sink[256];
  while (std::chrono::steady_clock::now() < deadline) {
    pollfd p{fd_, POLLIN, 0};
    if (::poll(&p, 1, 50) <= 0) continue;
    const ssize_t r = ::recv(fd_, sink, sizeof(sink), 0);
    if (r <= 0) return true;
  }
  return false;
}

Status FakeClient::SendHello(const std::string& token, const std::string& task_id,
                             const std::string& host, std::uint16_t port, std::int32_t world_size) {
  proto::Hello h;
  h.task_id = task_id;
  h.host = host;
  h.port = port;
  h.world_size = world_size;
  return SayHello(h, token);
}

Status FakeClient::SayHello(proto::Hello hello, const std::string& token) {
  hello.nonce.fill(0x5a);  // any nonce will do for a test client
  const std::vector<std::uint8_t> frame = proto::Encode(hello);
  const auto payload = std::span<const std::uint8_t>(frame).subspan(proto::kHeaderBytes);
  Status s = SendRaw(frame);
  if (!s.ok()) return s;
  auto challenge = ReadFrame();
  if (!challenge.ok()) return challenge.status();
  if (challenge->header.kind != proto::Kind::kChallenge) {
    unread_ = std::move(challenge.value());
    return Status::Ok();
  }
  const proto::Nonce nonce = proto::DecodeChallenge(challenge->payload)->nonce;
  s = SendRaw(proto::Encode(
      proto::Proof{proto::HelloProof(token, proto::Prover::kWorker, nonce, payload)}));
  if (!s.ok()) return s;
  auto proof = ReadFrame();
  if (!proof.ok()) return proof.status();
  if (proof->header.kind != proto::Kind::kProof) {
    unread_ = std::move(proof.value());
    return Status::Ok();
  }
  const auto mac = proto::DecodeProof(proof->payload);
  if (!mac.ok() || !proto::SameMac(mac->mac, proto::HelloProof(token, proto::Prover::kTracker,
                                                               nonce, payload))) {
    return Status::Protocol("the tracker's Proof does not verify");
  }
  return Status::Ok();
}

Result<proto::Assign> FakeClient::ReadAssign(double timeout_s) {
  auto f = ReadFrame(timeout_s);
  if (!f.ok()) return f.status();
  if (f->header.kind != proto::Kind::kAssign) {
    return Status::Protocol("expected Assign, got " + proto::KindName(f->header.kind));
  }
  return proto::DecodeAssign(f->payload);
}

Status FakeClient::SendInt(std::int32_t v) {
  std::vector<std::uint8_t> b(4);
  std::memcpy(b.data(), &v, 4);
  return SendRaw(b);
}

Status FakeClient::SendStr(const std::string& s) {
  Status st = SendInt(static_cast<std::int32_t>(s.size()));
  if (!st.ok()) return st;
  return SendRaw(std::vector<std::uint8_t>(s.begin(), s.end()));
}

Result<std::int32_t> FakeClient::RecvInt(double timeout_s) {
  std::int32_t v = 0;
  Status s = RecvRaw(&v, 4, timeout_s);
  if (!s.ok()) return s;
  return v;
}

Result<std::string> FakeClient::RecvStr(double timeout_s) {
  auto n = RecvInt(timeout_s);
  if (!n.ok()) return n.status();
  std::string s(static_cast<std::size_t>(n.value()), '\0');
  Status st = RecvRaw(s.data(), s.size(), timeout_s);
  if (!st.ok()) return st;
  return s;
}

}  // namespace treering::testing
