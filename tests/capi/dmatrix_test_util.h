// Helpers of the DMatrix C API tests: matrices read back through the C API only.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "treering/c_api.h"

namespace treering::capi_test {

// A returned error's message, for EXPECT_THAT-free substring checks.
inline std::string Error() { return XGBGetLastError(); }
inline bool Mentions(const std::string& text) {
  return std::string(XGBGetLastError()).find(text) != std::string::npos;
}

// What a matrix holds, through NumRow/NumCol/NumNonMissing and GetDataAsCSR.
struct Csr {
  bst_ulong rows = 0, cols = 0;
  std::vector<bst_ulong> indptr;
  std::vector<unsigned> indices;
  std::vector<float> values;
  bool operator==(const Csr&) const = default;
};

inline Csr Read(DMatrixHandle h) {
  Csr c;
  bst_ulong nnz = 0;
  EXPECT_EQ(XGDMatrixNumRow(h, &c.rows), 0) << XGBGetLastError();
  EXPECT_EQ(XGDMatrixNumCol(h, &c.cols), 0);
  EXPECT_EQ(XGDMatrixNumNonMissing(h, &nnz), 0);
  c.indptr.resize(c.rows + 1);
  c.indices.resize(nnz);
  c.values.resize(nnz);
  EXPECT_EQ(XGDMatrixGetDataAsCSR(h, "{}", c.indptr.data(), c.indices.data(), c.values.data()), 0)
      << XGBGetLastError();
  return c;
}

inline std::vector<float> FloatInfo(DMatrixHandle h, const char* field) {
  bst_ulong n = 0;
  const float* p = nullptr;
  EXPECT_EQ(XGDMatrixGetFloatInfo(h, field, &n, &p), 0) << XGBGetLastError();
  return std::vector<float>(p, p + n);
}

inline std::vector<unsigned> GroupPtr(DMatrixHandle h) {
  bst_ulong n = 0;
  const unsigned* p = nullptr;
  EXPECT_EQ(XGDMatrixGetUIntInfo(h, "group_ptr", &n, &p), 0) << XGBGetLastError();
  return std::vector<unsigned>(p, p + n);
}

// An array interface for `p` (the JSON the Python package sends).
inline std::string Interface(const void* p, const std::string& shape, const std::string& typestr,
                             const std::string& strides = "null") {
  return R"({"data": [)" + std::to_string(reinterpret_cast<std::uintptr_t>(p)) +
         R"(, false], "shape": )" + shape + R"(, "strides": )" + strides + R"(, "typestr": ")" +
         typestr + R"(", "version": 3})";
}

// Owns a handle for the length of a test.
class Matrix {
 public:
  Matrix() = default;
  explicit Matrix(DMatrixHandle h) : h_(h) {}
  ~Matrix() {
    if (h_ != nullptr) XGDMatrixFree(h_);
  }
  Matrix(const Matrix&) = delete;
  Matrix& operator=(const Matrix&) = delete;
  DMatrixHandle* out() { return &h_; }
  DMatrixHandle get() const { return h_; }

 private:
  DMatrixHandle h_ = nullptr;
};

// A 3 x 4 row-major matrix with NaN and 0.5 in it.
inline const std::vector<float>& Sample() {
  static const std::vector<float> v = {1, NAN, 0.5f, 2, 0, 3, NAN, NAN, 4, 0.5f, 5, 6};
  return v;
}

}  // namespace treering::capi_test
