// DMatrix meta information, iterators, slices and LibSVM output through the C API, each
// checked against a computed expectation, with the refusals and the argument they name.
#include <cmath>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "dmatrix_test_util.h"
#include "temp_dir.h"

namespace treering::capi_test {
namespace {

class Info : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_EQ(XGDMatrixCreateFromMat(Sample().data(), 3, 4, NAN, m_.out()), 0) << Error();
  }
  DMatrixHandle h() { return m_.get(); }
  Matrix m_;
};

TEST_F(Info, EveryFloatFieldRoundTripsAndIsLengthChecked) {
  const float three[3] = {1, 0, 2};
  const float four[4] = {1, 0.5f, 2, 0};
  for (const char* f : {"label", "weight", "label_lower_bound", "label_upper_bound"}) {
    ASSERT_EQ(XGDMatrixSetFloatInfo(h(), f, three, 3), 0) << f << Error();
    EXPECT_EQ(FloatInfo(h(), f), std::vector<float>(three, three + 3)) << f;
    EXPECT_EQ(XGDMatrixSetFloatInfo(h(), f, four, 4), -1) << f;
    EXPECT_TRUE(Mentions(std::string("XGDMatrixSetFloatInfo: ") + f + ": 4 values for 3 rows"))
        << Error();
  }
  ASSERT_EQ(XGDMatrixSetFloatInfo(h(), "feature_weights", four, 4), 0) << Error();
  EXPECT_EQ(FloatInfo(h(), "feature_weights"), std::vector<float>(four, four + 4));
  EXPECT_EQ(XGDMatrixSetFloatInfo(h(), "feature_weights", three, 3), -1);
  EXPECT_TRUE(Mentions("feature_weights: 3 values for 4 columns")) << Error();
  const float negative[4] = {1, -1, 0, 0};
  EXPECT_EQ(XGDMatrixSetFloatInfo(h(), "feature_weights", negative, 4), -1);
  EXPECT_TRUE(Mentions("feature_weights: value 1 is negative")) << Error();
  EXPECT_EQ(XGDMatrixSetFloatInfo(h(), "weight", negative, 3), -1);
  const float nan_label[3] = {1, NAN, 0};
  EXPECT_EQ(XGDMatrixSetFloatInfo(h(), "label", nan_label, 3), -1);
  EXPECT_TRUE(Mentions("label: value 1 is NaN or infinite")) << Error();
  const float inf_label[3] = {1, INFINITY, 0};
  EXPECT_EQ(XGDMatrixSetFloatInfo(h(), "label", inf_label, 3), -1);
  // A survival upper bound may be +inf (right-censored), never NaN.
  ASSERT_EQ(XGDMatrixSetFloatInfo(h(), "label_upper_bound", inf_label, 3), 0) << Error();
  EXPECT_EQ(XGDMatrixSetFloatInfo(h(), "label_upper_bound", nan_label, 3), -1);
  EXPECT_EQ(XGDMatrixSetFloatInfo(h(), "labels", three, 3), -1);
  EXPECT_TRUE(Mentions("field: unknown field 'labels'")) << Error();
  EXPECT_EQ(XGDMatrixSetFloatInfo(h(), "label", nullptr, 3), -1);
  EXPECT_TRUE(Mentions("array is null")) << Error();
  EXPECT_EQ(XGDMatrixSetFloatInfo(h(), nullptr, three, 3), -1);
  EXPECT_TRUE(Mentions("field is null"));
  bst_ulong n = 0;
  const float* p = nullptr;
  EXPECT_EQ(XGDMatrixGetFloatInfo(h(), "group", &n, &p), -1);
  EXPECT_TRUE(Mentions("unknown float field 'group'")) << Error();
  EXPECT_EQ(XGDMatrixGetFloatInfo(h(), "label", nullptr, &p), -1);
  EXPECT_TRUE(Mentions("out_len is null"));
}

