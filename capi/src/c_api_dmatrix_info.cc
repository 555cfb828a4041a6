// Meta information of a DMatrix: labels, weights, margins, groups, bounds, feature weights,
// names and types. Every setter funnels into SetInfo over an ArrayInterface, so the float,
// uint, dense and array-interface variants check lengths and values the same way.
#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "api_error.h"
#include "dmatrix_build.h"
#include "handle_table.h"
#include "treering/c_api.h"

using treering::capi::ApiCall;
using treering::capi::ApiError;
using treering::capi::ArrayInterface;
using treering::capi::DMatrixObject;
using treering::capi::NotNull;
using treering::capi::ValueOrThrow;
namespace capi = treering::capi;

namespace {

std::uint64_t RowsOf(const DMatrixObject& m) {
  if (!m.is_proxy) return m.data.NumRows();
  switch (m.batch.kind) {
    case capi::ProxyBatch::Kind::kDense:
      return m.batch.dense.rows;
    case capi::ProxyBatch::Kind::kCsr:
      return m.batch.indptr.rows - 1;
    default:
      return 0;
  }
}

// 0 when a proxy's CSR batch did not say (ncol 0): column checks are then skipped.
std::uint64_t ColsOf(const DMatrixObject& m) {
  if (!m.is_proxy) return m.data.num_col;
  switch (m.batch.kind) {
    case capi::ProxyBatch::Kind::kDense:
      return m.batch.dense.cols;
    case capi::ProxyBatch::Kind::kCsr:
      return m.batch.num_col;
    default:
      return 0;
  }
}

[[noreturn]] void WrongLength(const std::string& field, std::uint64_t n, std::uint64_t want,
                              const char* unit) {
  throw ApiError(field + ": " + std::to_string(n) + " values for " + std::to_string(want) + " " +
                 unit);
}

std::vector<float> ReadFloats(const ArrayInterface& a, const std::string& field, bool finite_only,
                              bool non_negative) {
  std::vector<float> out;
  out.reserve(a.rows * a.cols);
  for (std::uint64_t r = 0; r < a.rows; ++r) {
    for (std::uint64_t c = 0; c < a.cols; ++c) {
      const float v = a.Get(r, c);
      if (finite_only && !std::isfinite(v)) {
        throw ApiError(field + ": value " + std::to_string(out.size()) +
                       " is NaN or infinite (or too large for float)");
      }
      if (non_negative && v < 0) {
        throw ApiError(field + ": value " + std::to_string(out.size()) + " is negative");
      }
      out.push_back(v);
    }
  }
  return out;
}

void RequireColumn(const ArrayInterface& a, const std::string& field) {
  if (a.cols != 1) {
    throw ApiError(field + ": shape [" + std::to_string(a.rows) + ", " + std::to_string(a.cols) +
                   "]: one column expected");
  }
}

void SetGroupSizes(DMatrixObject& m, const ArrayInterface& a, std::uint64_t rows) {
  RequireColumn(a, "group");
  std::vector<std::uint64_t> ptr{0};
  for (std::uint64_t g = 0; g < a.rows; ++g) {
    const std::uint64_t size = a.GetUInt(g);
    if (size > rows || ptr.back() + size > rows) {
      throw ApiError("group: sizes add up to more than the " + std::to_string(rows) + " rows");
    }
    ptr.push_back(ptr.back() + size);
  }
  if (ptr.back() != rows) {
    throw ApiError("group: sizes add up to " + std::to_string(ptr.back()) + ", not the " +
                   std::to_string(rows) + " rows");
  }
  m.data.group_ptr = a.rows == 0 ? std::vector<std::uint64_t>{} : std::move(ptr);
  m.data.qid.clear();
}

// qid: one per row, non-decreasing (XGBoost's rule); each run of equal qids is a group.
void SetQid(DMatrixObject& m, const ArrayInterface& a, std::uint64_t rows) {
  RequireColumn(a, "qid");
  if (a.rows != rows) WrongLength("qid", a.rows, rows, "rows");
  std::vector<std::uint64_t> qid(rows);
  std::vector<std::uint64_t> ptr;
  for (std::uint64_t r = 0; r < rows; ++r) {
    qid[r] = a.GetUInt(r);
    if (qid[r] == ~std::uint64_t{0}) {
      throw ApiError("qid: value " + std::to_string(r) + " is not a non-negative integer");
    }
    if (r > 0 && qid[r] < qid[r - 1]) {
      throw ApiError("qid: must be sorted in non-decreasing order along with the rows (row " +
                     std::to_string(r) + ")");
    }
    if (r == 0 || qid[r] != qid[r - 1]) ptr.push_back(r);
  }
  ptr.push_back(rows);
  m.data.group_ptr = rows == 0 ? std::vector<std::uint64_t>{} : std::move(ptr);
  m.data.qid = std::move(qid);
}

// The rows a per-row field must fit. A proxy that holds no batch yet has none to check
// against: XGBoost's Python sets base_margin on an empty proxy for inplace_predict, whose
// rows come with the call. The field then sizes itself, and where the proxy is used
// (inplace prediction, an iterator's batch) its length is checked against the real rows.
std::uint64_t RowsToFit(const DMatrixObject& m, const std::string& field, const ArrayInterface& a) {
  if (!(m.is_proxy && m.batch.kind == capi::ProxyBatch::Kind::kNone)) return RowsOf(m);
  if (field == "group") {
    std::uint64_t sum = 0;
    for (std::uint64_t g = 0; g < a.rows; ++g) sum += a.GetUInt(g);
    return sum;
  }
  if (field == "base_margin" && a.dims == 2) return a.rows;
  return a.rows * a.cols;
}

void SetInfo(DMatrixObject& m, const std::string& field, const ArrayInterface& a) {
  const std::uint64_t rows = RowsToFit(m, field, a);
  const std::uint64_t n = a.rows * a.cols;
  treering::data::DMatrix& d = m.data;
  if (field == "label") {
    // rows x targets for multi-target regression (a 2-D array); flat arrays are one column.
    if (a.rows != rows) WrongLength(field, a.rows, rows, "rows");
    if (a.cols == 0 && rows != 0)
      throw ApiError("label: shape [" + std::to_string(a.rows) + ", 0]");
    d.label = ReadFloats(a, field, true, false);
    d.label_columns = a.cols == 0 ? 1 : a.cols;
  } else if (field == "weight") {
    RequireColumn(a, field);
    if (n != rows && n != 0 && d.group_ptr.size() == n + 1) {
      throw ApiError("weight: " + std::to_string(n) +
                     " values, one per query group: treering's weights are per row (give each "
                     "row its group's weight)");
    }
    if (n != rows && n != 0) WrongLength(field, n, rows, "rows");
    d.weight = ReadFloats(a, field, true, true);
  } else if (field == "base_margin") {
    // rows x output groups: a 2-D array, or a flat row-major one whose length divides.
    if (n != 0 && (rows == 0 || n % rows != 0)) {
      throw ApiError("base_margin: " + std::to_string(n) + " values are not a multiple of the " +
                     std::to_string(rows) + " rows");
    }
    if (a.dims == 2 && a.cols > 1 && a.rows != rows) WrongLength(field, a.rows, rows, "rows");
    d.base_margin = ReadFloats(a, field, true, false);
  } else if (field == "label_lower_bound" || field == "label_upper_bound") {
    RequireColumn(a, field);
    if (n != rows && n != 0) WrongLength(field, n, rows, "rows");
    std::vector<float> bound = ReadFloats(a, field, false, false);
    for (std::size_t i = 0; i < bound.size(); ++i) {
      if (std::isnan(bound[i])) throw ApiError(field + ": value " + std::to_string(i) + " is NaN");
    }
    (field == "label_lower_bound" ? d.label_lower_bound : d.label_upper_bound) = std::move(bound);
  } else if (field == "feature_weights") {
    RequireColumn(a, field);
    const std::uint64_t cols = ColsOf(m);
    if (n != cols && n != 0 && !(m.is_proxy && cols == 0)) {
      WrongLength(field, n, cols, "columns");
    }
    d.feature_weights = ReadFloats(a, field, true, true);
  } else if (field == "group") {
    SetGroupSizes(m, a, rows);
  } else if (field == "qid") {
    SetQid(m, a, rows);
  } else {
    throw ApiError("field: unknown field '" + field +
                   "' (label, weight, base_margin, group, qid, label_lower_bound, "
                   "label_upper_bound, feature_weights)");
  }
  ++m.version;
}

ArrayInterface Flat(const void* data, std::uint64_t len, char type, int bytes) {
  if (len > 0) NotNull(data, "array");
  if (len > std::uint64_t(INT64_MAX) / 8) throw ApiError("len is too large");
  ArrayInterface a;
  a.data = static_cast<const std::uint8_t*>(data);
  a.rows = len;
  a.cols = 1;
  a.type = type;
  a.item_bytes = bytes;
  a.row_stride = bytes;
  a.col_stride = bytes;
  return a;
}

std::shared_ptr<DMatrixObject> Matrix(const void* handle) {
  return treering::capi::GetHandle<DMatrixObject>(handle, "handle");
}

const std::vector<std::string>* StrField(treering::data::DMatrix& d, const std::string& field) {
  if (field == "feature_name") return &d.feature_names;
  if (field == "feature_type") return &d.feature_types;
  throw ApiError("field: unknown field '" + field + "' (feature_name, feature_type)");
}

}  // namespace

