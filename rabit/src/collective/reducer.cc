#include "collective/reducer.h"

#include <cstdint>
#include <type_traits>

namespace rabit::collective {
namespace {

template <typename T, OpKind kOp>
T Combine(T a, T b) {
  if constexpr (kOp == OpKind::kSum && std::is_integral_v<T>) {
    // Integer sums wrap (two's complement) as MPI's do, instead of signed-overflow UB.
    using U = std::make_unsigned_t<T>;
    return static_cast<T>(static_cast<U>(static_cast<U>(a) + static_cast<U>(b)));
  } else if constexpr (kOp == OpKind::kSum) {
    return a + b;
  } else if constexpr (kOp == OpKind::kMax) {
    return a < b ? b : a;
  } else if constexpr (kOp == OpKind::kMin) {
    return b < a ? b : a;
  } else {
    return static_cast<T>(a | b);
  }
}

template <typename T, OpKind kOp, OperandOrder kOrder>
void ReduceLoop(void* dst_raw, const void* src_raw, std::size_t count) {
  T* __restrict dst = static_cast<T*>(dst_raw);
  const T* __restrict src = static_cast<const T*>(src_raw);
  for (std::size_t i = 0; i < count; ++i) {
    if constexpr (kOrder == OperandOrder::kDstFirst) {
      dst[i] = Combine<T, kOp>(dst[i], src[i]);
    } else {
      dst[i] = Combine<T, kOp>(src[i], dst[i]);
    }
  }
}

template <typename T, OpKind kOp>
ReduceFn Ordered(OperandOrder order) {
  return order == OperandOrder::kDstFirst ? &ReduceLoop<T, kOp, OperandOrder::kDstFirst>
                                          : &ReduceLoop<T, kOp, OperandOrder::kSrcFirst>;
}

template <typename T>
treering::Result<ReduceFn> ForOp(OpKind op, OperandOrder order) {
  switch (op) {
    case OpKind::kSum:
      return Ordered<T, OpKind::kSum>(order);
    case OpKind::kMax:
      return Ordered<T, OpKind::kMax>(order);
    case OpKind::kMin:
      return Ordered<T, OpKind::kMin>(order);
    case OpKind::kBitOR:
      if constexpr (std::is_integral_v<T>) {
        return Ordered<T, OpKind::kBitOR>(order);
      } else {
        return treering::Status::InvalidInput("BitOR is defined for integer types only");
      }
  }
  return treering::Status::InvalidInput("unknown reduction op " +
                                        std::to_string(static_cast<int>(op)));
}

}  // namespace

treering::Result<ReduceFn> SelectReducer(DataType type, OpKind op, OperandOrder order) {
  switch (type) {
    case DataType::kInt8:
      return ForOp<std::int8_t>(op, order);
    case DataType::kUInt8:
      return ForOp<std::uint8_t>(op, order);
    case DataType::kInt16:
      return ForOp<std::int16_t>(op, order);
    case DataType::kUInt16:
      return ForOp<std::uint16_t>(op, order);
    case DataType::kInt32:
      return ForOp<std::int32_t>(op, order);
    case DataType::kUInt32:
      return ForOp<std::uint32_t>(op, order);
    case DataType::kInt64:
      return ForOp<std::int64_t>(op, order);
    case DataType::kUInt64:
      return ForOp<std::uint64_t>(op, order);
    case DataType::kFloat:
      return ForOp<float>(op, order);
    case DataType::kDouble:
      return ForOp<double>(op, order);
  }
  return treering::Status::InvalidInput("unknown data type " +
                                        std::to_string(static_cast<int>(type)));
}

}  // namespace rabit::collective
