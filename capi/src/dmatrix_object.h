// What a DMatrixHandle names: a data set (data::DMatrix, CSR plus XGBoost's meta information)
// or a proxy, the slot that a user's iterator fills with one batch at a time
// (XGProxyDMatrixCreate). Boosters keep shared_ptrs to the matrices they train and evaluate
// on; `version` lets them see that the meta information changed since (labels set again).
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "array_interface.h"
#include "data/dmatrix.h"
#include "handle_table.h"
#include "return_slots.h"

namespace treering::capi {

struct ProxyBatch {
  enum class Kind { kNone, kDense, kCsr } kind = Kind::kNone;
  ArrayInterface dense;                    // kDense
  ArrayInterface indptr, indices, values;  // kCsr
  std::uint64_t num_col = 0;               // kCsr
};

struct DMatrixObject {
  static constexpr HandleKind kKind = HandleKind::kDMatrix;

  data::DMatrix data;
  bool is_proxy = false;
  ProxyBatch batch;  // a proxy's current batch (its meta information is in `data`)
  // XGQuantileDMatrixCreateFromCallback's "max_bin" (0 for other matrices): training on this
  // matrix uses it as the booster's max_bin unless the booster's own parameters set one.
  int max_bin = 0;
  // Bumped by every change of data or meta information after creation.
  std::atomic<std::uint64_t> version{0};
  ReturnSlots returns;
};

}  // namespace treering::capi
