// Inplace prediction: XGBoosterPredictFromDense and XGBoosterPredictFromCSR predict rows given
// as array interfaces without a DMatrix handle. The rows are copied into this thread's scratch
// matrix, whose buffers keep their capacity from call to call: serving one row at a time then
// allocates nothing for the data. Values equal to "missing" (and NaN) are missing features.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "api_error.h"
#include "array_interface.h"
#include "base/parallel_for.h"
#include "booster/tree/learner/gbtree_learner.h"
#include "booster_object.h"
#include "dmatrix_object.h"
#include "json_reader.h"
#include "predict_request.h"
#include "predict_run.h"
#include "treering/c_api.h"

namespace treering::capi {
namespace {

// Below this many values a copy runs on the calling thread (no thread team for a request).
constexpr std::uint64_t kParallelCopyValues = 1 << 16;

bool IsMissing(float v, float missing) { return std::isnan(v) || v == missing; }

// Values a thread's scratch matrix keeps between calls (4 MiB): serving batches reuse it, a
// one-off large batch does not pin its memory to the thread.
constexpr std::size_t kKeptScratchValues = std::size_t{1} << 20;

data::DMatrix& ThreadScratch() {
  thread_local data::DMatrix scratch;
  return scratch;
}

// Matrix rows for one call on this thread; cleared, not freed, between calls.
data::DMatrix& Scratch() {
  data::DMatrix& scratch = ThreadScratch();
  scratch.row_ptr.assign(1, 0);
  scratch.index.clear();
  scratch.value.clear();
  scratch.base_margin.clear();
  scratch.num_col = 0;
  return scratch;
}

// Dense rows -> CSR without the missing values: counts per row, then fills, each in parallel
// for large inputs.
void CopyDense(const ArrayInterface& array, float missing, int threads, data::DMatrix* dm) {
  const std::uint64_t rows = array.rows, cols = array.cols;
  dm->num_col = cols;
  dm->row_ptr.assign(rows + 1, 0);
  const bool contiguous = array.IsCContiguousFloat32();
  const float* floats = reinterpret_cast<const float*>(array.data);
  auto at = [&](std::uint64_t r, std::uint64_t c) {
    return contiguous ? floats[r * cols + c] : array.Get(r, c);
  };
  const int nthread = rows * cols >= kParallelCopyValues ? threads : 1;
  ParallelFor(static_cast<std::int64_t>(rows), nthread, [&](std::int64_t r) {
    std::uint64_t present = 0;
    for (std::uint64_t c = 0; c < cols; ++c) present += !IsMissing(at(r, c), missing);
    dm->row_ptr[r + 1] = present;
  });
  for (std::uint64_t r = 0; r < rows; ++r) dm->row_ptr[r + 1] += dm->row_ptr[r];
  dm->index.resize(dm->row_ptr[rows]);
  dm->value.resize(dm->row_ptr[rows]);
  ParallelFor(static_cast<std::int64_t>(rows), nthread, [&](std::int64_t r) {
    std::uint64_t j = dm->row_ptr[r];
    for (std::uint64_t c = 0; c < cols; ++c) {
      const float v = at(r, c);
      if (IsMissing(v, missing)) continue;
      dm->index[j] = static_cast<std::uint32_t>(c);
      dm->value[j++] = v;
    }
  });
}

// CSR rows -> the matrix's CSR (indices sorted within a row, missing values dropped). Errors
// name the argument at fault.
void CopyCsr(const ArrayInterface& indptr, const ArrayInterface& indices,
             const ArrayInterface& values, std::uint64_t ncol, float missing, data::DMatrix* dm) {
  if (indptr.rows == 0) throw ApiError("indptr: empty (rows + 1 entries needed)");
  if (indices.rows != values.rows) {
    throw ApiError("indices: " + std::to_string(indices.rows) + " entries but values has " +
                   std::to_string(values.rows));
  }
  const std::uint64_t rows = indptr.rows - 1;
  dm->num_col = ncol;
  dm->row_ptr.assign(rows + 1, 0);
  std::vector<std::pair<std::uint32_t, float>> row;
  std::uint64_t previous = indptr.GetUInt(0);
  if (previous != 0) throw ApiError("indptr: starts at " + std::to_string(previous) + ", not 0");
  for (std::uint64_t r = 0; r < rows; ++r) {
    const std::uint64_t end = indptr.GetUInt(r + 1);
    if (end < previous || end > indices.rows) {
      throw ApiError("indptr: entry " + std::to_string(r + 1) + " = " + std::to_string(end) +
                     " is out of order or beyond the " + std::to_string(indices.rows) + " indices");
    }
    row.clear();
    for (std::uint64_t j = previous; j < end; ++j) {
      const std::uint64_t c = indices.GetUInt(j);
      if (c >= ncol) {
        throw ApiError("indices: " + std::to_string(c) + " at entry " + std::to_string(j) +
                       " is not below ncol = " + std::to_string(ncol));
      }
      const float v = values.Get(j, 0);
      if (!IsMissing(v, missing)) row.emplace_back(static_cast<std::uint32_t>(c), v);
    }
    std::sort(row.begin(), row.end(),
              [](const auto& a, const auto& b) { return a.first < b.first; });
    for (std::size_t k = 0; k < row.size(); ++k) {
      if (k > 0 && row[k].first == row[k - 1].first) {
        throw ApiError("indices: column " + std::to_string(row[k].first) + " twice in row " +
                       std::to_string(r));
      }
      dm->index.push_back(row[k].first);
      dm->value.push_back(row[k].second);
    }
    dm->row_ptr[r + 1] = dm->index.size();
    previous = end;
  }
}

// The rows (already in `dm`) predicted with the booster; `m` may carry a base_margin.
void PredictRows(BoosterObject& booster, const BoosterObject::ReadView& view, DMatrixHandle m,
                 const PredictRequest& request, const char* data_arg, data::DMatrix* dm,
                 const PredictOutputs& out) {
  const ModelFacts facts = FactsOf(*view.learner);
  if (facts.num_feature != 0 && dm->num_col != facts.num_feature) {
    throw ApiError(std::string(data_arg) + ": " + std::to_string(dm->num_col) +
                   " columns, the model has " + std::to_string(facts.num_feature) +
                   " features (inplace prediction needs exactly as many)");
  }
  if (m != nullptr) {
    std::shared_ptr<DMatrixObject> proxy = GetHandle<DMatrixObject>(m, "m");
    if (!proxy->is_proxy) throw ApiError("m: not a proxy DMatrix (XGProxyDMatrixCreate)");
    dm->base_margin = proxy->data.base_margin;
  }
  RunPrediction(view, *dm, request, data_arg, &booster.returns.ForThisThread(), out);
  if (dm->value.capacity() > kKeptScratchValues || dm->row_ptr.capacity() > kKeptScratchValues) {
    *dm = data::DMatrix();
  }
}

// Dense batches above this many rows are predicted a block of rows at a time (values and
// margins only: one row's output never depends on the others). The whole batch as one CSR copy
// cost more than the prediction itself on 1M x 28 floats (224 MB written to fresh pages, 0.5-1 s
// against 0.6 s for the trees); a block's copy is reused and stays in cache.
constexpr std::uint64_t kBlockRows = 1 << 16;

bool PredictsInBlocks(const ArrayInterface& array, const PredictRequest& request) {
  return array.rows > kBlockRows &&
         (request.type == PredictType::kValue || request.type == PredictType::kMargin);
}

// The same outputs as one CopyDense + PredictRows over the whole array, block by block.
void PredictDenseInBlocks(BoosterObject& booster, const BoosterObject::ReadView& view,
                          DMatrixHandle m, const PredictRequest& request,
                          const ArrayInterface& array, const PredictOutputs& out) {
  std::vector<float> margin;
  if (m != nullptr) {
    std::shared_ptr<DMatrixObject> proxy = GetHandle<DMatrixObject>(m, "m");
    if (!proxy->is_proxy) throw ApiError("m: not a proxy DMatrix (XGProxyDMatrixCreate)");
    margin = proxy->data.base_margin;
  }
  const ModelFacts facts = FactsOf(*view.learner);
  const std::uint64_t groups = static_cast<std::uint64_t>(facts.groups);
  if (!margin.empty() && margin.size() != array.rows * groups) {
    throw ApiError("values: base_margin has " + std::to_string(margin.size()) + " values for " +
                   std::to_string(array.rows) + " rows x " + std::to_string(groups) +
                   " output groups");
  }
  if (facts.num_feature != 0 && array.cols != facts.num_feature) {
    throw ApiError("values: " + std::to_string(array.cols) + " columns, the model has " +
                   std::to_string(facts.num_feature) +
                   " features (inplace prediction needs exactly as many)");
  }
  // One thread team for the whole batch: each thread copies and predicts its own run of blocks
  // (the prediction inside runs on that thread alone: nested teams are inactive), so no thread
  // waits at the end of a block's loops.
  const std::uint64_t blocks = (array.rows + kBlockRows - 1) / kBlockRows;
  const int threads = booster.ctx.Threads();
  std::vector<std::vector<float>> outputs(blocks);
  std::vector<std::vector<std::uint64_t>> shapes(blocks);
  ParallelForBlocks(static_cast<std::int64_t>(blocks), threads,
                    [&](int, std::int64_t first, std::int64_t last) {
                      data::DMatrix scratch;
                      ReturnSlot block_slot;
                      const bst_ulong* shape = nullptr;
                      bst_ulong dim = 0;
                      const float* result = nullptr;
                      const PredictOutputs block_out{&shape, &dim, &result, nullptr};
                      for (std::int64_t b = first; b < last; ++b) {
                        const std::uint64_t r0 = std::uint64_t(b) * kBlockRows;
                        ArrayInterface part = array;
                        part.rows = std::min(kBlockRows, array.rows - r0);
                        part.data = array.data + static_cast<std::int64_t>(r0) * array.row_stride;
                        CopyDense(part, request.missing, 1, &scratch);
                        if (!margin.empty()) {
                          scratch.base_margin.assign(margin.begin() + r0 * groups,
                                                     margin.begin() + (r0 + part.rows) * groups);
                        }
                        RunPrediction(view, scratch, request, "values", &block_slot, block_out);
                        outputs[b].swap(block_slot.floats);
                        shapes[b].assign(shape, shape + dim);
                      }
                    });
  std::size_t total = 0;
  for (const auto& o : outputs) total += o.size();
  std::vector<float> all;
  all.reserve(total);
  for (const auto& o : outputs) all.insert(all.end(), o.begin(), o.end());
  // Every block has the same shape but its row count.
  ReturnSlot& slot = booster.returns.ForThisThread();
  slot.shape = shapes[0];
  slot.shape[0] = array.rows;
  slot.floats.swap(all);
  *out.result = slot.floats.data();
  *out.shape = reinterpret_cast<const bst_ulong*>(slot.shape.data());
  *out.dim = slot.shape.size();
}

// Rows [first, first + count) of a float array of element type T, row-major into `out`, NaN
// for missing values: the floats CopyDense keeps (the same conversion and IsMissing), placed
// where a row's features go. Row-major arrays are read row by row, others column by column.
template <typename T>
void FillRows(const ArrayInterface& array, float missing, std::uint64_t first, std::uint64_t count,
              float* out) {
  const std::uint64_t cols = array.cols;
  const float nan = std::numeric_limits<float>::quiet_NaN();
  auto load = [&](std::uint64_t r, std::uint64_t c) {
    T v;
    std::memcpy(
        &v, array.data + std::int64_t(r) * array.row_stride + std::int64_t(c) * array.col_stride,
        sizeof(T));
    const float f = static_cast<float>(v);
    return IsMissing(f, missing) ? nan : f;
  };
  if (array.col_stride == std::int64_t(sizeof(T))) {
    for (std::uint64_t r = 0; r < count; ++r) {
      for (std::uint64_t c = 0; c < cols; ++c) out[r * cols + c] = load(first + r, c);
    }
    return;
  }
  for (std::uint64_t c = 0; c < cols; ++c) {
    for (std::uint64_t r = 0; r < count; ++r) out[r * cols + c] = load(first + r, c);
  }
}

// Values and margins of a tree model straight from the caller's array (no DMatrix): C-order
// float32 with NaN as the only missing value is read in place, anything else converted a
// block of rows at a time into a per-thread tile. Returns false when the request is not one
// it serves (other outputs, other learners): the caller copies the rows then.
bool PredictDenseDirect(const BoosterObject::ReadView& view, DMatrixHandle m,
                        const PredictRequest& given, const ArrayInterface& array, ReturnSlot* slot,
                        const PredictOutputs& out) {
  const auto* learner = dynamic_cast<const booster::GBTreeLearner*>(view.learner);
  if (learner == nullptr ||
      (given.type != PredictType::kValue && given.type != PredictType::kMargin)) {
    return false;
  }
  const ModelFacts facts = FactsOf(*view.learner);
  if (facts.num_feature != 0 && array.cols != facts.num_feature) {
    throw ApiError("values: " + std::to_string(array.cols) + " columns, the model has " +
                   std::to_string(facts.num_feature) +
                   " features (inplace prediction needs exactly as many)");
  }
  std::vector<float> margin;
  if (m != nullptr) {
    std::shared_ptr<DMatrixObject> proxy = GetHandle<DMatrixObject>(m, "m");
    if (!proxy->is_proxy) throw ApiError("m: not a proxy DMatrix (XGProxyDMatrixCreate)");
    margin = proxy->data.base_margin;
  }
  if (!margin.empty() && margin.size() != array.rows * std::uint64_t(facts.groups)) {
    throw ApiError("values: base_margin has " + std::to_string(margin.size()) + " values for " +
                   std::to_string(array.rows) + " rows x " + std::to_string(facts.groups) +
                   " output groups");
  }
  const PredictRequest request = ResolveTreeLimit(given, facts);
  booster::DenseRows rows;
  rows.rows = array.rows;
  rows.cols = array.cols;
  const float missing = request.missing;
  if (array.IsCContiguousFloat32() && std::isnan(missing)) {
    rows.direct = reinterpret_cast<const float*>(array.data);
  } else if (array.type == 'f' && array.item_bytes == 4) {
    rows.fill = [&](std::uint64_t first, std::uint64_t count, float* tile) {
      FillRows<float>(array, missing, first, count, tile);
    };
  } else if (array.type == 'f' && array.item_bytes == 8) {
    rows.fill = [&](std::uint64_t first, std::uint64_t count, float* tile) {
      FillRows<double>(array, missing, first, count, tile);
    };
  } else {
    rows.fill = [&](std::uint64_t first, std::uint64_t count, float* tile) {
      for (std::uint64_t r = 0; r < count; ++r) {
        for (std::uint64_t c = 0; c < array.cols; ++c) {
          const float v = array.Get(first + r, c);
          tile[r * array.cols + c] = IsMissing(v, missing) ? std::nanf("") : v;
        }
      }
    };
  }
  ThrowIfError(learner->PredictDense(rows, margin, request.Options(), &slot->floats));
  ReturnPrediction(facts, request, array.rows, array.cols, slot, out);
  return true;
}

PredictOutputs CheckOutputs(bst_ulong const** out_shape, bst_ulong* out_dim,
                            const float** out_result) {
  PredictOutputs out;
  out.shape = NotNull(out_shape, "out_shape");
  out.dim = NotNull(out_dim, "out_dim");
  out.result = NotNull(out_result, "out_result");
  return out;
}

}  // namespace
}  // namespace treering::capi