XGB_DLL int XGDMatrixSetFloatInfo(DMatrixHandle handle, const char* field, const float* array,
                                  bst_ulong len) {
  return ApiCall("XGDMatrixSetFloatInfo", [&] {
    auto m = Matrix(handle);
    SetInfo(*m, NotNull(field, "field"), Flat(array, len, 'f', 4));
  });
}

XGB_DLL int XGDMatrixSetUIntInfo(DMatrixHandle handle, const char* field, const unsigned* array,
                                 bst_ulong len) {
  return ApiCall("XGDMatrixSetUIntInfo", [&] {
    auto m = Matrix(handle);
    SetInfo(*m, NotNull(field, "field"), Flat(array, len, 'u', 4));
  });
}

XGB_DLL int XGDMatrixSetDenseInfo(DMatrixHandle handle, const char* field, void const* data,
                                  bst_ulong size, int type) {
  return ApiCall("XGDMatrixSetDenseInfo", [&] {
    auto m = Matrix(handle);
    NotNull(field, "field");
    switch (type) {
      case 1:
        SetInfo(*m, field, Flat(data, size, 'f', 4));
        break;
      case 2:
        SetInfo(*m, field, Flat(data, size, 'f', 8));
        break;
      case 3:
        SetInfo(*m, field, Flat(data, size, 'u', 4));
        break;
      case 4:
        SetInfo(*m, field, Flat(data, size, 'u', 8));
        break;
      default:
        throw ApiError("type: " + std::to_string(type) +
                       " (1 float32, 2 float64, 3 uint32, 4 uint64)");
    }
  });
}

