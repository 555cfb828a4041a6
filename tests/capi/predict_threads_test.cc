// capi_predict_threads_test: eight threads predicting with one booster at once (DMatrix and
// inplace) get exactly the single-threaded results; rows predicted one at a time (the serving
// path) equal the same rows predicted in bulk. Runs under ASan in CI (unit label).
#include <cmath>
#include <cstring>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "treering/c_api.h"

namespace {

constexpr int kRows = 1500;
constexpr int kCols = 10;

std::string DenseInterface(const float* data, std::uint64_t rows, std::uint64_t cols) {
  return "{\"data\": [" + std::to_string(reinterpret_cast<std::uintptr_t>(data)) +
         ", true], \"shape\": [" + std::to_string(rows) + ", " + std::to_string(cols) +
         "], \"strides\": null, \"typestr\": \"<f4\", \"version\": 3}";
}

std::string Config(int type) {
  return "{\"type\": " + std::to_string(type) +
         ", \"training\": false, \"iteration_begin\": 0, \"iteration_end\": 0, "
         "\"strict_shape\": false, \"missing\": NaN, \"cache_id\": 0}";
}

struct Prediction {
  std::vector<std::uint64_t> shape;
  std::vector<float> values;
  bool operator==(const Prediction& other) const {
    return shape == other.shape && values.size() == other.values.size() &&
           std::memcmp(values.data(), other.values.data(), values.size() * sizeof(float)) == 0;
  }
};

Prediction Collect(const bst_ulong* shape, bst_ulong dim, const float* result) {
  Prediction p;
  std::uint64_t n = 1;
  for (bst_ulong i = 0; i < dim; ++i) {
    p.shape.push_back(shape[i]);
    n *= shape[i];
  }
  p.values.assign(result, result + n);
  return p;
}

class PredictThreads : public ::testing::Test {
 protected:
  void SetUp() override {
    std::mt19937 rng(3);
    std::normal_distribution<float> normal;
    data_.resize(kRows * kCols);
    labels_.resize(kRows);
    for (int r = 0; r < kRows; ++r) {
      for (int c = 0; c < kCols; ++c) {
        data_[r * kCols + c] = (rng() % 10 == 0) ? NAN : normal(rng);
      }
      const float x0 = data_[r * kCols];
      labels_[r] = (std::isnan(x0) ? 0.0f : x0) + 0.3f * normal(rng) > 0 ? 1.0f : 0.0f;
    }
    ASSERT_EQ(XGDMatrixCreateFromMat(data_.data(), kRows, kCols, NAN, &dtrain_), 0)
        << XGBGetLastError();
    ASSERT_EQ(XGDMatrixSetFloatInfo(dtrain_, "label", labels_.data(), kRows), 0)
        << XGBGetLastError();
    ASSERT_EQ(XGBoosterCreate(&dtrain_, 1, &booster_), 0) << XGBGetLastError();
    ASSERT_EQ(XGBoosterSetParam(booster_, "objective", "binary:logistic"), 0);
    ASSERT_EQ(XGBoosterSetParam(booster_, "max_depth", "6"), 0);
    ASSERT_EQ(XGBoosterSetParam(booster_, "nthread", "2"), 0);
    for (int i = 0; i < 15; ++i) {
      ASSERT_EQ(XGBoosterUpdateOneIter(booster_, i, dtrain_), 0) << XGBGetLastError();
    }
  }
  void TearDown() override {
    XGBoosterFree(booster_);
    XGDMatrixFree(dtrain_);
  }

  Prediction FromDMatrix(int type) const {
    const bst_ulong* shape = nullptr;
    bst_ulong dim = 0;
    const float* result = nullptr;
    const std::string config = Config(type);
    EXPECT_EQ(XGBoosterPredictFromDMatrix(booster_, dtrain_, config.c_str(), &shape, &dim, &result),
              0)
        << XGBGetLastError();
    return Collect(shape, dim, result);
  }
  Prediction Inplace(int first_row, int rows, int type) const {
    const bst_ulong* shape = nullptr;
    bst_ulong dim = 0;
    const float* result = nullptr;
    const std::string values = DenseInterface(data_.data() + first_row * kCols, rows, kCols);
    const std::string config = Config(type);
    EXPECT_EQ(XGBoosterPredictFromDense(booster_, values.c_str(), config.c_str(), nullptr, &shape,
                                        &dim, &result),
              0)
        << XGBGetLastError();
    return Collect(shape, dim, result);
  }

  std::vector<float> data_, labels_;
  DMatrixHandle dtrain_ = nullptr;
  BoosterHandle booster_ = nullptr;
};

TEST_F(PredictThreads, EightThreadsEqualOneThread) {
  const std::vector<int> types = {0, 1, 2, 6};
  std::vector<Prediction> expected;
  for (int type : types) expected.push_back(FromDMatrix(type));
  const Prediction expected_inplace = Inplace(0, kRows, 0);
  std::vector<Prediction> expected_rows;
  for (int r = 0; r < 40; ++r) expected_rows.push_back(Inplace(r, 1, 1));

  std::vector<int> mismatches(8, 0);
  std::vector<std::thread> threads;
  for (int t = 0; t < 8; ++t) {
    threads.emplace_back([&, t] {
      for (int round = 0; round < 6; ++round) {
        const std::size_t k = (t + round) % types.size();
        mismatches[t] += !(FromDMatrix(types[k]) == expected[k]);
        mismatches[t] += !(Inplace(0, kRows, 0) == expected_inplace);
        for (int r = t; r < 40; r += 8) mismatches[t] += !(Inplace(r, 1, 1) == expected_rows[r]);
      }
    });
  }
  for (std::thread& thread : threads) thread.join();
  for (int t = 0; t < 8; ++t) EXPECT_EQ(mismatches[t], 0) << "thread " << t;
}

// One row at a time takes the walk without flattened trees; its floats must be the bulk ones.
TEST_F(PredictThreads, SingleRowsEqualBulkPrediction) {
  const Prediction bulk = FromDMatrix(1);
  const Prediction bulk_inplace = Inplace(0, kRows, 1);
  EXPECT_TRUE(bulk == bulk_inplace);
  for (int r = 0; r < kRows; r += 7) {
    const Prediction one = Inplace(r, 1, 1);
    ASSERT_EQ(one.values.size(), 1u);
    EXPECT_EQ(std::memcmp(&one.values[0], &bulk.values[r], sizeof(float)), 0) << "row " << r;
  }
  const Prediction value = Inplace(5, 1, 0);
  EXPECT_EQ(value.values[0], FromDMatrix(0).values[5]);
}

}  // namespace
