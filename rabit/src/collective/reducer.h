// Reducers: dst[i] = op(dst[i], src[i]) over `count` elements, one tight loop per (type, op)
// that the compiler vectorises. The (type, op) pair is resolved once per collective through a
// switch into a plain function pointer, so the hot loop has no per-element dispatch.
#pragma once

#include <cstddef>

#include "base/status.h"
#include "rabit/data_type.h"

namespace rabit::collective {

using ReduceFn = void (*)(void* dst, const void* src, std::size_t count);

// Which value is the left operand. Ranks that reduce the same pair of values in opposite roles
// (the two sides of a direct exchange) must still get bit-identical results: max/min pick a
// different NaN depending on the order, and float addition returns the left NaN's payload.
enum class OperandOrder { kDstFirst, kSrcFirst };  // op(dst, src) or op(src, dst)

// kInvalidInput for BitOR on floating-point types.
treering::Result<ReduceFn> SelectReducer(DataType type, OpKind op,
                                         OperandOrder order = OperandOrder::kDstFirst);

}  // namespace rabit::collective