XGB_DLL int XGDMatrixSetInfoFromInterface(DMatrixHandle handle, char const* field,
                                          char const* c_interface_str) {
  return ApiCall("XGDMatrixSetInfoFromInterface", [&] {
    auto m = Matrix(handle);
    NotNull(field, "field");
    auto a = ValueOrThrow(
        capi::ParseArrayInterface(NotNull(c_interface_str, "c_interface_str"), "c_interface_str"));
    SetInfo(*m, field, a);
  });
}

XGB_DLL int XGDMatrixSetGroup(DMatrixHandle handle, const unsigned* group, bst_ulong len) {
  return ApiCall("XGDMatrixSetGroup", [&] {
    auto m = Matrix(handle);
    SetInfo(*m, "group", Flat(group, len, 'u', 4));
  });
}

XGB_DLL int XGDMatrixGetFloatInfo(const DMatrixHandle handle, const char* field, bst_ulong* out_len,
                                  const float** out_dptr) {
  return ApiCall("XGDMatrixGetFloatInfo", [&] {
    auto m = Matrix(handle);
    const std::string name = NotNull(field, "field");
    NotNull(out_len, "out_len");
    NotNull(out_dptr, "out_dptr");
    const treering::data::DMatrix& d = m->data;
    const std::vector<float>* v = nullptr;
    if (name == "label")
      v = &d.label;
    else if (name == "weight")
      v = &d.weight;
    else if (name == "base_margin")
      v = &d.base_margin;
    else if (name == "label_lower_bound")
      v = &d.label_lower_bound;
    else if (name == "label_upper_bound")
      v = &d.label_upper_bound;
    else if (name == "feature_weights")
      v = &d.feature_weights;
    else {
      throw ApiError("field: unknown float field '" + name +
                     "' (label, weight, base_margin, label_lower_bound, label_upper_bound, "
                     "feature_weights)");
    }
    capi::ReturnSlot& slot = m->returns.ForThisThread();
    slot.floats = *v;
    *out_len = slot.floats.size();
    *out_dptr = slot.floats.data();
  });
}

