// capi_predict_errors_test: bad input to the prediction, dump, attribute and feature-score
// calls returns -1 with a message naming the argument at fault, never a crash.
#include <cmath>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "treering/c_api.h"

namespace {

constexpr int kRows = 200;
constexpr int kCols = 4;

std::string DenseInterface(const float* data, std::uint64_t rows, std::uint64_t cols) {
  return "{\"data\": [" + std::to_string(reinterpret_cast<std::uintptr_t>(data)) +
         ", true], \"shape\": [" + std::to_string(rows) + ", " + std::to_string(cols) +
         "], \"strides\": null, \"typestr\": \"<f4\", \"version\": 3}";
}

const char* kConfig =
    "{\"type\": 0, \"training\": false, \"iteration_begin\": 0, \"iteration_end\": 0, "
    "\"strict_shape\": false, \"missing\": NaN, \"cache_id\": 0}";

// The call failed and its message mentions `word`.
#define EXPECT_FAILS_NAMING(call, word)                                                           \
  do {                                                                                            \
    EXPECT_EQ((call), -1);                                                                        \
    EXPECT_NE(std::string(XGBGetLastError()).find(word), std::string::npos) << XGBGetLastError(); \
  } while (0)

class PredictErrors : public ::testing::Test {
 protected:
  void SetUp() override {
    data_.resize(kRows * kCols);
    labels_.resize(kRows);
    for (int r = 0; r < kRows; ++r) {
      for (int c = 0; c < kCols; ++c) data_[r * kCols + c] = float((r * 7 + c * 3) % 11);
      labels_[r] = float(r % 2);
    }
    ASSERT_EQ(XGDMatrixCreateFromMat(data_.data(), kRows, kCols, NAN, &dm_), 0);
    ASSERT_EQ(XGDMatrixSetFloatInfo(dm_, "label", labels_.data(), kRows), 0);
    ASSERT_EQ(XGBoosterCreate(&dm_, 1, &booster_), 0);
    ASSERT_EQ(XGBoosterSetParam(booster_, "objective", "binary:logistic"), 0);
    for (int i = 0; i < 3; ++i) ASSERT_EQ(XGBoosterUpdateOneIter(booster_, i, dm_), 0);
  }
  void TearDown() override {
    XGBoosterFree(booster_);
    XGDMatrixFree(dm_);
  }
  std::vector<float> data_, labels_;
  DMatrixHandle dm_ = nullptr;
  BoosterHandle booster_ = nullptr;
  const bst_ulong* shape_ = nullptr;
  bst_ulong dim_ = 0;
  const float* result_ = nullptr;
};

TEST_F(PredictErrors, NullOutPointers) {
  EXPECT_FAILS_NAMING(XGBoosterPredictFromDMatrix(booster_, dm_, kConfig, nullptr, &dim_, &result_),
                      "out_shape");
  EXPECT_FAILS_NAMING(
      XGBoosterPredictFromDMatrix(booster_, dm_, kConfig, &shape_, nullptr, &result_), "out_dim");
  EXPECT_FAILS_NAMING(XGBoosterPredictFromDMatrix(booster_, dm_, kConfig, &shape_, &dim_, nullptr),
                      "out_result");
  EXPECT_FAILS_NAMING(XGBoosterPredictFromDMatrix(booster_, dm_, nullptr, &shape_, &dim_, &result_),
                      "config");
  bst_ulong len = 0;
  EXPECT_FAILS_NAMING(XGBoosterPredict(booster_, dm_, 0, 0, 0, &len, nullptr), "out_result");
  const std::string values = DenseInterface(data_.data(), 1, kCols);
  EXPECT_FAILS_NAMING(
      XGBoosterPredictFromDense(booster_, nullptr, kConfig, nullptr, &shape_, &dim_, &result_),
      "values");
  EXPECT_FAILS_NAMING(XGBoosterPredictFromDense(booster_, values.c_str(), kConfig, nullptr, &shape_,
                                                &dim_, nullptr),
                      "out_result");
  const char** dump = nullptr;
  EXPECT_FAILS_NAMING(XGBoosterDumpModelEx(booster_, "", 0, "text", nullptr, &dump), "out_len");
  EXPECT_FAILS_NAMING(XGBoosterDumpModelEx(booster_, nullptr, 0, "text", &len, &dump), "fmap");
  int success = 0;
  const char* attr = nullptr;
  EXPECT_FAILS_NAMING(XGBoosterGetAttr(booster_, nullptr, &attr, &success), "key");
  EXPECT_FAILS_NAMING(XGBoosterGetAttr(booster_, "k", &attr, nullptr), "success");
}

TEST_F(PredictErrors, FreedAndWrongHandles) {
  BoosterHandle gone = nullptr;
  ASSERT_EQ(XGBoosterCreate(&dm_, 1, &gone), 0);
  ASSERT_EQ(XGBoosterFree(gone), 0);
  EXPECT_FAILS_NAMING(XGBoosterPredictFromDMatrix(gone, dm_, kConfig, &shape_, &dim_, &result_),
                      "handle");
  DMatrixHandle freed = nullptr;
  ASSERT_EQ(XGDMatrixCreateFromMat(data_.data(), kRows, kCols, NAN, &freed), 0);
  ASSERT_EQ(XGDMatrixFree(freed), 0);
  EXPECT_FAILS_NAMING(
      XGBoosterPredictFromDMatrix(booster_, freed, kConfig, &shape_, &dim_, &result_), "dmat");
  // A booster given where a DMatrix belongs.
  EXPECT_FAILS_NAMING(
      XGBoosterPredictFromDMatrix(booster_, booster_, kConfig, &shape_, &dim_, &result_), "dmat");
  const std::string values = DenseInterface(data_.data(), 1, kCols);
  EXPECT_FAILS_NAMING(
      XGBoosterPredictFromDense(booster_, values.c_str(), kConfig, dm_, &shape_, &dim_, &result_),
      "m: not a proxy");
  EXPECT_FAILS_NAMING(XGBoosterSetAttr(gone, "a", "b"), "handle");
  EXPECT_FAILS_NAMING(
      XGBoosterPredictFromCudaArray(booster_, "", "", nullptr, &shape_, &dim_, &result_), "CUDA");
}

TEST_F(PredictErrors, ShapesAndConfigs) {
  const std::string narrow = DenseInterface(data_.data(), kRows * kCols / 3, 3);
  EXPECT_FAILS_NAMING(XGBoosterPredictFromDense(booster_, narrow.c_str(), kConfig, nullptr, &shape_,
                                                &dim_, &result_),
                      "values: 3 columns, the model has 4 features");
  DMatrixHandle wide = nullptr;
  ASSERT_EQ(XGDMatrixCreateFromMat(data_.data(), kRows / 2, kCols * 2, NAN, &wide), 0);
  EXPECT_FAILS_NAMING(
      XGBoosterPredictFromDMatrix(booster_, wide, kConfig, &shape_, &dim_, &result_),
      "dmat: 8 columns");
  XGDMatrixFree(wide);
  EXPECT_FAILS_NAMING(XGBoosterPredictFromDMatrix(booster_, dm_, "{}", &shape_, &dim_, &result_),
                      "type");
  EXPECT_FAILS_NAMING(
      XGBoosterPredictFromDMatrix(booster_, dm_, "{\"type\": 9", &shape_, &dim_, &result_),
      "config");
  const char* past_end =
      "{\"type\": 0, \"training\": false, \"iteration_begin\": 0, \"iteration_end\": 9, "
      "\"strict_shape\": false}";
  EXPECT_FAILS_NAMING(
      XGBoosterPredictFromDMatrix(booster_, dm_, past_end, &shape_, &dim_, &result_), "3 rounds");
  const std::string one = DenseInterface(data_.data(), 1, kCols);
  const char* leaf_inplace =
      "{\"type\": 6, \"iteration_begin\": 0, \"iteration_end\": 0, \"strict_shape\": false, "
      "\"missing\": NaN}";
  EXPECT_FAILS_NAMING(XGBoosterPredictFromDense(booster_, one.c_str(), leaf_inplace, nullptr,
                                                &shape_, &dim_, &result_),
                      "type = 6");
  const char* no_missing =
      "{\"type\": 0, \"iteration_begin\": 0, \"iteration_end\": 0, \"strict_shape\": false}";
  EXPECT_FAILS_NAMING(XGBoosterPredictFromDense(booster_, one.c_str(), no_missing, nullptr, &shape_,
                                                &dim_, &result_),
                      "missing");
  bst_ulong len = 0;
  EXPECT_FAILS_NAMING(XGBoosterPredict(booster_, dm_, 2 | 4, 0, 0, &len, &result_), "option_mask");
  // CSR: a column index beyond ncol, an indptr past the indices.
  const std::vector<std::uint64_t> indptr = {0, 2};
  const std::vector<std::uint32_t> indices = {0, 7};
  const std::vector<float> values = {1.0f, 2.0f};
  auto iface = [](const void* p, std::size_t n, const char* type) {
    return "{\"data\": [" + std::to_string(reinterpret_cast<std::uintptr_t>(p)) +
           ", true], \"shape\": [" + std::to_string(n) + "], \"typestr\": \"" + type +
           "\", \"version\": 3}";
  };
  const std::string ip = iface(indptr.data(), 2, "<u8"), ix = iface(indices.data(), 2, "<u4"),
                    va = iface(values.data(), 2, "<f4");
  EXPECT_FAILS_NAMING(XGBoosterPredictFromCSR(booster_, ip.c_str(), ix.c_str(), va.c_str(), kCols,
                                              kConfig, nullptr, &shape_, &dim_, &result_),
                      "indices: 7");
  const std::vector<std::uint64_t> long_ptr = {0, 5};
  const std::string lp = iface(long_ptr.data(), 2, "<u8");
  EXPECT_FAILS_NAMING(XGBoosterPredictFromCSR(booster_, lp.c_str(), ix.c_str(), va.c_str(), kCols,
                                              kConfig, nullptr, &shape_, &dim_, &result_),
                      "indptr");
}

TEST_F(PredictErrors, ModelInfoCalls) {
  bst_ulong len = 0;
  const char** out = nullptr;
  EXPECT_FAILS_NAMING(XGBoosterDumpModelEx(booster_, "", 0, "yaml", &len, &out), "format");
  EXPECT_FAILS_NAMING(
      XGBoosterDumpModelEx(booster_, "/nonexistent/fmap.txt", 0, "text", &len, &out), "fmap.txt");
  const char* names[] = {"a", "b"};
  const char* types[] = {"q", "q"};
  EXPECT_FAILS_NAMING(
      XGBoosterDumpModelExWithFeatures(booster_, 2, names, types, 0, "text", &len, &out), "fname");
  EXPECT_FAILS_NAMING(XGBoosterSetStrFeatureInfo(booster_, "feature_colour", names, 2), "field");
  const char* bad_types[] = {"q", "x", "q", "q"};
  EXPECT_FAILS_NAMING(XGBoosterSetStrFeatureInfo(booster_, "feature_type", bad_types, 4), "'x'");
  bst_ulong n = 0, dim = 0;
  const char** fnames = nullptr;
  const bst_ulong* shape = nullptr;
  const float* scores = nullptr;
  EXPECT_FAILS_NAMING(XGBoosterFeatureScore(booster_, "{\"importance_type\": \"weigth\"}", &n,
                                            &fnames, &dim, &shape, &scores),
                      "weigth");
  EXPECT_FAILS_NAMING(XGBoosterFeatureScore(booster_, "{}", &n, &fnames, &dim, &shape, &scores),
                      "importance_type");
  // Deleting an attribute that is not there is fine; reading it says so.
  EXPECT_EQ(XGBoosterSetAttr(booster_, "absent", nullptr), 0);
  int success = 1;
  const char* value = "x";
  EXPECT_EQ(XGBoosterGetAttr(booster_, "absent", &value, &success), 0);
  EXPECT_EQ(success, 0);
  EXPECT_EQ(value, nullptr);
}

}  // namespace

