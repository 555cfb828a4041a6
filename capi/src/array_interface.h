// NumPy's array interface (version 3) as XGBoost's C API receives it, a JSON string:
//   {"data": [address, read_only], "shape": [rows, cols], "strides": null | [r, c],
//    "typestr": "<f4", "version": 3}
// 1-D arrays are rows x 1. Element types: f4, f8 (floats), i1 i2 i4 i8, u1 u2 u4 u8,
// b1 (bool); little-endian ("<" or "|") only. A "mask" (masked arrays) is refused.
#pragma once

#include <cstdint>
#include <string_view>

#include "base/status.h"

namespace treering::capi {

struct ArrayInterface {
  const std::uint8_t* data = nullptr;
  std::uint64_t rows = 0;
  std::uint64_t cols = 1;
  int dims = 1;                 // 1 or 2
  std::int64_t row_stride = 0;  // bytes from one row to the next
  std::int64_t col_stride = 0;  // bytes from one column to the next
  char type = 'f';              // 'f' float, 'i' signed, 'u' unsigned, 'b' bool
  int item_bytes = 4;

  // Element (r, c) converted to float (XGBoost stores every value as float32).
  float Get(std::uint64_t r, std::uint64_t c) const;
  // Element i of a 1-D array as an unsigned integer (indptr, indices, group sizes).
  std::uint64_t GetUInt(std::uint64_t i) const;
  bool IsCContiguousFloat32() const {
    return type == 'f' && item_bytes == 4 && col_stride == 4 &&
           row_stride == std::int64_t(4 * cols);
  }
};

// `argument` names the C argument in errors ("data: typestr '>f4': big-endian arrays are not
// supported"). A null data address with a non-empty shape is an error.
Result<ArrayInterface> ParseArrayInterface(std::string_view text, const char* argument);
// The same through the general JSON reader only, skipping the allocation-free scanner that
// ParseArrayInterface tries first (tests check that both accept exactly the same texts).
Result<ArrayInterface> ParseArrayInterfaceFull(std::string_view text, const char* argument);

}  // namespace treering::capi
