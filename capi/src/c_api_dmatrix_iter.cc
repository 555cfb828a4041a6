// DMatrix from the caller's batches: the proxy that a `next` callback fills (XGBoost's
// DataIter protocol, what its Python package uses for QuantileDMatrix and iterators) and the
// legacy XGBoostBatchCSR iterator. Batches are concatenated into one in-memory DMatrix, meta
// information included; external memory (a cache prefix) is refused.
#include <cmath>
#include <string>
#include <utility>

#include "api_error.h"
#include "dmatrix_build.h"
#include "handle_table.h"
#include "treering/c_api.h"

using treering::capi::ApiCall;
using treering::capi::ApiError;
using treering::capi::DMatrixObject;
using treering::capi::NotNull;
using treering::capi::ValueOrThrow;
namespace capi = treering::capi;
namespace data = treering::data;

namespace {

// Rows of a per-row field are concatenated; a field present in some batches only is an error
// (its rows in the other batches would have no value).
void AppendRows(std::vector<float>* all, const std::vector<float>& batch, bool first,
                std::size_t batch_index, const char* field, std::size_t rows) {
  // Set before the batch's data (an unsized proxy takes any length): checked here.
  if (!batch.empty() && batch.size() != rows) {
    throw ApiError(std::string(field) + ": batch " + std::to_string(batch_index) + " has " +
                   std::to_string(batch.size()) + " values for " + std::to_string(rows) + " rows");
  }
  if (!first && all->empty() != batch.empty()) {
    throw ApiError(std::string(field) + ": set in some batches but not in batch " +
                   std::to_string(batch_index));
  }
  all->insert(all->end(), batch.begin(), batch.end());
}

void Append(data::DMatrix* all, data::DMatrix&& b, std::size_t batch_index) {
  const bool first = batch_index == 0;
  const std::uint64_t row_base = all->NumRows();
  const std::uint64_t nnz_base = all->index.size();
  for (std::size_t r = 1; r < b.row_ptr.size(); ++r)
    all->row_ptr.push_back(nnz_base + b.row_ptr[r]);
  all->index.insert(all->index.end(), b.index.begin(), b.index.end());
  all->value.insert(all->value.end(), b.value.begin(), b.value.end());
  all->num_col = std::max(all->num_col, b.num_col);
  if (!first && !b.label.empty() && b.label_columns != all->label_columns) {
    throw ApiError("label: batch " + std::to_string(batch_index) + " has " +
                   std::to_string(b.label_columns) + " columns, batch 0 " +
                   std::to_string(all->label_columns));
  }
  if (first) all->label_columns = b.label_columns;
  AppendRows(&all->label, b.label, first, batch_index, "label", b.NumRows() * b.label_columns);
  AppendRows(&all->weight, b.weight, first, batch_index, "weight", b.NumRows());
  if (!first && !all->base_margin.empty() && !b.base_margin.empty() &&
      all->base_margin.size() / row_base !=
          b.base_margin.size() / std::max<std::size_t>(1, b.NumRows())) {
    throw ApiError("base_margin: batch " + std::to_string(batch_index) +
                   " has another number of output groups");
  }
  if (!b.base_margin.empty() && (b.NumRows() == 0 || b.base_margin.size() % b.NumRows() != 0)) {
    throw ApiError("base_margin: batch " + std::to_string(batch_index) + " has " +
                   std::to_string(b.base_margin.size()) + " values, not a multiple of its " +
                   std::to_string(b.NumRows()) + " rows");
  }
  AppendRows(&all->base_margin, b.base_margin, first, batch_index, "base_margin",
             b.base_margin.size());
  AppendRows(&all->label_lower_bound, b.label_lower_bound, first, batch_index, "label_lower_bound",
             b.NumRows());
  AppendRows(&all->label_upper_bound, b.label_upper_bound, first, batch_index, "label_upper_bound",
             b.NumRows());
  if ((!b.group_ptr.empty() && b.group_ptr.back() != b.NumRows()) ||
      (!b.qid.empty() && b.qid.size() != b.NumRows())) {
    throw ApiError("group: batch " + std::to_string(batch_index) +
                   "'s query groups do not cover its " + std::to_string(b.NumRows()) + " rows");
  }
  if (!first && all->group_ptr.empty() != b.group_ptr.empty()) {
    throw ApiError("group: set in some batches but not in batch " + std::to_string(batch_index));
  }
  for (std::size_t g = 0; g < b.group_ptr.size(); ++g) {
    if (g == 0 && !all->group_ptr.empty()) continue;  // equals the previous batch's end
    all->group_ptr.push_back(row_base + b.group_ptr[g]);
  }
  all->qid.insert(all->qid.end(), b.qid.begin(), b.qid.end());
  if (!b.feature_weights.empty()) all->feature_weights = std::move(b.feature_weights);
  if (!b.feature_names.empty()) all->feature_names = std::move(b.feature_names);
  if (!b.feature_types.empty()) all->feature_types = std::move(b.feature_types);
}

// The proxy's current batch as a DMatrix with the meta information set for it; the proxy is
// left empty for the next batch (XGBoost moves the proxy's info out the same way).
data::DMatrix TakeBatch(DMatrixObject& proxy, float missing) {
  capi::ProxyBatch& b = proxy.batch;
  data::DMatrix m;
  switch (b.kind) {
    case capi::ProxyBatch::Kind::kDense:
      m = ValueOrThrow(capi::DenseToMatrix(b.dense, missing, "proxy data"));
      break;
    case capi::ProxyBatch::Kind::kCsr:
      m = ValueOrThrow(
          capi::CsrInterfacesToMatrix(b.indptr, b.indices, b.values, b.num_col, missing));
      break;
    default:
      throw ApiError("proxy: `next` returned 1 without setting data on the proxy");
  }
  data::DMatrix& info = proxy.data;
  m.label = std::move(info.label);
  m.label_columns = info.label_columns;
  m.weight = std::move(info.weight);
  m.base_margin = std::move(info.base_margin);
  m.label_lower_bound = std::move(info.label_lower_bound);
  m.label_upper_bound = std::move(info.label_upper_bound);
  m.group_ptr = std::move(info.group_ptr);
  m.qid = std::move(info.qid);
  m.feature_weights = std::move(info.feature_weights);
  m.feature_names = std::move(info.feature_names);
  m.feature_types = std::move(info.feature_types);
  if (!m.feature_names.empty() && m.feature_names.size() > m.num_col)
    m.num_col = m.feature_names.size();
  info = data::DMatrix();
  b = capi::ProxyBatch();
  ++proxy.version;
  return m;
}

std::shared_ptr<DMatrixObject> GetProxy(const void* handle, const char* argument) {
  auto m = capi::GetHandle<DMatrixObject>(handle, argument);
  if (!m->is_proxy) {
    throw ApiError(std::string(argument) +
                   ": not a proxy DMatrix (create it with "
                   "XGProxyDMatrixCreate)");
  }
  return m;
}

// Runs the iterator from its start and concatenates its batches.
data::DMatrix Collect(DataIterHandle iter, DMatrixObject& proxy, DataIterResetCallback* reset,
                      XGDMatrixCallbackNext* next, float missing) {
  data::DMatrix all;
  reset(iter);
  std::size_t n = 0;
  while (next(iter) != 0) Append(&all, TakeBatch(proxy, missing), n++);
  reset(iter);  // leave it ready for another pass, as XGBoost does
  return all;
}

struct IterConfig {
  float missing = NAN;
  std::int64_t max_bin = 256;
};

IterConfig ReadIterConfig(const char* config, bool quantile) {
  auto json = ValueOrThrow(capi::ParseConfig(config, "config"));
  IterConfig c;
  c.missing = ValueOrThrow(capi::RequiredMissing(json));
  std::string cache;
  capi::ThrowIfError(capi::ReadString(json, "cache_prefix", "config", &cache));
  if (!cache.empty()) {
    throw ApiError(
        "config: cache_prefix: external memory is not supported; batches are "
        "concatenated in memory (leave cache_prefix empty)");
  }
  if (quantile) {
    capi::ThrowIfError(capi::ReadInt(json, "max_bin", "config", &c.max_bin));
    if (c.max_bin < 2 || c.max_bin > 65536) {
      throw ApiError("config: max_bin: " + std::to_string(c.max_bin) + " (must be 2 .. 65536)");
    }
  }
  return c;
}

// The legacy iterator's batches, with offsets relative to the batch's first offset.
class BatchCsr final : public capi::CsrSource {
 public:
  explicit BatchCsr(const XGBoostBatchCSR& b) : b_(b) {}
  std::uint64_t Offset(std::uint64_t i) const override {
    const std::int64_t d = b_.offset[i] - b_.offset[0];
    return d < 0 ? ~std::uint64_t{0} : std::uint64_t(d);
  }
  std::uint64_t Index(std::uint64_t i) const override {
    return b_.index[i] < 0 ? ~std::uint64_t{0} : std::uint64_t(b_.index[i]);
  }
  float Value(std::uint64_t i) const override { return b_.value[i]; }

