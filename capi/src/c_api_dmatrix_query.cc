// Reading a DMatrix back: its shape, its entries as CSR, row slices, LibSVM text; and freeing.
#include <cmath>
#include <cstdio>
#include <string>

#include "api_error.h"
#include "booster/atomic_file.h"
#include "dmatrix_build.h"
#include "global_config.h"
#include "handle_table.h"
#include "treering/c_api.h"

using treering::capi::ApiCall;
using treering::capi::ApiError;
using treering::capi::DMatrixObject;
using treering::capi::NotNull;
namespace capi = treering::capi;
namespace data = treering::data;

namespace {

// Rows idx in order with their per-row meta information. Query groups are not carried over
// (XGBoost's slice drops them too: a slice of a ranking matrix has no groups).
data::DMatrix Slice(const data::DMatrix& d, const int* idx, bst_ulong len) {
  data::DMatrix out;
  out.num_col = d.num_col;
  out.label_columns = d.label_columns;
  const std::size_t rows = d.NumRows();
  const std::size_t margin_width = rows == 0 ? 0 : d.base_margin.size() / rows;
  out.row_ptr.reserve(len + 1);
  for (bst_ulong i = 0; i < len; ++i) {
    if (idx[i] < 0 || std::size_t(idx[i]) >= rows) {
      throw ApiError("idxset[" + std::to_string(i) + "] = " + std::to_string(idx[i]) +
                     " is not a row of the " + std::to_string(rows) + "-row matrix");
    }
    const std::size_t r = std::size_t(idx[i]);
    out.index.insert(out.index.end(), d.index.begin() + d.row_ptr[r],
                     d.index.begin() + d.row_ptr[r + 1]);
    out.value.insert(out.value.end(), d.value.begin() + d.row_ptr[r],
                     d.value.begin() + d.row_ptr[r + 1]);
    out.row_ptr.push_back(out.index.size());
    if (!d.label.empty()) {
      out.label.insert(out.label.end(), d.label.begin() + r * d.label_columns,
                       d.label.begin() + (r + 1) * d.label_columns);
    }
    if (!d.weight.empty()) out.weight.push_back(d.weight[r]);
    if (!d.label_lower_bound.empty()) out.label_lower_bound.push_back(d.label_lower_bound[r]);
    if (!d.label_upper_bound.empty()) out.label_upper_bound.push_back(d.label_upper_bound[r]);
    for (std::size_t k = 0; k < margin_width; ++k) {
      out.base_margin.push_back(d.base_margin[r * margin_width + k]);
    }
  }
  out.feature_weights = d.feature_weights;
  out.feature_names = d.feature_names;
  out.feature_types = d.feature_types;
  return out;
}

void SliceInto(DMatrixHandle handle, const int* idxset, bst_ulong len, DMatrixHandle* out,
               int allow_groups) {
  auto m = capi::GetDataMatrix(handle, "handle");
  NotNull(out, "out");
  if (len > 0) NotNull(idxset, "idxset");
  if (allow_groups == 0 && !m->data.group_ptr.empty()) {
    throw ApiError(
        "handle: the matrix has query groups; slicing it needs allow_groups = 1 "
        "(the slice then has no groups)");
  }
  auto object = std::make_shared<DMatrixObject>();
  object->data = Slice(m->data, idxset, len);
  object->max_bin = m->max_bin;
  *out = capi::AddHandle(std::move(object));
}

// A float that reads back as the same float.
void AppendFloat(std::string* out, float v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.9g", double(v));
  out->append(buf);
}

}  // namespace

XGB_DLL int XGDMatrixSliceDMatrix(DMatrixHandle handle, const int* idxset, bst_ulong len,
                                  DMatrixHandle* out) {
  return ApiCall("XGDMatrixSliceDMatrix", [&] { SliceInto(handle, idxset, len, out, 0); });
}

XGB_DLL int XGDMatrixSliceDMatrixEx(DMatrixHandle handle, const int* idxset, bst_ulong len,
                                    DMatrixHandle* out, int allow_groups) {
  return ApiCall("XGDMatrixSliceDMatrixEx",
                 [&] { SliceInto(handle, idxset, len, out, allow_groups); });
}

XGB_DLL int XGDMatrixFree(DMatrixHandle handle) {
  return ApiCall("XGDMatrixFree", [&] { capi::FreeHandle<DMatrixObject>(handle, "handle"); });
}

