// Bad input to the booster's C functions: null and freed handles, null pointers, unknown
// parameters, NaN labels, wrong gradient lengths, and garbage or truncated model buffers
// (random mutations of real models: never a crash, and a failed load leaves the booster as it
// was). Calls only the C API (libtreering.so).
#include <unistd.h>

#include <atomic>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "treering/c_api.h"

namespace {

std::string LastError() { return XGBGetLastError(); }

class BoosterBadInput : public ::testing::Test {
 protected:
  void SetUp() override {
    // One file per test process: ctest runs this fixture's tests in parallel, and one's
    // TearDown must not remove the file another is reading.
    path_ = ::testing::TempDir() + "booster_bad_input_" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name() + "_" +
            std::to_string(getpid()) + ".libsvm";
    std::ofstream out(path_);
    std::mt19937 rng(3);
    std::uniform_real_distribution<float> u(0, 1);
    for (int r = 0; r < 200; ++r) {
      const float x0 = u(rng), x1 = u(rng), x2 = u(rng);
      out << (x0 + x1 > 1.0f ? 1 : 0) << " 0:" << x0 << " 1:" << x1 << " 2:" << x2 << "\n";
    }
    out.close();
    ASSERT_EQ(XGDMatrixCreateFromFile(path_.c_str(), 1, &dtrain_), 0) << LastError();
    ASSERT_EQ(XGBoosterCreate(&dtrain_, 1, &booster_), 0) << LastError();
    ASSERT_EQ(XGBoosterSetParam(booster_, "objective", "binary:logistic"), 0);
    ASSERT_EQ(XGBoosterSetParam(booster_, "max_depth", "3"), 0);
    for (int i = 0; i < 3; ++i) ASSERT_EQ(XGBoosterUpdateOneIter(booster_, i, dtrain_), 0);
  }
  void TearDown() override {
    XGBoosterFree(booster_);
    XGDMatrixFree(dtrain_);
    std::remove(path_.c_str());
  }
  std::string Save(BoosterHandle b, const char* format) {
    bst_ulong len = 0;
    const char* data = nullptr;
    const std::string config = std::string("{\"format\": \"") + format + "\"}";
    EXPECT_EQ(XGBoosterSaveModelToBuffer(b, config.c_str(), &len, &data), 0) << LastError();
    return std::string(data, len);
  }
  std::string Serialized(BoosterHandle b) {
    bst_ulong len = 0;
    const char* data = nullptr;
    EXPECT_EQ(XGBoosterSerializeToBuffer(b, &len, &data), 0) << LastError();
    return std::string(data, len);
  }