 private:
  const XGBoostBatchCSR& b_;
};

struct LegacyHolder {
  data::DMatrix all;
  std::size_t batches = 0;
};

int SetLegacyBatch(DataHolderHandle handle, XGBoostBatchCSR batch) {
  return ApiCall("XGBCallbackSetData", [&] {
    auto* holder = static_cast<LegacyHolder*>(NotNull(handle, "handle"));
    if (batch.size > 0) NotNull(batch.offset, "batch.offset");
    const std::int64_t nnz = batch.size > 0 ? batch.offset[batch.size] - batch.offset[0] : 0;
    if (nnz < 0) throw ApiError("batch.offset: decreasing offsets");
    if (nnz > 0) {
      NotNull(batch.index, "batch.index");
      NotNull(batch.value, "batch.value");
    }
    BatchCsr csr(batch);
    csr.rows = batch.size;
    csr.nnz = std::uint64_t(nnz);
    data::DMatrix m = ValueOrThrow(capi::CsrToMatrix(csr, 0, NAN, "batch"));
    m.num_col = std::max<std::uint64_t>(m.num_col, batch.columns);
    if (batch.label != nullptr) m.label.assign(batch.label, batch.label + batch.size);
    if (batch.weight != nullptr) m.weight.assign(batch.weight, batch.weight + batch.size);
    Append(&holder->all, std::move(m), holder->batches++);
  });
}

}  // namespace

