#include "transport/op_header.h"

#include "transport/wire_format.h"

namespace rabit::transport {
namespace {

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
  PutLe(&out[0], kMagic, 4);
  out[4] = static_cast<std::uint8_t>(kind);
  out[5] = static_cast<std::uint8_t>(dtype);
  out[6] = static_cast<std::uint8_t>(op);
  PutLe(&out[8], static_cast<std::uint32_t>(root), 4);
  PutLe(&out[12], shape, 4);
  PutLe(&out[16], sequence, 8);
  PutLe(&out[24], bytes, 8);
  return out;
}

std::optional<OpHeader> OpHeader::Decode(const std::uint8_t* in) {
  if (GetLe(in, 4) != kMagic) return std::nullopt;
  OpHeader h;
  h.kind = static_cast<CollectiveKind>(in[4]);
  h.dtype = static_cast<DataType>(in[5]);
  h.op = static_cast<OpKind>(in[6]);
  h.root = static_cast<std::int32_t>(static_cast<std::uint32_t>(GetLe(&in[8], 4)));
  h.shape = static_cast<std::uint32_t>(GetLe(&in[12], 4));
  h.sequence = GetLe(&in[16], 8);
  h.bytes = GetLe(&in[24], 8);
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