XGB_DLL int XGDMatrixNumRow(DMatrixHandle handle, bst_ulong* out) {
  return ApiCall("XGDMatrixNumRow", [&] {
    auto m = capi::GetDataMatrix(handle, "handle");
    *NotNull(out, "out") = m->data.NumRows();
  });
}

XGB_DLL int XGDMatrixNumCol(DMatrixHandle handle, bst_ulong* out) {
  return ApiCall("XGDMatrixNumCol", [&] {
    auto m = capi::GetDataMatrix(handle, "handle");
    *NotNull(out, "out") = m->data.num_col;
  });
}

XGB_DLL int XGDMatrixNumNonMissing(DMatrixHandle handle, bst_ulong* out) {
  return ApiCall("XGDMatrixNumNonMissing", [&] {
    auto m = capi::GetDataMatrix(handle, "handle");
    *NotNull(out, "out") = m->data.NumNonZero();
  });
}

XGB_DLL int XGDMatrixGetDataAsCSR(DMatrixHandle const handle, char const* config,
                                  bst_ulong* out_indptr, unsigned* out_indices, float* out_data) {
  return ApiCall("XGDMatrixGetDataAsCSR", [&] {
    auto m = capi::GetDataMatrix(handle, "handle");
    (void)treering::capi::ValueOrThrow(capi::ParseConfig(config, "config"));
    NotNull(out_indptr, "out_indptr");
    const data::DMatrix& d = m->data;
    if (d.NumNonZero() > 0) {
      NotNull(out_indices, "out_indices");
      NotNull(out_data, "out_data");
    }
    for (std::size_t i = 0; i < d.row_ptr.size(); ++i) out_indptr[i] = d.row_ptr[i];
    for (std::size_t i = 0; i < d.index.size(); ++i) {
      out_indices[i] = d.index[i];
      out_data[i] = d.value[i];
    }
  });
}

// LibSVM text, the format XGDMatrixCreateFromFile reads back: "label[:weight] [qid:N] i:v ...".
// XGBoost writes its binary cache format here; treering has none, and refuses rather than drop
// meta information that LibSVM cannot hold.
XGB_DLL int XGDMatrixSaveBinary(DMatrixHandle handle, const char* fname, int silent) {
  return ApiCall("XGDMatrixSaveBinary", [&] {
    auto m = capi::GetDataMatrix(handle, "handle");
    NotNull(fname, "fname");
    const data::DMatrix& d = m->data;
    const char* lost = !d.base_margin.empty()         ? "base_margin"
                       : !d.label_lower_bound.empty() ? "label_lower_bound"
                       : !d.label_upper_bound.empty() ? "label_upper_bound"
                       : !d.feature_weights.empty()   ? "feature_weights"
                       : !d.feature_names.empty()     ? "feature_name"
                       : !d.feature_types.empty()     ? "feature_type"
                                                      : nullptr;
    if (lost != nullptr) {
      throw ApiError(std::string("handle: ") + lost +
                     " cannot be written: XGDMatrixSaveBinary writes LibSVM text, which holds "
                     "labels, weights, query groups and entries only");
    }
    // Built in memory, then written atomically: a failed save never leaves half a file.
    std::string text;
    char buf[48];
    std::size_t group = 0;
    for (std::size_t r = 0; r < d.NumRows(); ++r) {
      AppendFloat(&text, d.label.empty() ? 0.0f : d.label[r]);
      if (!d.weight.empty()) {
        text.push_back(':');
        AppendFloat(&text, d.weight[r]);
      }
      if (!d.qid.empty()) {
        std::snprintf(buf, sizeof buf, " qid:%llu", static_cast<unsigned long long>(d.qid[r]));
        text.append(buf);
      } else if (!d.group_ptr.empty()) {
        while (group + 1 < d.group_ptr.size() && d.group_ptr[group + 1] <= r) ++group;
        std::snprintf(buf, sizeof buf, " qid:%zu", group);
        text.append(buf);
      }
      for (std::uint64_t k = d.row_ptr[r]; k < d.row_ptr[r + 1]; ++k) {
        std::snprintf(buf, sizeof buf, " %u:", d.index[k]);
        text.append(buf);
        AppendFloat(&text, d.value[k]);
      }
      text.push_back('\n');
    }
    treering::Status written = treering::booster::WriteFileAtomic(fname, text);
    if (!written.ok()) throw ApiError("fname: " + written.message());
    if (silent == 0) {
      capi::Log(capi::kLogConsole,
                std::to_string(d.NumRows()) + " rows saved to " + fname + " as LibSVM text");
    }
  });
}