XGB_DLL int XGProxyDMatrixCreate(DMatrixHandle* out) {
  return ApiCall("XGProxyDMatrixCreate", [&] {
    NotNull(out, "out");
    auto object = std::make_shared<DMatrixObject>();
    object->is_proxy = true;
    *out = capi::AddHandle(std::move(object));
  });
}

XGB_DLL int XGProxyDMatrixSetDataDense(DMatrixHandle handle, char const* c_interface_str) {
  return ApiCall("XGProxyDMatrixSetDataDense", [&] {
    auto proxy = GetProxy(handle, "handle");
    auto a = ValueOrThrow(
        capi::ParseArrayInterface(NotNull(c_interface_str, "c_interface_str"), "c_interface_str"));
    proxy->batch = capi::ProxyBatch();
    proxy->batch.kind = capi::ProxyBatch::Kind::kDense;
    proxy->batch.dense = a;
    ++proxy->version;
  });
}

XGB_DLL int XGProxyDMatrixSetDataCSR(DMatrixHandle handle, char const* indptr, char const* indices,
                                     char const* data, bst_ulong ncol) {
  return ApiCall("XGProxyDMatrixSetDataCSR", [&] {
    auto proxy = GetProxy(handle, "handle");
    capi::ProxyBatch b;
    b.kind = capi::ProxyBatch::Kind::kCsr;
    b.indptr = ValueOrThrow(capi::ParseArrayInterface(NotNull(indptr, "indptr"), "indptr"));
    b.indices = ValueOrThrow(capi::ParseArrayInterface(NotNull(indices, "indices"), "indices"));
    b.values = ValueOrThrow(capi::ParseArrayInterface(NotNull(data, "data"), "data"));
    if (b.indptr.rows == 0) throw ApiError("indptr: empty (must be rows + 1 offsets)");
    if (b.indices.rows * b.indices.cols != b.values.rows * b.values.cols) {
      throw ApiError("indices and data have different lengths");
    }
    b.num_col = ncol;
    proxy->batch = b;
    ++proxy->version;
  });
}

XGB_DLL int XGProxyDMatrixSetDataCudaArrayInterface(DMatrixHandle, const char*) {
  return ApiCall("XGProxyDMatrixSetDataCudaArrayInterface", [&] {
    throw ApiError(
        "CUDA memory is not supported (treering has no GPU support); use "
        "XGProxyDMatrixSetDataDense with host memory");
  });
}

