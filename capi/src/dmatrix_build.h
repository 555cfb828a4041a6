// Building a data::DMatrix from what the C API receives: dense arrays (array interfaces or raw
// floats), CSR and CSC arrays. One rule for absent values everywhere, XGBoost 1.7's: NaN is
// always absent, so is every value equal to `missing`; an infinite value is an error unless
// `missing` itself is infinite (XGBoost: "Input data contains `inf`").
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "array_interface.h"
#include "base/status.h"
#include "data/dmatrix.h"
#include "dmatrix_object.h"
#include "json_reader.h"

namespace treering::capi {

// Reads a raw CSR's pieces: indptr (rows + 1 offsets), indices and values (nnz each).
struct CsrSource {
  std::uint64_t rows = 0;
  std::uint64_t nnz = 0;  // entries available in indices / values
  // Accessors (any element type); an out-of-range or negative entry is caught by the caller.
  virtual std::uint64_t Offset(std::uint64_t i) const = 0;
  virtual std::uint64_t Index(std::uint64_t i) const = 0;
  virtual float Value(std::uint64_t i) const = 0;
  virtual ~CsrSource() = default;
};

// A dense array's non-absent elements, row by row. `argument` names the C argument in errors.
Result<data::DMatrix> DenseToMatrix(const ArrayInterface& a, float missing, const char* argument);

// A CSR's non-absent entries; entries of a row are sorted by feature index (XGBoost takes any
// order) and a repeated index is an error. ncol 0 infers the columns (1 + largest index);
// otherwise it must cover every index.
Result<data::DMatrix> CsrToMatrix(const CsrSource& csr, std::uint64_t ncol, float missing,
                                  const char* argument);

// CSC arrays: column c's entries are col_ptr[c] .. col_ptr[c+1]; num_row 0 infers the rows.
Result<data::DMatrix> CscToMatrix(const std::size_t* col_ptr, const unsigned* row_index,
                                  const float* values, std::size_t nindptr, std::size_t nelem,
                                  std::size_t num_row);

// CSR from raw arrays (XGDMatrixCreateFromCSREx): NaN is the only absent value.
Result<data::DMatrix> RawCsrToMatrix(const std::size_t* indptr, const unsigned* indices,
                                     const float* values, std::size_t nindptr, std::size_t nelem,
                                     std::size_t num_col);

// CSR from three array interfaces (XGDMatrixCreateFromCSR, XGProxyDMatrixSetDataCSR).
Result<data::DMatrix> CsrInterfacesToMatrix(const ArrayInterface& indptr,
                                            const ArrayInterface& indices,
                                            const ArrayInterface& values, std::uint64_t ncol,
                                            float missing);

// The "missing" member of a creation config: XGBoost requires it ("Argument `missing` is
// required"); other keys (nthread, cache_prefix, ...) are the caller's.
Result<JsonValue> ParseConfig(const char* config, const char* function);
Result<float> RequiredMissing(const JsonValue& config);

// A new DMatrix handle that owns `matrix`.
void* NewDMatrixHandle(data::DMatrix matrix);
// The DMatrix behind `handle`; a proxy is refused for calls that need data of their own.
std::shared_ptr<DMatrixObject> GetDataMatrix(const void* handle, const char* argument);

}  // namespace treering::capi
