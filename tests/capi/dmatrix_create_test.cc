// DMatrix creation through the C API: every input form against a computed CSR, and every
// refusal with the argument it names.
#include <cmath>
#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include "dmatrix_test_util.h"
#include "temp_dir.h"

// On a branch without the library part, the message comes from the implementation directly;
// the library part's XGBGetLastError (a strong symbol) replaces this one when both are linked.
namespace treering::capi {
const char* LastError();
}
extern "C" __attribute__((weak)) const char* XGBGetLastError() {
  return treering::capi::LastError();
}

namespace treering::capi_test {
namespace {

// Sample() with NaN absent: rows {0:1, 2:0.5, 3:2}, {0:0, 1:3}, {0:4, 1:0.5, 2:5, 3:6}.
Csr SampleCsr() {
  return {3, 4, {0, 3, 5, 9}, {0, 2, 3, 0, 1, 0, 1, 2, 3}, {1, 0.5f, 2, 0, 3, 4, 0.5f, 5, 6}};
}

TEST(CreateFromMat, NaNAndMissingAreAbsent) {
  Matrix m;
  ASSERT_EQ(XGDMatrixCreateFromMat(Sample().data(), 3, 4, NAN, m.out()), 0) << Error();
  EXPECT_EQ(Read(m.get()), SampleCsr());
  Matrix m2;
  ASSERT_EQ(XGDMatrixCreateFromMat_omp(Sample().data(), 3, 4, 0.5f, m2.out(), 4), 0);
  Csr want = {3, 4, {0, 2, 4, 7}, {0, 3, 0, 1, 0, 2, 3}, {1, 2, 0, 3, 4, 5, 6}};
  EXPECT_EQ(Read(m2.get()), want);
}

TEST(CreateFromMat, InfinityIsAnErrorUnlessMissingIsInfinite) {
  std::vector<float> v = Sample();
  v[5] = INFINITY;
  Matrix m;
  EXPECT_EQ(XGDMatrixCreateFromMat(v.data(), 3, 4, NAN, m.out()), -1);
  EXPECT_TRUE(Mentions("row 1, column 1: infinite value")) << Error();
  Matrix ok;
  ASSERT_EQ(XGDMatrixCreateFromMat(v.data(), 3, 4, INFINITY, ok.out()), 0);
  EXPECT_EQ(Read(ok.get()).values.size(), 8u);  // the inf is absent
  EXPECT_EQ(XGDMatrixCreateFromMat(nullptr, 3, 4, NAN, m.out()), -1);
  EXPECT_TRUE(Mentions("data is null"));
  EXPECT_EQ(XGDMatrixCreateFromMat(v.data(), 3, 4, NAN, nullptr), -1);
  EXPECT_TRUE(Mentions("out is null"));
}

TEST(CreateFromDense, ReadsEveryTypeAndLayout) {
  Matrix f4;
  ASSERT_EQ(XGDMatrixCreateFromDense(Interface(Sample().data(), "[3, 4]", "<f4").c_str(),
                                     R"({"missing": NaN, "nthread": 2})", f4.out()),
            0)
      << Error();
  EXPECT_EQ(Read(f4.get()), SampleCsr());
  // The same matrix in Fortran order as float64.
  std::vector<double> fortran(12);
  for (int r = 0; r < 3; ++r)
    for (int c = 0; c < 4; ++c) fortran[c * 3 + r] = Sample()[r * 4 + c];
  Matrix f8;
  ASSERT_EQ(XGDMatrixCreateFromDense(Interface(fortran.data(), "[3, 4]", "<f8", "[8, 24]").c_str(),
                                     R"({"missing": NaN})", f8.out()),
            0)
      << Error();
  EXPECT_EQ(Read(f8.get()), SampleCsr());
  // Integers: `missing` 0 drops the zeros; the column count stays the shape's.
  const std::int16_t ints[6] = {0, -2, 0, 7, 0, 0};
  Matrix i2;
  ASSERT_EQ(XGDMatrixCreateFromDense(Interface(ints, "[2, 3]", "<i2").c_str(), R"({"missing": 0})",
                                     i2.out()),
            0);
  Csr want = {2, 3, {0, 1, 2}, {1, 0}, {-2, 7}};
  EXPECT_EQ(Read(i2.get()), want);
}

TEST(CreateFromDense, RefusesBadConfigsAndArrays) {
  const std::string data = Interface(Sample().data(), "[3, 4]", "<f4");
  Matrix m;
  EXPECT_EQ(XGDMatrixCreateFromDense(data.c_str(), "{}", m.out()), -1);
  EXPECT_TRUE(Mentions("config: missing: required")) << Error();
  EXPECT_EQ(XGDMatrixCreateFromDense(data.c_str(), R"({"missing": "x"})", m.out()), -1);
  EXPECT_TRUE(Mentions("config: missing: expected a number")) << Error();
  EXPECT_EQ(XGDMatrixCreateFromDense(data.c_str(), R"({"missing": NaN)", m.out()), -1);
  EXPECT_TRUE(Mentions("at byte 15")) << Error();
  EXPECT_EQ(XGDMatrixCreateFromDense(data.c_str(), nullptr, m.out()), -1);
  EXPECT_TRUE(Mentions("config is null"));
  EXPECT_EQ(XGDMatrixCreateFromDense(nullptr, "{}", m.out()), -1);
  EXPECT_TRUE(Mentions("data is null"));
  EXPECT_EQ(XGDMatrixCreateFromDense(Interface(Sample().data(), "[3, 4]", ">f4").c_str(),
                                     R"({"missing": NaN})", m.out()),
            -1);
  EXPECT_TRUE(Mentions("data: array interface: typestr '>f4': big-endian")) << Error();
  EXPECT_EQ(XGDMatrixCreateFromDense(Interface(nullptr, "[3, 4]", "<f4").c_str(),
                                     R"({"missing": NaN})", m.out()),
            -1);
  EXPECT_TRUE(Mentions("null data address"));
  EXPECT_EQ(XGDMatrixCreateFromDense(Interface(Sample().data(), "[3, -4]", "<f4").c_str(),
                                     R"({"missing": NaN})", m.out()),
            -1);
  EXPECT_TRUE(Mentions("non-negative"));
}

TEST(CreateFromCsr, SortsRowsAndInfersOrChecksColumns) {
  const std::size_t indptr[] = {0, 3, 3, 5};
  const unsigned indices[] = {4, 0, 2, 1, 3};
  const float values[] = {1, NAN, 2, 3, 4};
  Csr want = {3, 5, {0, 2, 2, 4}, {2, 4, 1, 3}, {2, 1, 3, 4}};
  Matrix inferred;
  ASSERT_EQ(XGDMatrixCreateFromCSREx(indptr, indices, values, 4, 5, 0, inferred.out()), 0)
      << Error();
  EXPECT_EQ(Read(inferred.get()), want);
  Matrix wide;
  ASSERT_EQ(XGDMatrixCreateFromCSREx(indptr, indices, values, 4, 5, 9, wide.out()), 0);
  EXPECT_EQ(Read(wide.get()).cols, 9u);
  Matrix m;
  EXPECT_EQ(XGDMatrixCreateFromCSREx(indptr, indices, values, 4, 5, 3, m.out()), -1);
  EXPECT_TRUE(Mentions("ncol is 3 but a feature index needs 5 columns")) << Error();
  // The same through array interfaces, with other element types and missing = 3.
  const std::int64_t p64[] = {0, 3, 3, 5};
  const std::int32_t i32[] = {4, 0, 2, 1, 3};
  const double f8[] = {1, NAN, 2, 3, 4};
  Matrix iface;
  ASSERT_EQ(XGDMatrixCreateFromCSR(
                Interface(p64, "[4]", "<i8").c_str(), Interface(i32, "[5]", "<i4").c_str(),
                Interface(f8, "[5]", "<f8").c_str(), 5, R"({"missing": 3})", iface.out()),
            0)
      << Error();
  Csr want3 = {3, 5, {0, 2, 2, 3}, {2, 4, 3}, {2, 1, 4}};
  EXPECT_EQ(Read(iface.get()), want3);
}

TEST(CreateFromCsr, RefusesBrokenLayouts) {
  const std::size_t down[] = {0, 3, 2, 5};
  const std::size_t past[] = {0, 3, 3, 6};
  const unsigned indices[] = {4, 0, 2, 1, 3};
  const unsigned twice[] = {4, 4, 2, 1, 3};
  const float values[] = {1, 2, 3, 4, 5};
  Matrix m;
  EXPECT_EQ(XGDMatrixCreateFromCSREx(down, indices, values, 4, 5, 0, m.out()), -1);
  EXPECT_TRUE(Mentions("indptr: entry 2 (2) is below the previous one")) << Error();
  EXPECT_EQ(XGDMatrixCreateFromCSREx(past, indices, values, 4, 5, 0, m.out()), -1);
  EXPECT_TRUE(Mentions("past 5 entries")) << Error();
  EXPECT_EQ(XGDMatrixCreateFromCSREx(down, twice, values, 4, 5, 0, m.out()), -1);
  EXPECT_EQ(XGDMatrixCreateFromCSREx(past, twice, values, 3, 5, 0, m.out()), -1);
  EXPECT_TRUE(Mentions("row 0 has feature 4 twice")) << Error();
  EXPECT_EQ(XGDMatrixCreateFromCSREx(past, indices, values, 0, 5, 0, m.out()), -1);
  EXPECT_TRUE(Mentions("nindptr is 0"));
  const unsigned huge[] = {0xFFFFFFFFu, 0, 2, 1, 3};
  EXPECT_EQ(XGDMatrixCreateFromCSREx(past, huge, values, 2, 5, 0, m.out()), -1);
  EXPECT_TRUE(Mentions("out of range")) << Error();
  const std::int64_t negative[] = {0, -1};
  EXPECT_EQ(XGDMatrixCreateFromCSR(
                Interface(negative, "[2]", "<i8").c_str(), Interface(indices, "[5]", "<u4").c_str(),
                Interface(values, "[5]", "<f4").c_str(), 0, R"({"missing": NaN})", m.out()),
            -1);
  EXPECT_EQ(XGDMatrixCreateFromCSR(
                Interface(past, "[4]", "<u8").c_str(), Interface(indices, "[4]", "<u4").c_str(),
                Interface(values, "[5]", "<f4").c_str(), 0, R"({"missing": NaN})", m.out()),
            -1);
  EXPECT_TRUE(Mentions("indices has 4 entries, data 5")) << Error();
}

TEST(CreateFromCsc, TransposesAndInfersRows) {
  const std::size_t col_ptr[] = {0, 2, 2, 4};
  const unsigned rows[] = {3, 0, 0, 3};
  const float values[] = {1, 2, NAN, 4};
  Matrix m;
  ASSERT_EQ(XGDMatrixCreateFromCSCEx(col_ptr, rows, values, 4, 4, 0, m.out()), 0) << Error();
  Csr want = {4, 3, {0, 1, 1, 1, 3}, {0, 0, 2}, {2, 1, 4}};
  EXPECT_EQ(Read(m.get()), want);
  Matrix tall;
  ASSERT_EQ(XGDMatrixCreateFromCSCEx(col_ptr, rows, values, 4, 4, 6, tall.out()), 0);
  EXPECT_EQ(Read(tall.get()).rows, 6u);
  Matrix bad;
  EXPECT_EQ(XGDMatrixCreateFromCSCEx(col_ptr, rows, values, 4, 4, 2, bad.out()), -1);
  EXPECT_TRUE(Mentions("num_row is 2 but a row index needs 4")) << Error();
  const unsigned dup[] = {3, 3, 0, 3};
  EXPECT_EQ(XGDMatrixCreateFromCSCEx(col_ptr, dup, values, 4, 4, 0, bad.out()), -1);
  EXPECT_TRUE(Mentions("row 3 appears twice in column 0")) << Error();
}

TEST(CreateFromFile, LoadsLibsvmAndRefusesExternalMemory) {
  testing::TempDir dir;
  const std::string file = dir.Write("a.libsvm", "1 0:1 3:2\n0 1:-1\n1 qid:2 2:4\n");
  Matrix m;
  ASSERT_EQ(XGDMatrixCreateFromFile((file + "?format=libsvm").c_str(), 1, m.out()), 0) << Error();
  Csr want = {3, 4, {0, 2, 3, 4}, {0, 3, 1, 2}, {1, 2, -1, 4}};
  EXPECT_EQ(Read(m.get()), want);
  EXPECT_EQ(FloatInfo(m.get(), "label"), (std::vector<float>{1, 0, 1}));
  Matrix cache;
  EXPECT_EQ(XGDMatrixCreateFromFile((file + "#cache").c_str(), 1, cache.out()), -1);
  EXPECT_TRUE(Mentions("external memory, which is not supported through this call")) << Error();
  EXPECT_EQ(XGDMatrixCreateFromFile(dir.Path("none.libsvm").c_str(), 1, cache.out()), -1);
  EXPECT_TRUE(Mentions("none.libsvm")) << Error();
  EXPECT_EQ(XGDMatrixCreateFromFile(nullptr, 1, cache.out()), -1);
  EXPECT_TRUE(Mentions("fname is null"));
}

TEST(CreateFromFile, SilentDecidesWhetherTheLoadIsReported) {
  testing::TempDir dir;
  const std::string file = dir.Write("a.libsvm", "1 0:1 3:2\n");
  ::testing::internal::CaptureStderr();
  Matrix quiet;
  ASSERT_EQ(XGDMatrixCreateFromFile(file.c_str(), 1, quiet.out()), 0);
  EXPECT_EQ(::testing::internal::GetCapturedStderr(), "");
  ::testing::internal::CaptureStderr();
  Matrix loud;
  ASSERT_EQ(XGDMatrixCreateFromFile(file.c_str(), 0, loud.out()), 0);
  EXPECT_EQ(::testing::internal::GetCapturedStderr(),
            "1x4 matrix with 2 entries loaded from " + file + "\n");
}

TEST(Refusals, UnsupportedSourcesSaySo) {
  DMatrixHandle out = nullptr;
  EXPECT_EQ(XGDMatrixCreateFromDT(nullptr, nullptr, 0, 0, &out, 1), -1);
  EXPECT_TRUE(Mentions("datatable frames are not supported"));
  EXPECT_EQ(XGDMatrixCreateFromCudaColumnar("{}", "{}", &out), -1);
  EXPECT_TRUE(Mentions("CUDA memory is not supported"));
  EXPECT_EQ(XGDMatrixCreateFromCudaArrayInterface("{}", "{}", &out), -1);
  EXPECT_TRUE(Mentions("CUDA memory is not supported"));
  EXPECT_EQ(XGDeviceQuantileDMatrixCreateFromCallback(nullptr, nullptr, nullptr, nullptr, NAN, 1,
                                                      256, &out),
            -1);
  EXPECT_TRUE(Mentions("XGQuantileDMatrixCreateFromCallback"));
  EXPECT_EQ(XGProxyDMatrixSetDataCudaArrayInterface(nullptr, "{}"), -1);
  EXPECT_EQ(XGProxyDMatrixSetDataCudaColumnar(nullptr, "{}"), -1);
  EXPECT_EQ(XGImportArrowRecordBatch(nullptr, nullptr, nullptr), -1);
  EXPECT_TRUE(Mentions("Arrow record batches are not supported"));
  EXPECT_EQ(XGDMatrixCreateFromArrowCallback(nullptr, "{}", &out), -1);
  EXPECT_EQ(out, nullptr);
}

TEST(Handles, FreedMadeUpAndNullHandlesAreErrors) {
  Matrix m;
  ASSERT_EQ(XGDMatrixCreateFromMat(Sample().data(), 3, 4, NAN, m.out()), 0);
  DMatrixHandle h = m.get();
  ASSERT_EQ(XGDMatrixFree(h), 0);
  bst_ulong n = 0;
  EXPECT_EQ(XGDMatrixNumRow(h, &n), -1);
  EXPECT_TRUE(Mentions("XGDMatrixNumRow: handle")) << Error();
  EXPECT_EQ(XGDMatrixFree(h), -1);
  *m.out() = nullptr;
  EXPECT_EQ(XGDMatrixNumCol(nullptr, &n), -1);
  EXPECT_TRUE(Mentions("handle")) << Error();
  EXPECT_EQ(XGDMatrixNumNonMissing(reinterpret_cast<DMatrixHandle>(0xdeadbeef), &n), -1);
  const float label[3] = {1, 2, 3};
  EXPECT_EQ(XGDMatrixSetFloatInfo(reinterpret_cast<DMatrixHandle>(0x1234), "label", label, 3), -1);
  // A proxy is not a data set.
  Matrix proxy;
  ASSERT_EQ(XGProxyDMatrixCreate(proxy.out()), 0);
  EXPECT_EQ(XGDMatrixNumRow(proxy.get(), &n), -1);
  EXPECT_TRUE(Mentions("a proxy DMatrix")) << Error();
  Matrix data;
  ASSERT_EQ(XGDMatrixCreateFromMat(Sample().data(), 3, 4, NAN, data.out()), 0);
  EXPECT_EQ(XGProxyDMatrixSetDataDense(data.get(), "{}"), -1);
  EXPECT_TRUE(Mentions("not a proxy DMatrix")) << Error();
}

}  // namespace
}  // namespace treering::capi_test
