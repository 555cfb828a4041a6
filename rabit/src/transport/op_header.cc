#include "transport/op_header.h"

namespace rabit::transport {
namespace {

template <typename T>
void Put(std::uint8_t* out, T value) {
  for (std::size_t i = 0; i < sizeof(T); ++i) {
    out[i] = static_cast<std::uint8_t>(static_cast<std::uint64_t>(value) >> (8 * i));
  }
}

template <typename T>
T Get(const std::uint8_t* in) {
  std::uint64_t value = 0;
  for (std::size_t i = 0; i < sizeof(T); ++i) value |= std::uint64_t{in[i]} << (8 * i);
  return static_cast<T>(value);
}

// FNV-1a over the slice sizes: ranks that disagree on the Allgather layout differ here.
std::uint32_t ShapeHash(const std::vector<std::size_t>& slice_bytes) {
  std::uint32_t h = 2166136261u;
  for (std::size_t s : slice_bytes) {
    for (int i = 0; i < 8; ++i) {
      h ^= static_cast<std::uint8_t>(static_cast<std::uint64_t>(s) >> (8 * i));
      h *= 16777619u;
    }
  }
  return h;
}

}  // namespace

const char* DataTypeName(DataType type) {
  switch (type) {
    case DataType::kInt8:
      return "int8";
    case DataType::kUInt8:
      return "uint8";
    case DataType::kInt16:
      return "int16";
    case DataType::kUInt16:
      return "uint16";
    case DataType::kInt32:
      return "int32";
    case DataType::kUInt32:
      return "uint32";
    case DataType::kInt64:
      return "int64";
    case DataType::kUInt64:
      return "uint64";
    case DataType::kFloat:
      return "float";
    case DataType::kDouble:
      return "double";
  }
  return "unknown-type";
}

const char* OpKindName(OpKind op) {
  switch (op) {
    case OpKind::kSum:
      return "sum";
    case OpKind::kMax:
      return "max";
    case OpKind::kMin:
      return "min";
    case OpKind::kBitOR:
      return "bitor";
  }
  return "unknown-op";
}

OpHeader OpHeader::ForAllreduce(std::uint64_t seq, DataType dtype, OpKind op, std::uint64_t bytes) {
  OpHeader h;
  h.kind = CollectiveKind::kAllreduce;
  h.dtype = dtype;
  h.op = op;
  h.sequence = seq;
  h.bytes = bytes;
  return h;
}

OpHeader OpHeader::ForBroadcast(std::uint64_t seq, int root, std::uint64_t bytes) {
  OpHeader h;
  h.kind = CollectiveKind::kBroadcast;
  h.root = root;
  h.sequence = seq;
  h.bytes = bytes;
  return h;
}

OpHeader OpHeader::ForAllgather(std::uint64_t seq, const std::vector<std::size_t>& slice_bytes) {
  OpHeader h;
  h.kind = CollectiveKind::kAllgather;
  h.sequence = seq;
  for (std::size_t s : slice_bytes) h.bytes += s;
  h.shape = ShapeHash(slice_bytes);
  return h;
}

OpHeader OpHeader::ForReduceScatter(std::uint64_t seq, DataType dtype, OpKind op,
                                    const std::vector<std::size_t>& slice_bytes) {
  OpHeader h = ForAllgather(seq, slice_bytes);
  h.kind = CollectiveKind::kReduceScatter;
  h.dtype = dtype;
  h.op = op;
  return h;
}

std::array<std::uint8_t, OpHeader::kBytes> OpHeader::Encode() const {
  std::array<std::uint8_t, kBytes> out{};
  Put<std::uint32_t>(&out[0], kMagic);
  out[4] = static_cast<std::uint8_t>(kind);
  out[5] = static_cast<std::uint8_t>(dtype);
  out[6] = static_cast<std::uint8_t>(op);
  Put<std::uint32_t>(&out[8], static_cast<std::uint32_t>(root));
  Put<std::uint32_t>(&out[12], shape);
  Put<std::uint64_t>(&out[16], sequence);
  Put<std::uint64_t>(&out[24], bytes);
  return out;
}

std::optional<OpHeader> OpHeader::Decode(const std::uint8_t* in) {
  if (Get<std::uint32_t>(in) != kMagic) return std::nullopt;
  OpHeader h;
  h.kind = static_cast<CollectiveKind>(in[4]);
  h.dtype = static_cast<DataType>(in[5]);
  h.op = static_cast<OpKind>(in[6]);
  h.root = static_cast<std::int32_t>(Get<std::uint32_t>(&in[8]));
  h.shape = Get<std::uint32_t>(&in[12]);
  h.sequence = Get<std::uint64_t>(&in[16]);
  h.bytes = Get<std::uint64_t>(&in[24]);
  return h;
}

std::string OpHeader::Describe() const {
  const std::string size = std::to_string(bytes) + " B";
  switch (kind) {
    case CollectiveKind::kAllreduce:
      return std::string("Allreduce(") + OpKindName(op) + ", " + DataTypeName(dtype) + ", " + size +
             ")";
    case CollectiveKind::kBroadcast:
      return "Broadcast(root " + std::to_string(root) + ", " + size + ")";
    case CollectiveKind::kAllgather:
      return "Allgather(" + size + ", slice layout #" + std::to_string(shape) + ")";
    case CollectiveKind::kReduceScatter:
      return std::string("ReduceScatter(") + OpKindName(op) + ", " + DataTypeName(dtype) + ", " +
             size + ", slice layout #" + std::to_string(shape) + ")";
  }
  return "unknown collective (kind " + std::to_string(static_cast<int>(kind)) + ")";
}

std::string MismatchMessage(int self, const OpHeader& mine, int peer, const OpHeader& theirs) {
  return "rank " + std::to_string(peer) + " called " + theirs.Describe() + " as op #" +
         std::to_string(theirs.sequence) + " but rank " + std::to_string(self) + " called " +
         mine.Describe() + " as op #" + std::to_string(mine.sequence);
}

}  // namespace rabit::transport