XGB_DLL int XGDMatrixGetUIntInfo(const DMatrixHandle handle, const char* field, bst_ulong* out_len,
                                 const unsigned** out_dptr) {
  return ApiCall("XGDMatrixGetUIntInfo", [&] {
    auto m = Matrix(handle);
    const std::string name = NotNull(field, "field");
    NotNull(out_len, "out_len");
    NotNull(out_dptr, "out_dptr");
    if (name != "group_ptr") throw ApiError("field: unknown uint field '" + name + "' (group_ptr)");
    capi::ReturnSlot& slot = m->returns.ForThisThread();
    slot.uints.clear();
    for (std::uint64_t p : m->data.group_ptr) {
      if (p > 0xFFFFFFFFu) throw ApiError("group_ptr: offsets beyond 2^32 do not fit unsigned");
      slot.uints.push_back(unsigned(p));
    }
    *out_len = slot.uints.size();
    *out_dptr = slot.uints.data();
  });
}

XGB_DLL int XGDMatrixSetStrFeatureInfo(DMatrixHandle handle, const char* field,
                                       const char** features, const bst_ulong size) {
  return ApiCall("XGDMatrixSetStrFeatureInfo", [&] {
    auto m = Matrix(handle);
    const std::string name = NotNull(field, "field");
    auto* target = const_cast<std::vector<std::string>*>(StrField(m->data, name));
    if (size > 0) NotNull(features, "features");
    const std::uint64_t cols = ColsOf(*m);
    if (size != 0 && size != cols && !(m->is_proxy && cols == 0)) {
      throw ApiError(name + ": " + std::to_string(size) + " names for " + std::to_string(cols) +
                     " columns");
    }
    std::vector<std::string> values;
    values.reserve(size);
    for (bst_ulong i = 0; i < size; ++i) {
      if (features[i] == nullptr) throw ApiError("features[" + std::to_string(i) + "] is null");
      values.emplace_back(features[i]);
      if (name == "feature_type") {
        const std::string& t = values.back();
        if (t != "q" && t != "c" && t != "int" && t != "float" && t != "i") {
          throw ApiError("feature_type: '" + t + "' at " + std::to_string(i) +
                         " (q, c, int, float or i)");
        }
      }
    }
    *target = std::move(values);
    ++m->version;
  });
}

XGB_DLL int XGDMatrixGetStrFeatureInfo(DMatrixHandle handle, const char* field, bst_ulong* size,
                                       const char*** out_features) {
  return ApiCall("XGDMatrixGetStrFeatureInfo", [&] {
    auto m = Matrix(handle);
    const std::string name = NotNull(field, "field");
    NotNull(size, "size");
    NotNull(out_features, "out_features");
    capi::ReturnSlot& slot = m->returns.ForThisThread();
    slot.strings = *StrField(m->data, name);
    *size = slot.strings.size();
    *out_features = slot.PointStrings();
  });
}