TEST_F(Info, BaseMarginIsRowsTimesGroupsFromAnyForm) {
  const double margin[6] = {0.5, -1, 2, 3, 0, 1};  // 3 rows x 2 groups
  ASSERT_EQ(XGDMatrixSetDenseInfo(h(), "base_margin", margin, 6, 2), 0) << Error();
  EXPECT_EQ(FloatInfo(h(), "base_margin"), (std::vector<float>{0.5f, -1, 2, 3, 0, 1}));
  // A 2-D interface in Fortran order gives the same row-major margin.
  const float fortran[6] = {0.5f, 2, 0, -1, 3, 1};
  ASSERT_EQ(XGDMatrixSetInfoFromInterface(h(), "base_margin",
                                          Interface(fortran, "[3, 2]", "<f4", "[4, 12]").c_str()),
            0)
      << Error();
  EXPECT_EQ(FloatInfo(h(), "base_margin"), (std::vector<float>{0.5f, -1, 2, 3, 0, 1}));
  EXPECT_EQ(XGDMatrixSetDenseInfo(h(), "base_margin", margin, 5, 2), -1);
  EXPECT_TRUE(Mentions("base_margin: 5 values are not a multiple of the 3 rows")) << Error();
  EXPECT_EQ(XGDMatrixSetDenseInfo(h(), "base_margin", margin, 6, 7), -1);
  EXPECT_TRUE(Mentions("type: 7")) << Error();
  const unsigned u[3] = {1, 2, 3};
  ASSERT_EQ(XGDMatrixSetUIntInfo(h(), "label", u, 3), 0);
  EXPECT_EQ(FloatInfo(h(), "label"), (std::vector<float>{1, 2, 3}));
  const std::uint64_t u8[3] = {4, 5, 6};
  ASSERT_EQ(XGDMatrixSetDenseInfo(h(), "weight", u8, 3, 4), 0);
  EXPECT_EQ(FloatInfo(h(), "weight"), (std::vector<float>{4, 5, 6}));
  // rows x targets: multi-target labels (issue 35), row-major; other fields take one column.
  const float two_col[6] = {1, 2, 3, 4, 5, 6};
  ASSERT_EQ(
      XGDMatrixSetInfoFromInterface(h(), "label", Interface(two_col, "[3, 2]", "<f4").c_str()), 0)
      << Error();
  EXPECT_EQ(FloatInfo(h(), "label"), (std::vector<float>{1, 2, 3, 4, 5, 6}));
  EXPECT_EQ(
      XGDMatrixSetInfoFromInterface(h(), "label", Interface(two_col, "[2, 3]", "<f4").c_str()), -1);
  EXPECT_TRUE(Mentions("label: 2 values for 3 rows")) << Error();
  EXPECT_EQ(
      XGDMatrixSetInfoFromInterface(h(), "weight", Interface(two_col, "[3, 2]", "<f4").c_str()),
      -1);
  EXPECT_TRUE(Mentions("one column expected")) << Error();
}

TEST_F(Info, GroupsFromSizesOrSortedQid) {
  const unsigned sizes[2] = {1, 2};
  ASSERT_EQ(XGDMatrixSetGroup(h(), sizes, 2), 0) << Error();
  EXPECT_EQ(GroupPtr(h()), (std::vector<unsigned>{0, 1, 3}));
  const float group_weights[2] = {1, 2};
  EXPECT_EQ(XGDMatrixSetFloatInfo(h(), "weight", group_weights, 2), -1);
  EXPECT_TRUE(Mentions("weight: 2 values, one per query group")) << Error();
  const unsigned short_sizes[2] = {1, 1};
  EXPECT_EQ(XGDMatrixSetGroup(h(), short_sizes, 2), -1);
  EXPECT_TRUE(Mentions("group: sizes add up to 2, not the 3 rows")) << Error();
  const unsigned qid[3] = {7, 7, 9};
  ASSERT_EQ(XGDMatrixSetUIntInfo(h(), "qid", qid, 3), 0) << Error();
  EXPECT_EQ(GroupPtr(h()), (std::vector<unsigned>{0, 2, 3}));
  const std::int32_t qid_i4[3] = {1, 2, 3};
  ASSERT_EQ(XGDMatrixSetInfoFromInterface(h(), "qid", Interface(qid_i4, "[3]", "<i4").c_str()), 0);
  EXPECT_EQ(GroupPtr(h()), (std::vector<unsigned>{0, 1, 2, 3}));
  const unsigned unsorted[3] = {2, 1, 1};
  EXPECT_EQ(XGDMatrixSetUIntInfo(h(), "qid", unsorted, 3), -1);
  EXPECT_TRUE(Mentions("qid: must be sorted in non-decreasing order")) << Error();
  const std::int32_t negative[3] = {-1, 0, 0};
  EXPECT_EQ(XGDMatrixSetInfoFromInterface(h(), "qid", Interface(negative, "[3]", "<i4").c_str()),
            -1);
  bst_ulong n = 0;
  const unsigned* p = nullptr;
  EXPECT_EQ(XGDMatrixGetUIntInfo(h(), "group", &n, &p), -1);
  EXPECT_TRUE(Mentions("unknown uint field 'group'"));
}