  std::string path_;
  DMatrixHandle dtrain_ = nullptr;
  BoosterHandle booster_ = nullptr;
};

TEST_F(BoosterBadInput, NullAndFreedHandlesAreErrors) {
  int rounds = 0;
  EXPECT_EQ(XGBoosterBoostedRounds(nullptr, &rounds), -1);
  EXPECT_NE(LastError().find("handle"), std::string::npos) << LastError();
  EXPECT_EQ(XGBoosterBoostedRounds(booster_, nullptr), -1);
  EXPECT_NE(LastError().find("out"), std::string::npos) << LastError();
  EXPECT_EQ(XGBoosterUpdateOneIter(booster_, 0, nullptr), -1);
  EXPECT_NE(LastError().find("dtrain"), std::string::npos) << LastError();
  EXPECT_EQ(XGBoosterCreate(nullptr, 1, &booster_), -1);

  BoosterHandle b = nullptr;
  ASSERT_EQ(XGBoosterCreate(&dtrain_, 1, &b), 0);
  ASSERT_EQ(XGBoosterFree(b), 0);
  EXPECT_EQ(XGBoosterSetParam(b, "eta", "0.1"), -1);
  EXPECT_NE(LastError().find("handle"), std::string::npos) << LastError();
  EXPECT_EQ(XGBoosterFree(b), -1);
  // A DMatrix handle is not a booster.
  EXPECT_EQ(XGBoosterBoostedRounds(dtrain_, &rounds), -1);
  EXPECT_EQ(XGBoosterSetParam(booster_, nullptr, "1"), -1);
  EXPECT_NE(LastError().find("name"), std::string::npos) << LastError();
}

TEST_F(BoosterBadInput, UnknownOrBadParameterNamesTheKey) {
  ASSERT_EQ(XGBoosterSetParam(booster_, "max_dpeth", "3"), 0);  // recorded; checked when used
  EXPECT_EQ(XGBoosterUpdateOneIter(booster_, 3, dtrain_), -1);
  EXPECT_NE(LastError().find("max_dpeth"), std::string::npos) << LastError();
  EXPECT_NE(LastError().find("did you mean 'max_depth'"), std::string::npos) << LastError();

  BoosterHandle b = nullptr;
  ASSERT_EQ(XGBoosterCreate(&dtrain_, 1, &b), 0);
  ASSERT_EQ(XGBoosterSetParam(b, "max_depth", "-4"), 0);
  EXPECT_EQ(XGBoosterUpdateOneIter(b, 0, dtrain_), -1);
  EXPECT_NE(LastError().find("max_depth"), std::string::npos) << LastError();
  ASSERT_EQ(XGBoosterSetParam(b, "booster", "mlp"), 0);
  EXPECT_EQ(XGBoosterUpdateOneIter(b, 0, dtrain_), -1);
  EXPECT_NE(LastError().find("booster: mlp"), std::string::npos) << LastError();
  ASSERT_EQ(XGBoosterSetParam(b, "booster", "gbtree"), 0);
  // Fixing the value makes the booster usable again.
  ASSERT_EQ(XGBoosterSetParam(b, "max_depth", "2"), 0);
  EXPECT_EQ(XGBoosterUpdateOneIter(b, 0, dtrain_), 0) << LastError();
  XGBoosterFree(b);
}

TEST_F(BoosterBadInput, NanLabelsAndBadGradientsAreRefused) {
  std::vector<float> labels(200, 0.0f);
  // Refused when set (as XGBoost 1.7's SetInfo), so no booster ever trains on them.
  labels[7] = std::nanf("");
  EXPECT_EQ(XGDMatrixSetFloatInfo(dtrain_, "label", labels.data(), labels.size()), -1);
  EXPECT_NE(LastError().find("label"), std::string::npos) << LastError();
  labels[7] = INFINITY;
  EXPECT_EQ(XGDMatrixSetFloatInfo(dtrain_, "label", labels.data(), labels.size()), -1);
  EXPECT_NE(LastError().find("label"), std::string::npos) << LastError();
  EXPECT_EQ(XGBoosterUpdateOneIter(booster_, 3, dtrain_), 0) << LastError();  // labels kept
  labels[7] = 1.0f;
  ASSERT_EQ(XGDMatrixSetFloatInfo(dtrain_, "label", labels.data(), labels.size()), 0);

  std::vector<float> grad(199, 0.1f), hess(199, 1.0f);
  EXPECT_EQ(XGBoosterBoostOneIter(booster_, dtrain_, grad.data(), hess.data(), grad.size()), -1);
  EXPECT_NE(LastError().find("len"), std::string::npos) << LastError();
  EXPECT_EQ(XGBoosterBoostOneIter(booster_, dtrain_, nullptr, hess.data(), 200), -1);
  EXPECT_NE(LastError().find("grad"), std::string::npos) << LastError();
  grad.assign(200, 0.1f);
  hess.assign(200, 1.0f);
  EXPECT_EQ(XGBoosterBoostOneIter(booster_, dtrain_, grad.data(), hess.data(), 200), 0)
      << LastError();
  int rounds = 0;
  ASSERT_EQ(XGBoosterBoostedRounds(booster_, &rounds), 0);
  EXPECT_EQ(rounds, 5);
}

TEST_F(BoosterBadInput, SliceOutOfRangeIsMinusTwo) {
  BoosterHandle sliced = nullptr;
  EXPECT_EQ(XGBoosterSlice(booster_, 0, 5, 1, &sliced), -2);
  EXPECT_EQ(XGBoosterSlice(booster_, 2, 1, 1, &sliced), -1);
  EXPECT_EQ(XGBoosterSlice(booster_, 0, 3, 0, &sliced), -1);
  ASSERT_EQ(XGBoosterSlice(booster_, 0, 3, 2, &sliced), 0) << LastError();
  int rounds = 0;
  ASSERT_EQ(XGBoosterBoostedRounds(sliced, &rounds), 0);
  EXPECT_EQ(rounds, 2);
  XGBoosterFree(sliced);
}

// feature_weights steer the column draws (XGBoost's weighted sampling without replacement):
// with one positive weight and one feature per tree, every split is on that feature.
TEST_F(BoosterBadInput, FeatureWeightsSteerColumnSampling) {
  const std::vector<float> weights = {0.0f, 0.0f, 3.0f};
  ASSERT_EQ(XGDMatrixSetFloatInfo(dtrain_, "feature_weights", weights.data(), 3), 0);
  ASSERT_EQ(XGBoosterSetParam(booster_, "colsample_bytree", "0.34"), 0);
  ASSERT_EQ(XGBoosterSetParam(booster_, "tree_method", "hist"), 0);
  int before = 0;  // the fixture's rounds, grown without weights
  ASSERT_EQ(XGBoosterBoostedRounds(booster_, &before), 0);
  for (int i = 0; i < 3; ++i) ASSERT_EQ(XGBoosterUpdateOneIter(booster_, before + i, dtrain_), 0);
  bst_ulong trees = 0;
  const char** dump = nullptr;
  ASSERT_EQ(XGBoosterDumpModelEx(booster_, "", 0, "text", &trees, &dump), 0) << LastError();
  ASSERT_EQ(trees, static_cast<bst_ulong>(before + 3));
  for (bst_ulong t = before; t < trees; ++t) {
    const std::string tree = dump[t];
    EXPECT_NE(tree.find("[f2<"), std::string::npos) << tree;
    EXPECT_EQ(tree.find("[f0<"), std::string::npos) << tree;
    EXPECT_EQ(tree.find("[f1<"), std::string::npos) << tree;
  }
}

// An eval set whose base_margin changed is evaluated afresh, not from stale cached margins:
// the line equals a new booster's with the same model. Then training goes on from the new
// margins.
TEST_F(BoosterBadInput, EvalSeesChangedBaseMargin) {
  const char* name = "train";
  const char* line = nullptr;
  ASSERT_EQ(XGBoosterEvalOneIter(booster_, 2, &dtrain_, &name, 1, &line), 0) << LastError();
  const std::string before = line;
  const std::vector<float> margins(200, 1.5f);
  ASSERT_EQ(XGDMatrixSetFloatInfo(dtrain_, "base_margin", margins.data(), margins.size()), 0);
  ASSERT_EQ(XGBoosterEvalOneIter(booster_, 2, &dtrain_, &name, 1, &line), 0) << LastError();
  const std::string after = line;
  EXPECT_NE(before, after);
  const std::string model = Save(booster_, "json");
  BoosterHandle fresh = nullptr;
  ASSERT_EQ(XGBoosterCreate(nullptr, 0, &fresh), 0);
  ASSERT_EQ(XGBoosterLoadModelFromBuffer(fresh, model.data(), model.size()), 0);
  ASSERT_EQ(XGBoosterEvalOneIter(fresh, 2, &dtrain_, &name, 1, &line), 0) << LastError();
  EXPECT_EQ(after, std::string(line));
  EXPECT_EQ(after.rfind("[2]\ttrain-logloss:", 0), 0u) << after;
  XGBoosterFree(fresh);
}

// Predictions from 8 threads while the booster trains and its params change (eta in place,
// max_depth by rebuild): each sees a whole model (a multiple of 200 outputs, finite), none
// crashes (run under ASan by the sanitizer build).
TEST_F(BoosterBadInput, PredictionsRaceTrainingSafely) {
  std::atomic<bool> stop{false};
  std::atomic<int> predictions{0}, bad{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 8; ++t) {
    threads.emplace_back([&] {
      while (!stop.load()) {
        bst_ulong len = 0;
        const float* out = nullptr;
        if (XGBoosterPredict(booster_, dtrain_, 0, 0, 0, &len, &out) != 0 || len != 200 ||
            !std::isfinite(out[0])) {
          bad.fetch_add(1);
        }
        predictions.fetch_add(1);
      }
    });
  }
  // The rounds start once the readers run, and the readers stop only after more predictions
  // than threads followed them (on a small set the rounds are quicker than thread start-up).
  while (predictions.load() < 8) std::this_thread::yield();
  for (int i = 3; i < 9; ++i) {
    ASSERT_EQ(XGBoosterSetParam(booster_, i % 2 ? "eta" : "max_depth", i % 2 ? "0.2" : "2"), 0);
    ASSERT_EQ(XGBoosterUpdateOneIter(booster_, i, dtrain_), 0) << LastError();
  }
  const int after_training = predictions.load();
  while (predictions.load() < after_training + 8) std::this_thread::yield();
  stop = true;
  for (std::thread& t : threads) t.join();
  EXPECT_EQ(bad.load(), 0);
}

// Random mutations (bytes flipped, truncations, insertions) of real model and snapshot bytes:
// every load returns 0 or -1, and a failed one leaves the booster's model unchanged.
TEST_F(BoosterBadInput, MutatedModelBuffersNeverCrashOrHalfLoad) {
  const std::string before = Save(booster_, "json");
  std::vector<std::string> seeds = {before, Save(booster_, "ubj"), Save(booster_, "deprecated"),
                                    Serialized(booster_)};
  std::mt19937 rng(17);
  int failed_loads = 0;
  for (const std::string& seed : seeds) {
    for (int trial = 0; trial < 300; ++trial) {
      std::string bytes = seed;
      switch (trial % 3) {
        case 0:
          bytes.resize(rng() % bytes.size());
          break;
        case 1:
          for (int k = 0; k < 1 + static_cast<int>(rng() % 4); ++k) {
            bytes[rng() % bytes.size()] = static_cast<char>(rng());
          }
          break;
        default:
          bytes.insert(rng() % bytes.size(), std::string(1 + rng() % 8, static_cast<char>(rng())));
      }
      for (int use_unserialize = 0; use_unserialize < 2; ++use_unserialize) {
        const int rc = use_unserialize
                           ? XGBoosterUnserializeFromBuffer(booster_, bytes.data(), bytes.size())
                           : XGBoosterLoadModelFromBuffer(booster_, bytes.data(), bytes.size());
        ASSERT_TRUE(rc == 0 || rc == -1);
        if (rc == -1) {
          ++failed_loads;
          ASSERT_FALSE(LastError().empty());
          ASSERT_EQ(Save(booster_, "json"), before) << "a failed load changed the booster";
        } else {
          // A mutation that still parses (a changed digit): back to the real model.
          ASSERT_EQ(XGBoosterLoadModelFromBuffer(booster_, before.data(), before.size()), 0);
        }
      }
    }
  }
  EXPECT_GT(failed_loads, 1000);
}

TEST_F(BoosterBadInput, BadSaveConfigAndMissingFile) {
  bst_ulong len = 0;
  const char* data = nullptr;
  EXPECT_EQ(XGBoosterSaveModelToBuffer(booster_, "{\"format\": \"xml\"}", &len, &data), -1);
  EXPECT_NE(LastError().find("config"), std::string::npos) << LastError();
  EXPECT_EQ(XGBoosterSaveModelToBuffer(booster_, "not json", &len, &data), -1);
  EXPECT_EQ(XGBoosterLoadModel(booster_, "/nonexistent/model.json"), -1);
  EXPECT_NE(LastError().find("fname"), std::string::npos) << LastError();
  EXPECT_EQ(XGBoosterLoadJsonConfig(booster_, "{\"nope\": 1}"), -1);
  EXPECT_NE(LastError().find("config"), std::string::npos) << LastError();
}

}  // namespace