namespace {
// One batch whose label was set before its data (on a proxy that held no rows yet).
struct LabelFirst {
  DMatrixHandle proxy;
  std::vector<float> data, label;
  int calls = 0;
};
int LabelFirstNext(DataIterHandle handle) {
  auto* it = static_cast<LabelFirst*>(handle);
  if (it->calls++ > 0) return 0;
  XGDMatrixSetFloatInfo(it->proxy, "label", it->label.data(), it->label.size());
  const std::string values = DenseInterface(it->data.data(), 2, kCols);
  XGProxyDMatrixSetDataDense(it->proxy, values.c_str());
  return 1;
}
void LabelFirstReset(DataIterHandle handle) { static_cast<LabelFirst*>(handle)->calls = 0; }
}  // namespace

// XGBoost's Python inplace_predict sets base_margin on a proxy that holds no rows: the rows
// come with the call, and base_margin is checked against them there.
TEST_F(PredictErrors, BaseMarginOnAnEmptyProxyIsCheckedAgainstTheCallsRows) {
  DMatrixHandle proxy = nullptr;
  ASSERT_EQ(XGProxyDMatrixCreate(&proxy), 0);
  const std::vector<float> margin{0.5f, -1.0f};
  ASSERT_EQ(XGDMatrixSetFloatInfo(proxy, "base_margin", margin.data(), 2), 0) << XGBGetLastError();
  const char* margins =
      "{\"type\": 1, \"training\": false, \"iteration_begin\": 0, \"iteration_end\": 0, "
      "\"strict_shape\": false, \"missing\": NaN, \"cache_id\": 0}";
  const std::string two = DenseInterface(data_.data(), 2, kCols);
  ASSERT_EQ(
      XGBoosterPredictFromDense(booster_, two.c_str(), margins, nullptr, &shape_, &dim_, &result_),
      0);
  const std::vector<float> plain(result_, result_ + 2);
  ASSERT_EQ(
      XGBoosterPredictFromDense(booster_, two.c_str(), margins, proxy, &shape_, &dim_, &result_), 0)
      << XGBGetLastError();
  // base_margin replaces base_score's margin (0 for base_score 0.5 under binary:logistic).
  EXPECT_FLOAT_EQ(result_[0], plain[0] + margin[0]);
  EXPECT_FLOAT_EQ(result_[1], plain[1] + margin[1]);
  const std::string three = DenseInterface(data_.data(), 3, kCols);
  EXPECT_FAILS_NAMING(
      XGBoosterPredictFromDense(booster_, three.c_str(), margins, proxy, &shape_, &dim_, &result_),
      "base_margin");

  // In an iterator, a label set before its batch's data is checked against the batch's rows.
  LabelFirst it{proxy, std::vector<float>(data_.begin(), data_.begin() + 2 * kCols), {1, 0, 1}};
  DMatrixHandle all = nullptr;
  EXPECT_FAILS_NAMING(XGDMatrixCreateFromCallback(&it, proxy, LabelFirstReset, LabelFirstNext,
                                                  "{\"missing\": NaN}", &all),
                      "label: batch 0 has 3 values for 2 rows");
  XGDMatrixFree(proxy);
}