using treering::capi::ApiCall;
using treering::capi::BoosterObject;
using treering::capi::GetHandle;
using treering::capi::NotNull;

XGB_DLL int XGBoosterPredictFromDense(BoosterHandle handle, char const* values, char const* config,
                                      DMatrixHandle m, bst_ulong const** out_shape,
                                      bst_ulong* out_dim, const float** out_result) {
  using namespace treering::capi;  // NOLINT: the body reads as the C API's own code
  return ApiCall("XGBoosterPredictFromDense", [&] {
    const PredictOutputs out = CheckOutputs(out_shape, out_dim, out_result);
    std::shared_ptr<BoosterObject> booster = GetHandle<BoosterObject>(handle, "handle");
    const ArrayInterface array =
        ValueOrThrow(ParseArrayInterface(NotNull(values, "values"), "values"));
    const PredictRequest request = ParsePredictConfig(config, /*inplace=*/true);
    BoosterObject::ReadView view = booster->ForPrediction();
    if (PredictDenseDirect(view, m, request, array, &booster->returns.ForThisThread(), out)) {
      return;
    }
    treering::data::DMatrix& dm = Scratch();
    if (PredictsInBlocks(array, request)) {
      PredictDenseInBlocks(*booster, view, m, request, array, out);
      return;
    }
    CopyDense(array, request.missing, booster->ctx.Threads(), &dm);
    PredictRows(*booster, view, m, request, "values", &dm, out);
  });
}

