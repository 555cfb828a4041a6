// The untemplated parts of rabit/comm.h, shared by every Comm implementation.
#include "rabit/comm.h"

#include <cstring>

namespace rabit {

std::size_t DataTypeSize(DataType type) {
  switch (type) {
    case DataType::kInt8:
    case DataType::kUInt8:
      return 1;
    case DataType::kInt16:
    case DataType::kUInt16:
      return 2;
    case DataType::kInt32:
    case DataType::kUInt32:
    case DataType::kFloat:
      return 4;
    case DataType::kInt64:
    case DataType::kUInt64:
    case DataType::kDouble:
      return 8;
  }
  return 0;
}

void Comm::Broadcast(std::string* data, int root) {
  std::uint64_t n = data->size();
  BroadcastBytes(&n, sizeof(n), root);
  data->resize(n);
  if (n != 0) BroadcastBytes(data->data(), n, root);
}

}  // namespace rabit

namespace rabit {

Request& Request::operator=(Request&& other) noexcept {
  if (this != &other) {
    comm_ = std::exchange(other.comm_, nullptr);
    ticket_ = other.ticket_;
    peer_ = other.peer_;
  }
  return *this;
}

Request::~Request() {
  // The transport may still write into (or read from) the caller's buffer: finish first.
  if (comm_ == nullptr) return;
  try {
    (void)Wait();
  } catch (const Error&) {
  }
}

int Request::Wait() {
  if (comm_ == nullptr) return peer_;
  Comm* comm = std::exchange(comm_, nullptr);
  peer_ = comm->WaitRequest(ticket_);
  return peer_;
}

bool Request::Test() {
  if (comm_ == nullptr) return true;
  const int peer = comm_->TestRequest(ticket_);
  if (peer < 0) return false;
  peer_ = peer;
  comm_ = nullptr;
  return true;
}

void Comm::CheckTag(int tag) {
  if (tag < 0) {
    throw Error("rabit: message tag " + std::to_string(tag) +
                " is negative (user tags are >= 0; negative ones belong to Reduce/Gather/Scatter)");
  }
}

namespace {
[[noreturn]] void NoMessages() {
  throw Error("rabit: this Comm has no point-to-point messages (Send/Recv)");
}
}  // namespace

std::uint64_t Comm::IsendBytes(const void*, std::size_t, DataType, int, int) { NoMessages(); }
std::uint64_t Comm::IrecvBytes(void*, std::size_t, DataType, int, int) { NoMessages(); }
int Comm::WaitRequest(std::uint64_t) { NoMessages(); }
int Comm::TestRequest(std::uint64_t) { NoMessages(); }

void Comm::SendBytes(const void* buf, std::size_t count, DataType type, int dest, int tag) {
  (void)WaitRequest(IsendBytes(buf, count, type, dest, tag));
}

int Comm::RecvBytes(void* buf, std::size_t count, DataType type, int source, int tag) {
  return WaitRequest(IrecvBytes(buf, count, type, source, tag));
}

void Comm::Barrier() {
  std::uint8_t token = 0;
  Allreduce<op::Max>(&token, 1);
}

namespace {
void CheckRoot(int root, int world, const char* what) {
  if (root < 0 || root >= world) {
    throw Error(std::string("rabit ") + what + ": root " + std::to_string(root) +
                " is not a rank of a world of size " + std::to_string(world));
  }
}
}  // namespace

void Comm::ReduceBytes(void* buf, std::size_t count, DataType type, OpKind op, int root) {
  CheckRoot(root, WorldSize(), "Reduce");
  const std::size_t bytes = count * DataTypeSize(type);
  std::vector<std::uint8_t> copy(static_cast<const std::uint8_t*>(buf),
                                 static_cast<const std::uint8_t*>(buf) + bytes);
  AllreduceBytes(copy.data(), count, type, op, nullptr);
  if (Rank() == root && bytes != 0) std::memcpy(buf, copy.data(), bytes);
}

void Comm::GatherBytes(const void* send, void* recv, const std::vector<std::size_t>& slice_bytes,
                       int root) {
  CheckRoot(root, WorldSize(), "Gather");
  std::size_t offset = 0, total = 0;
  for (int r = 0; r < static_cast<int>(slice_bytes.size()); ++r) {
    if (r < Rank()) offset += slice_bytes[r];
    total += slice_bytes[r];
  }
  std::vector<std::uint8_t> all(total);
  if (slice_bytes.at(Rank()) != 0) std::memcpy(all.data() + offset, send, slice_bytes[Rank()]);
  AllgatherBytes(all.data(), slice_bytes);
  if (Rank() == root && total != 0) std::memcpy(recv, all.data(), total);
}

void Comm::ScatterBytes(const void* send, void* recv, const std::vector<std::size_t>& slice_bytes,
                        int root) {
  CheckRoot(root, WorldSize(), "Scatter");
  std::size_t offset = 0, total = 0;
  for (int r = 0; r < static_cast<int>(slice_bytes.size()); ++r) {
    if (r < Rank()) offset += slice_bytes[r];
    total += slice_bytes[r];
  }
  std::vector<std::uint8_t> all(total);
  if (Rank() == root && total != 0) std::memcpy(all.data(), send, total);
  BroadcastBytes(all.data(), total, root);
  if (slice_bytes.at(Rank()) != 0) std::memcpy(recv, all.data() + offset, slice_bytes[Rank()]);
}

void Comm::ReduceScatterBytes(void* buf, const std::vector<std::size_t>& counts, DataType type,
                              OpKind op) {
  if (counts.size() != static_cast<std::size_t>(WorldSize())) {
    throw Error("rabit ReduceScatter: " + std::to_string(counts.size()) +
                " slice sizes given for a world of " + std::to_string(WorldSize()));
  }
  std::size_t total = 0;
  for (const std::size_t c : counts) total += c;
  AllreduceBytes(buf, total, type, op, nullptr);
}

}  // namespace rabit
