// DataType and OpKind: what a collective's buffer holds and how ranks' values combine. A header
// of its own because the wire formats and reducers need these names without the API around them.
#pragma once

#include <cstddef>
#include <cstdint>
#include <type_traits>

namespace rabit {

// The numbers are on the wire (op and message headers): append, never renumber.
enum class DataType : std::uint8_t {
  kInt8,  // the integers' order is TypeOf's rule below
  kUInt8,
  kInt16,
  kUInt16,
  kInt32,
  kUInt32,
  kInt64,
  kUInt64,
  kFloat,
  kDouble
};
enum class OpKind : std::uint8_t { kSum, kMax, kMin, kBitOR };

namespace op {
struct Sum {
  static constexpr OpKind kKind = OpKind::kSum;
};
struct Max {
  static constexpr OpKind kKind = OpKind::kMax;
};
struct Min {
  static constexpr OpKind kKind = OpKind::kMin;
};
struct BitOR {
  static constexpr OpKind kKind = OpKind::kBitOR;
};
}  // namespace op

// Bytes of one element; 0 for a value outside the enum (a decoder checks it before trusting it).
constexpr std::size_t DataTypeSize(DataType type) {
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

namespace detail {
// The integer types are numbered 2 * log2(size) + (unsigned ? 1 : 0) in DataType above.
template <typename T>
constexpr DataType TypeOf() {
  if constexpr (std::is_same_v<T, float>) {
    return DataType::kFloat;
  } else if constexpr (std::is_same_v<T, double>) {
    return DataType::kDouble;
  } else {
    static_assert(std::is_integral_v<T> &&
                      (sizeof(T) == 1 || sizeof(T) == 2 || sizeof(T) == 4 || sizeof(T) == 8),
                  "rabit: unsupported element type");
    constexpr int kLog2Size = sizeof(T) == 1 ? 0 : sizeof(T) == 2 ? 1 : sizeof(T) == 4 ? 2 : 3;
    return static_cast<DataType>(2 * kLog2Size + (std::is_signed_v<T> ? 0 : 1));
  }
}
}  // namespace detail

}  // namespace rabit