XGB_DLL int XGBoosterPredictFromCSR(BoosterHandle handle, char const* indptr, char const* indices,
                                    char const* values, bst_ulong ncol, char const* config,
                                    DMatrixHandle m, bst_ulong const** out_shape,
                                    bst_ulong* out_dim, const float** out_result) {
  using namespace treering::capi;  // NOLINT
  return ApiCall("XGBoosterPredictFromCSR", [&] {
    const PredictOutputs out = CheckOutputs(out_shape, out_dim, out_result);
    std::shared_ptr<BoosterObject> booster = GetHandle<BoosterObject>(handle, "handle");
    const ArrayInterface ptr =
        ValueOrThrow(ParseArrayInterface(NotNull(indptr, "indptr"), "indptr"));
    const ArrayInterface idx =
        ValueOrThrow(ParseArrayInterface(NotNull(indices, "indices"), "indices"));
    const ArrayInterface val =
        ValueOrThrow(ParseArrayInterface(NotNull(values, "values"), "values"));
    const PredictRequest request = ParsePredictConfig(config, /*inplace=*/true);
    BoosterObject::ReadView view = booster->ForPrediction();
    treering::data::DMatrix& dm = Scratch();
    CopyCsr(ptr, idx, val, ncol, request.missing, &dm);
    PredictRows(*booster, view, m, request, "ncol", &dm, out);
  });
}