XGB_DLL int XGProxyDMatrixSetDataCudaColumnar(DMatrixHandle, const char*) {
  return ApiCall("XGProxyDMatrixSetDataCudaColumnar", [&] {
    throw ApiError(
        "CUDA memory is not supported (treering has no GPU support); use "
        "XGProxyDMatrixSetDataDense with host memory");
  });
}

XGB_DLL int XGDMatrixCreateFromCallback(DataIterHandle iter, DMatrixHandle proxy,
                                        DataIterResetCallback* reset, XGDMatrixCallbackNext* next,
                                        char const* config, DMatrixHandle* out) {
  return ApiCall("XGDMatrixCreateFromCallback", [&] {
    NotNull(out, "out");
    NotNull(reset, "reset");
    NotNull(next, "next");
    auto p = GetProxy(proxy, "proxy");
    const IterConfig c = ReadIterConfig(config, false);
    *out = capi::NewDMatrixHandle(Collect(iter, *p, reset, next, c.missing));
  });
}

XGB_DLL int XGQuantileDMatrixCreateFromCallback(DataIterHandle iter, DMatrixHandle proxy,
                                                DataIterHandle ref, DataIterResetCallback* reset,
                                                XGDMatrixCallbackNext* next, char const* config,
                                                DMatrixHandle* out) {
  return ApiCall("XGQuantileDMatrixCreateFromCallback", [&] {
    NotNull(out, "out");
    NotNull(reset, "reset");
    NotNull(next, "next");
    auto p = GetProxy(proxy, "proxy");
    IterConfig c = ReadIterConfig(config, true);
    // A reference matrix lends its bins (XGBoost reuses its cuts): its max_bin wins.
    if (ref != nullptr) {
      auto r = capi::GetDataMatrix(ref, "ref");
      if (r->max_bin > 0) c.max_bin = r->max_bin;
    }
    auto object = std::make_shared<DMatrixObject>();
    object->data = Collect(iter, *p, reset, next, c.missing);
    object->max_bin = int(c.max_bin);
    *out = capi::AddHandle(std::move(object));
  });
}

XGB_DLL int XGDeviceQuantileDMatrixCreateFromCallback(DataIterHandle, DMatrixHandle,
                                                      DataIterResetCallback*,
                                                      XGDMatrixCallbackNext*, float, int, int,
                                                      DMatrixHandle*) {
  return ApiCall("XGDeviceQuantileDMatrixCreateFromCallback", [&] {
    throw ApiError(
        "CUDA memory is not supported (treering has no GPU support); use "
        "XGQuantileDMatrixCreateFromCallback");
  });
}

XGB_DLL int XGDMatrixCreateFromDataIter(DataIterHandle data_handle,
                                        XGBCallbackDataIterNext* callback, const char* cache_info,
                                        DMatrixHandle* out) {
  return ApiCall("XGDMatrixCreateFromDataIter", [&] {
    NotNull(out, "out");
    NotNull(callback, "callback");
    if (cache_info != nullptr && cache_info[0] != '\0') {
      throw ApiError("cache_info: external memory is not supported; pass null");
    }
    LegacyHolder holder;
    while (true) {
      const std::size_t before = holder.batches;
      const int more = callback(data_handle, SetLegacyBatch, &holder);
      // The batch setter reports its own errors through XGBGetLastError; surface them here.
      if (holder.batches == before && more != 0) {
        throw ApiError(std::string("a batch was refused: ") + capi::LastError());
      }
      if (more == 0) break;
    }
    *out = capi::NewDMatrixHandle(std::move(holder.all));
  });
}

XGB_DLL int XGImportArrowRecordBatch(DataIterHandle, void*, void*) {
  return ApiCall("XGImportArrowRecordBatch", [&] {
    throw ApiError("Arrow record batches are not supported; pass dense or CSR arrays");
  });
}

XGB_DLL int XGDMatrixCreateFromArrowCallback(XGDMatrixCallbackNext*, char const*, DMatrixHandle*) {
  return ApiCall("XGDMatrixCreateFromArrowCallback", [&] {
    throw ApiError("Arrow record batches are not supported; pass dense or CSR arrays");
  });
}
