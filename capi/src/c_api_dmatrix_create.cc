// DMatrix creation from files, raw arrays and array interfaces (docs/c-api.md, "DMatrix").
#include <cmath>
#include <cstdio>
#include <string>

#include "api_error.h"
#include "data/load.h"
#include "data/query_group_shards.h"
#include "data/survival_bounds.h"
#include "dmatrix_build.h"
#include "global_config.h"
#include "rabit/rabit.h"
#include "treering/c_api.h"

using treering::capi::ApiCall;
using treering::capi::ApiError;
using treering::capi::NotNull;
using treering::capi::ValueOrThrow;
namespace capi = treering::capi;
namespace data = treering::data;

namespace {

// The load the CLI does for `data = URI`: this rank's part in a distributed job, then the
// query groups (qid:N or FILE.group), so a model trained through the C API equals the CLI's.
data::DMatrix LoadFile(const std::string& uri) {
  if (uri.find('#') != std::string::npos) {
    throw ApiError("fname: '" + uri +
                   "': '#cacheprefix' asks for external memory, which is not supported through "
                   "this call; load the file without the suffix");
  }
  const bool sharded = rabit::IsDistributed();
  data::LoadOptions options;
  if (sharded) {
    options.part = rabit::GetRank();
    options.nparts = rabit::GetWorldSize();
  }
  data::DMatrix m = ValueOrThrow(data::Load(uri, options));
  capi::ThrowIfError(data::AttachQueryGroups("fname", uri, sharded, rabit::DefaultComm(), &m));
  capi::ThrowIfError(data::AttachSurvivalBounds("fname", uri, sharded, rabit::DefaultComm(), &m));
  return m;
}

float MissingOf(const char* config) {
  auto parsed = ValueOrThrow(capi::ParseConfig(config, "config"));
  return ValueOrThrow(capi::RequiredMissing(parsed));
}

void CreateFromMat(const float* data, bst_ulong nrow, bst_ulong ncol, float missing,
                   DMatrixHandle* out) {
  NotNull(out, "out");
  if (nrow > 0 && ncol > 0) NotNull(data, "data");
  capi::ArrayInterface a;
  a.data = reinterpret_cast<const std::uint8_t*>(data);
  a.rows = nrow;
  a.cols = ncol;
  a.dims = 2;
  if (ncol > 0 && nrow > std::uint64_t(INT64_MAX) / 4 / ncol)
    throw ApiError("nrow x ncol is too large");
  a.col_stride = 4;
  a.row_stride = std::int64_t(4 * ncol);
  *out = capi::NewDMatrixHandle(ValueOrThrow(capi::DenseToMatrix(a, missing, "data")));
}

}  // namespace

XGB_DLL int XGDMatrixCreateFromFile(const char* fname, int silent, DMatrixHandle* out) {
  return ApiCall("XGDMatrixCreateFromFile", [&] {
    NotNull(fname, "fname");
    NotNull(out, "out");
    data::DMatrix m = LoadFile(fname);
    if (silent == 0) {
      capi::Log(capi::kLogConsole, std::to_string(m.NumRows()) + "x" + std::to_string(m.num_col) +
                                       " matrix with " + std::to_string(m.NumNonZero()) +
                                       " entries loaded from " + fname);
    }
    *out = capi::NewDMatrixHandle(std::move(m));
  });
}

XGB_DLL int XGDMatrixCreateFromCSREx(const size_t* indptr, const unsigned* indices,
                                     const float* data, size_t nindptr, size_t nelem,
                                     size_t num_col, DMatrixHandle* out) {
  return ApiCall("XGDMatrixCreateFromCSREx", [&] {
    NotNull(out, "out");
    NotNull(indptr, "indptr");
    if (nelem > 0) {
      NotNull(indices, "indices");
      NotNull(data, "data");
    }
    *out = capi::NewDMatrixHandle(
        ValueOrThrow(capi::RawCsrToMatrix(indptr, indices, data, nindptr, nelem, num_col)));
  });
}