// XGBoost's C demo sets gpu_id = -1 (the CPU): accepted as a no-op. A device (and
// gpu_predictor) trains the same model on the CPU with one warning on stderr naming both; a
// value that is no device is refused naming the key.
TEST_F(BoosterBadInput, GpuWordsTrainOnTheCpuWithOneWarning) {
  for (const char* device : {"-1", "0"}) {
    BoosterHandle cpu = nullptr;
    ASSERT_EQ(XGBoosterCreate(&dtrain_, 1, &cpu), 0);
    ASSERT_EQ(XGBoosterSetParam(cpu, "objective", "binary:logistic"), 0);
    ASSERT_EQ(XGBoosterSetParam(cpu, "max_depth", "3"), 0);
    ASSERT_EQ(XGBoosterSetParam(cpu, "gpu_id", device), 0);
    if (std::string(device) == "0") {
      ASSERT_EQ(XGBoosterSetParam(cpu, "predictor", "gpu_predictor"), 0);
    }
    ::testing::internal::CaptureStderr();
    for (int i = 0; i < 3; ++i) {
      ASSERT_EQ(XGBoosterUpdateOneIter(cpu, i, dtrain_), 0) << LastError();
    }
    const std::string said = ::testing::internal::GetCapturedStderr();
    EXPECT_EQ(Save(cpu, "json"), Save(booster_, "json"));  // the same model as without the keys
    if (std::string(device) == "-1") {
      EXPECT_EQ(said.find("WARNING"), std::string::npos) << said;
    } else {
      EXPECT_NE(said.find("WARNING: gpu_id=0, predictor=gpu_predictor: treering has no GPU "
                          "support; running on the CPU instead\n"),
                std::string::npos)
          << said;
      EXPECT_EQ(said.find("WARNING"), said.rfind("WARNING")) << "more than one warning: " << said;
    }
    ASSERT_EQ(XGBoosterSetParam(cpu, "gpu_id", "x"), 0);
    EXPECT_EQ(XGBoosterUpdateOneIter(cpu, 3, dtrain_), -1);
    EXPECT_NE(LastError().find("gpu_id"), std::string::npos) << LastError();
    XGBoosterFree(cpu);
  }
}

// Before training, XGBoost reports the width of the matrices the booster was created with.
TEST_F(BoosterBadInput, NumFeatureBeforeTrainingIsTheCachedMatricesWidth) {
  BoosterHandle fresh = nullptr;
  ASSERT_EQ(XGBoosterCreate(&dtrain_, 1, &fresh), 0);
  bst_ulong features = 0;
  ASSERT_EQ(XGBoosterGetNumFeature(fresh, &features), 0) << LastError();
  EXPECT_EQ(features, 3u);
  ASSERT_EQ(XGBoosterGetNumFeature(booster_, &features), 0) << LastError();
  EXPECT_EQ(features, 3u);  // trained: the model's
  XGBoosterFree(fresh);
  BoosterHandle empty = nullptr;
  ASSERT_EQ(XGBoosterCreate(nullptr, 0, &empty), 0) << LastError();
  ASSERT_EQ(XGBoosterGetNumFeature(empty, &features), 0) << LastError();
  EXPECT_EQ(features, 0u);
  XGBoosterFree(empty);
}
