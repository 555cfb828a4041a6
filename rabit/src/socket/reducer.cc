#include "socket/reducer.h"

#include <cstdint>
#include <type_traits>

namespace rabit::transport {
namespace {

template <typename T, OpKind kOp>
void ReduceLoop(void* dst_raw, const void* src_raw, std::size_t count) {
  T* __restrict dst = static_cast<T*>(dst_raw);
  const T* __restrict src = static_cast<const T*>(src_raw);
  for (std::size_t i = 0; i < count; ++i) {
    if constexpr (kOp == OpKind::kSum && std::is_integral_v<T>) {
      // Integer sums wrap (two's complement) as MPI's do, instead of signed-overflow UB.
      using U = std::make_unsigned_t<T>;
      dst[i] = static_cast<T>(static_cast<U>(static_cast<U>(dst[i]) + static_cast<U>(src[i])));
    } else if constexpr (kOp == OpKind::kSum) {
      dst[i] = dst[i] + src[i];
    } else if constexpr (kOp == OpKind::kMax) {
      dst[i] = dst[i] < src[i] ? src[i] : dst[i];
    } else if constexpr (kOp == OpKind::kMin) {
      dst[i] = src[i] < dst[i] ? src[i] : dst[i];
    } else {
      dst[i] = static_cast<T>(dst[i] | src[i]);
    }
  }
}

template <typename T>
treering::Result<ReduceFn> ForOp(OpKind op) {
  switch (op) {
    case OpKind::kSum: return &ReduceLoop<T, OpKind::kSum>;
    case OpKind::kMax: return &ReduceLoop<T, OpKind::kMax>;
    case OpKind::kMin: return &ReduceLoop<T, OpKind::kMin>;
    case OpKind::kBitOR:
      if constexpr (std::is_integral_v<T>) {
        return &ReduceLoop<T, OpKind::kBitOR>;
      } else {
        return treering::Status::InvalidInput("BitOR is defined for integer types only");
      }
  }
  return treering::Status::InvalidInput("unknown reduction op " +
                                        std::to_string(static_cast<int>(op)));
}

}  // namespace

treering::Result<ReduceFn> SelectReducer(DataType type, OpKind op) {
  switch (type) {
    case DataType::kInt8: return ForOp<std::int8_t>(op);
    case DataType::kUInt8: return ForOp<std::uint8_t>(op);
    case DataType::kInt16: return ForOp<std::int16_t>(op);
    case DataType::kUInt16: return ForOp<std::uint16_t>(op);
    case DataType::kInt32: return ForOp<std::int32_t>(op);
    case DataType::kUInt32: return ForOp<std::uint32_t>(op);
    case DataType::kInt64: return ForOp<std::int64_t>(op);
    case DataType::kUInt64: return ForOp<std::uint64_t>(op);
    case DataType::kFloat: return ForOp<float>(op);
    case DataType::kDouble: return ForOp<double>(op);
  }
  return treering::Status::InvalidInput("unknown data type " +
                                        std::to_string(static_cast<int>(type)));
}

}  // namespace rabit::transport