TEST_F(Info, FeatureNamesAndTypesMatchTheColumns) {
  const char* names[4] = {"a", "b", "c", "d"};
  ASSERT_EQ(XGDMatrixSetStrFeatureInfo(h(), "feature_name", names, 4), 0) << Error();
  const char* types[4] = {"q", "c", "int", "float"};
  ASSERT_EQ(XGDMatrixSetStrFeatureInfo(h(), "feature_type", types, 4), 0) << Error();
  bst_ulong n = 0;
  const char** out = nullptr;
  ASSERT_EQ(XGDMatrixGetStrFeatureInfo(h(), "feature_type", &n, &out), 0);
  ASSERT_EQ(n, 4u);
  EXPECT_STREQ(out[1], "c");
  ASSERT_EQ(XGDMatrixGetStrFeatureInfo(h(), "feature_name", &n, &out), 0);
  EXPECT_STREQ(out[3], "d");
  EXPECT_EQ(XGDMatrixSetStrFeatureInfo(h(), "feature_name", names, 3), -1);
  EXPECT_TRUE(Mentions("feature_name: 3 names for 4 columns")) << Error();
  const char* bad[4] = {"q", "x", "q", "q"};
  EXPECT_EQ(XGDMatrixSetStrFeatureInfo(h(), "feature_type", bad, 4), -1);
  EXPECT_TRUE(Mentions("feature_type: 'x' at 1")) << Error();
  const char* null_name[4] = {"a", nullptr, "c", "d"};
  EXPECT_EQ(XGDMatrixSetStrFeatureInfo(h(), "feature_name", null_name, 4), -1);
  EXPECT_TRUE(Mentions("features[1] is null"));
  EXPECT_EQ(XGDMatrixSetStrFeatureInfo(h(), "feature_names", names, 4), -1);
  EXPECT_TRUE(Mentions("unknown field 'feature_names'"));
  ASSERT_EQ(XGDMatrixSetStrFeatureInfo(h(), "feature_name", nullptr, 0), 0);  // clears
  ASSERT_EQ(XGDMatrixGetStrFeatureInfo(h(), "feature_name", &n, &out), 0);
  EXPECT_EQ(n, 0u);
}

TEST_F(Info, SliceKeepsOrderRepeatsAndPerRowInfo) {
  const float label[3] = {10, 20, 30};
  const float margin[6] = {1, 2, 3, 4, 5, 6};
  ASSERT_EQ(XGDMatrixSetFloatInfo(h(), "label", label, 3), 0);
  ASSERT_EQ(XGDMatrixSetFloatInfo(h(), "base_margin", margin, 6), 0);
  const int rows[4] = {2, 0, 2, 1};
  Matrix s;
  ASSERT_EQ(XGDMatrixSliceDMatrix(h(), rows, 4, s.out()), 0) << Error();
  Csr want = {4,
              4,
              {0, 4, 7, 11, 13},
              {0, 1, 2, 3, 0, 2, 3, 0, 1, 2, 3, 0, 1},
              {4, 0.5f, 5, 6, 1, 0.5f, 2, 4, 0.5f, 5, 6, 0, 3}};
  EXPECT_EQ(Read(s.get()), want);
  EXPECT_EQ(FloatInfo(s.get(), "label"), (std::vector<float>{30, 10, 30, 20}));
  EXPECT_EQ(FloatInfo(s.get(), "base_margin"), (std::vector<float>{5, 6, 1, 2, 5, 6, 3, 4}));
  const int bad[2] = {0, 3};
  Matrix b;
  EXPECT_EQ(XGDMatrixSliceDMatrix(h(), bad, 2, b.out()), -1);
  EXPECT_TRUE(Mentions("idxset[1] = 3 is not a row of the 3-row matrix")) << Error();
  const unsigned sizes[2] = {2, 1};
  ASSERT_EQ(XGDMatrixSetGroup(h(), sizes, 2), 0);
  EXPECT_EQ(XGDMatrixSliceDMatrixEx(h(), rows, 4, b.out(), 0), -1);
  EXPECT_TRUE(Mentions("query groups")) << Error();
  Matrix g;
  ASSERT_EQ(XGDMatrixSliceDMatrixEx(h(), rows, 2, g.out(), 1), 0) << Error();
  EXPECT_TRUE(GroupPtr(g.get()).empty());  // as XGBoost: the slice has no groups
}