XGB_DLL int XGDMatrixCreateFromCSR(char const* indptr, char const* indices, char const* data,
                                   bst_ulong ncol, char const* config, DMatrixHandle* out) {
  return ApiCall("XGDMatrixCreateFromCSR", [&] {
    NotNull(out, "out");
    auto p = ValueOrThrow(capi::ParseArrayInterface(NotNull(indptr, "indptr"), "indptr"));
    auto i = ValueOrThrow(capi::ParseArrayInterface(NotNull(indices, "indices"), "indices"));
    auto v = ValueOrThrow(capi::ParseArrayInterface(NotNull(data, "data"), "data"));
    const float missing = MissingOf(config);
    *out =
        capi::NewDMatrixHandle(ValueOrThrow(capi::CsrInterfacesToMatrix(p, i, v, ncol, missing)));
  });
}

XGB_DLL int XGDMatrixCreateFromDense(char const* data, char const* config, DMatrixHandle* out) {
  return ApiCall("XGDMatrixCreateFromDense", [&] {
    NotNull(out, "out");
    auto a = ValueOrThrow(capi::ParseArrayInterface(NotNull(data, "data"), "data"));
    const float missing = MissingOf(config);
    *out = capi::NewDMatrixHandle(ValueOrThrow(capi::DenseToMatrix(a, missing, "data")));
  });
}

XGB_DLL int XGDMatrixCreateFromCSCEx(const size_t* col_ptr, const unsigned* indices,
                                     const float* data, size_t nindptr, size_t nelem,
                                     size_t num_row, DMatrixHandle* out) {
  return ApiCall("XGDMatrixCreateFromCSCEx", [&] {
    NotNull(out, "out");
    NotNull(col_ptr, "col_ptr");
    if (nelem > 0) {
      NotNull(indices, "indices");
      NotNull(data, "data");
    }
    *out = capi::NewDMatrixHandle(
        ValueOrThrow(capi::CscToMatrix(col_ptr, indices, data, nindptr, nelem, num_row)));
  });
}

XGB_DLL int XGDMatrixCreateFromMat(const float* data, bst_ulong nrow, bst_ulong ncol, float missing,
                                   DMatrixHandle* out) {
  return ApiCall("XGDMatrixCreateFromMat", [&] { CreateFromMat(data, nrow, ncol, missing, out); });
}

XGB_DLL int XGDMatrixCreateFromMat_omp(const float* data, bst_ulong nrow, bst_ulong ncol,
                                       float missing, DMatrixHandle* out, int /*nthread*/) {
  return ApiCall("XGDMatrixCreateFromMat_omp",
                 [&] { CreateFromMat(data, nrow, ncol, missing, out); });
}

XGB_DLL int XGDMatrixCreateFromDT(void** /*data*/, const char** /*feature_stypes*/,
                                  bst_ulong /*nrow*/, bst_ulong /*ncol*/, DMatrixHandle* /*out*/,
                                  int /*nthread*/) {
  return ApiCall("XGDMatrixCreateFromDT", [&] {
    throw ApiError(
        "datatable frames are not supported; pass a dense array "
        "(XGDMatrixCreateFromDense)");
  });
}

XGB_DLL int XGDMatrixCreateFromCudaColumnar(char const* /*data*/, char const* /*config*/,
                                            DMatrixHandle* /*out*/) {
  return ApiCall("XGDMatrixCreateFromCudaColumnar", [&] {
    throw ApiError(
        "CUDA memory is not supported (treering has no GPU support); copy the "
        "columns to host memory and use XGDMatrixCreateFromDense");
  });
}

XGB_DLL int XGDMatrixCreateFromCudaArrayInterface(char const* /*data*/, char const* /*config*/,
                                                  DMatrixHandle* /*out*/) {
  return ApiCall("XGDMatrixCreateFromCudaArrayInterface", [&] {
    throw ApiError(
        "CUDA memory is not supported (treering has no GPU support); copy the "
        "array to host memory and use XGDMatrixCreateFromDense");
  });
}