TEST_F(Info, SaveBinaryWritesLibsvmThatLoadsBack) {
  testing::TempDir dir;
  const float label[3] = {1, 0, 2};
  const float weight[3] = {0.5f, 1, 2};
  ASSERT_EQ(XGDMatrixSetFloatInfo(h(), "label", label, 3), 0);
  ASSERT_EQ(XGDMatrixSetFloatInfo(h(), "weight", weight, 3), 0);
  const unsigned sizes[2] = {2, 1};
  ASSERT_EQ(XGDMatrixSetGroup(h(), sizes, 2), 0);
  const std::string file = dir.Path("saved.libsvm");
  ASSERT_EQ(XGDMatrixSaveBinary(h(), file.c_str(), 1), 0) << Error();
  std::stringstream text;
  text << std::ifstream(file).rdbuf();
  EXPECT_EQ(text.str(),
            "1:0.5 qid:0 0:1 2:0.5 3:2\n0:1 qid:0 0:0 1:3\n2:2 qid:1 0:4 1:0.5 2:5 3:6\n");
  Matrix back;
  ASSERT_EQ(XGDMatrixCreateFromFile(file.c_str(), 1, back.out()), 0) << Error();
  EXPECT_EQ(Read(back.get()), Read(h()));
  EXPECT_EQ(FloatInfo(back.get(), "weight"), FloatInfo(h(), "weight"));
  EXPECT_EQ(GroupPtr(back.get()), GroupPtr(h()));
  const float margin[3] = {0, 0, 0};
  ASSERT_EQ(XGDMatrixSetFloatInfo(h(), "base_margin", margin, 3), 0);
  EXPECT_EQ(XGDMatrixSaveBinary(h(), file.c_str(), 1), -1);
  EXPECT_TRUE(Mentions("base_margin cannot be written")) << Error();
  Matrix plain;
  ASSERT_EQ(XGDMatrixCreateFromMat(Sample().data(), 3, 4, NAN, plain.out()), 0);
  EXPECT_EQ(XGDMatrixSaveBinary(plain.get(), dir.Path("no/such/dir").c_str(), 1), -1);
  EXPECT_TRUE(Mentions("no/such/dir")) << Error();  // the path of the failed atomic write
}

// A `next` callback over three batches, as XGBoost's Python DataIter drives the proxy.
struct Batches {
  DMatrixHandle proxy = nullptr;
  int next = 0;
  int resets = 0;
  std::vector<std::string> dense;
  std::vector<float> label = {10, 20, 30};
};

int NextBatch(DataIterHandle handle) {
  auto* b = static_cast<Batches*>(handle);
  if (b->next == 3) return 0;
  const int row = b->next++;
  if (row == 1) {  // the middle row as CSR
    static const std::uint64_t indptr[2] = {0, 2};
    static const std::uint32_t indices[2] = {1, 0};
    static const float values[2] = {3, 0};
    if (XGProxyDMatrixSetDataCSR(b->proxy, Interface(indptr, "[2]", "<u8").c_str(),
                                 Interface(indices, "[2]", "<u4").c_str(),
                                 Interface(values, "[2]", "<f4").c_str(), 4) != 0) {
      return 0;
    }
  } else if (XGProxyDMatrixSetDataDense(
                 b->proxy, Interface(Sample().data() + 4 * row, "[1, 4]", "<f4").c_str()) != 0) {
    return 0;
  }
  return XGDMatrixSetFloatInfo(b->proxy, "label", &b->label[row], 1) == 0 ? 1 : 0;
}
void Reset(DataIterHandle handle) {
  auto* b = static_cast<Batches*>(handle);
  b->next = 0;
  ++b->resets;
}

TEST(Iterators, CallbackBatchesConcatenateWithTheirInfo) {
  Matrix proxy, whole;
  ASSERT_EQ(XGProxyDMatrixCreate(proxy.out()), 0);
  ASSERT_EQ(XGDMatrixCreateFromMat(Sample().data(), 3, 4, NAN, whole.out()), 0);
  Batches b;
  b.proxy = proxy.get();
  Matrix m;
  ASSERT_EQ(XGDMatrixCreateFromCallback(&b, proxy.get(), Reset, NextBatch,
                                        R"({"missing": NaN, "cache_prefix": ""})", m.out()),
            0)
      << Error();
  EXPECT_EQ(Read(m.get()), Read(whole.get()));
  EXPECT_EQ(FloatInfo(m.get(), "label"), (std::vector<float>{10, 20, 30}));
  EXPECT_EQ(b.resets, 2);
  Matrix q;
  ASSERT_EQ(XGQuantileDMatrixCreateFromCallback(&b, proxy.get(), nullptr, Reset, NextBatch,
                                                R"({"missing": NaN, "max_bin": 32})", q.out()),
            0)
      << Error();
  EXPECT_EQ(Read(q.get()), Read(whole.get()));
  Matrix q2;
  ASSERT_EQ(XGQuantileDMatrixCreateFromCallback(&b, proxy.get(), q.get(), Reset, NextBatch,
                                                R"({"missing": NaN})", q2.out()),
            0)
      << Error();
  EXPECT_EQ(XGQuantileDMatrixCreateFromCallback(&b, proxy.get(), nullptr, Reset, NextBatch,
                                                R"({"missing": NaN, "max_bin": 1})", q2.out()),
            -1);
  EXPECT_TRUE(Mentions("max_bin: 1")) << Error();
  EXPECT_EQ(XGDMatrixCreateFromCallback(&b, proxy.get(), Reset, NextBatch,
                                        R"({"missing": NaN, "cache_prefix": "c"})", q2.out()),
            -1);
  EXPECT_TRUE(Mentions("external memory is not supported")) << Error();
  EXPECT_EQ(XGDMatrixCreateFromCallback(&b, whole.get(), Reset, NextBatch, R"({"missing": NaN})",
                                        q2.out()),
            -1);
  EXPECT_TRUE(Mentions("proxy: not a proxy DMatrix")) << Error();
  EXPECT_EQ(
      XGDMatrixCreateFromCallback(&b, proxy.get(), Reset, nullptr, R"({"missing": NaN})", q2.out()),
      -1);
  EXPECT_TRUE(Mentions("next is null"));
}

int LegacyNext(DataIterHandle handle, XGBCallbackSetData* set, DataHolderHandle holder) {
  int* calls = static_cast<int*>(handle);
  if (*calls == 2) return 0;
  static std::int64_t offset[2][3] = {{0, 2, 3}, {5, 6, 6}};
  static int index[2][3] = {{0, 3, 1}, {2, 0, 0}};
  static float value[2][3] = {{1, 2, 3}, {4, 0, 0}};
  static float label[2][2] = {{1, 0}, {1, 1}};
  XGBoostBatchCSR batch{2, 4, offset[*calls], label[*calls], nullptr, index[*calls], value[*calls]};
  ++*calls;
  return set(holder, batch) == 0 ? 1 : 0;
}

TEST(Iterators, LegacyBatchesConcatenate) {
  int calls = 0;
  Matrix m;
  ASSERT_EQ(XGDMatrixCreateFromDataIter(&calls, LegacyNext, nullptr, m.out()), 0) << Error();
  Csr want = {4, 4, {0, 2, 3, 4, 4}, {0, 3, 1, 2}, {1, 2, 3, 4}};
  EXPECT_EQ(Read(m.get()), want);
  EXPECT_EQ(FloatInfo(m.get(), "label"), (std::vector<float>{1, 0, 1, 1}));
  calls = 0;
  EXPECT_EQ(XGDMatrixCreateFromDataIter(&calls, LegacyNext, "cache", m.out()), -1);
  EXPECT_TRUE(Mentions("cache_info: external memory is not supported"));
}

TEST(GetDataAsCsr, NeedsAConfig) {
  Matrix m;
  ASSERT_EQ(XGDMatrixCreateFromMat(Sample().data(), 3, 4, NAN, m.out()), 0);
  bst_ulong indptr[4];
  unsigned indices[9];
  float values[9];
  EXPECT_EQ(XGDMatrixGetDataAsCSR(m.get(), nullptr, indptr, indices, values), -1);
  EXPECT_TRUE(Mentions("config is null"));
  EXPECT_EQ(XGDMatrixGetDataAsCSR(m.get(), "{}", nullptr, indices, values), -1);
  EXPECT_TRUE(Mentions("out_indptr is null"));
}

}  // namespace
}  // namespace treering::capi_test
