// booster=mlp keys: defaults, parsing, and a clear error for every bad value; the learning-rate
// schedule's shape.
#include <cmath>

#include <gtest/gtest.h>

#include "booster/mlp/mlp_param.h"
#include "booster/mlp/optimizer.h"

namespace treering::booster::mlp {
namespace {

using KV = std::vector<std::pair<std::string, std::string>>;

TEST(MlpParam, ParsesKeysAndAliases) {
  auto p = MlpParam::Parse({{"hidden_layers", "32,16,8"},
                            {"activation", "tanh"},
                            {"optimizer", "adam"},
                            {"eta", "0.002"},
                            {"batch_size", "128"},
                            {"num_class", "10"},
                            {"eval_metric", "merror"},
                            {"eval_metric", "mlogloss"},
                            {"bucket_bytes", "65536"}});
  ASSERT_TRUE(p.ok()) << p.status().message();
  EXPECT_EQ(p->hidden_layers, (std::vector<int>{32, 16, 8}));
  EXPECT_EQ(p->activation, Activation::kTanh);
  EXPECT_EQ(p->optimizer, OptimizerKind::kAdam);
  EXPECT_DOUBLE_EQ(p->learning_rate, 0.002);
  EXPECT_EQ(p->batch_size, 128);
  EXPECT_EQ(p->eval_metrics.size(), 2u);
  EXPECT_EQ(p->bucket_bytes, 65536);
  EXPECT_EQ(p->NumOutputs(), 10);
}

TEST(MlpParam, BadValuesNameTheKeyAndTheAllowedRange) {
  const std::vector<std::pair<KV, std::string>> cases = {
      {{{"hidden_layers", "256,,128"}}, "parameter hidden_layers: bad value '256,,128'"},
      {{{"hidden_layers", "0"}}, "parameter hidden_layers"},
      {{{"activation", "sigmoid"}}, "parameter activation: bad value 'sigmoid'"},
      {{{"optimizer", "rmsprop"}}, "parameter optimizer"},
      {{{"learning_rate", "0"}}, "parameter learning_rate: bad value '0'"},
      {{{"momentum", "1"}}, "parameter momentum"},
      {{{"batch_size", "0"}}, "parameter batch_size: bad value '0'"},
      {{{"batch_size", "64x"}}, "parameter batch_size"},
      {{{"epochs", "-1"}}, "parameter epochs"},
      {{{"bucket_bytes", "10"}}, "parameter bucket_bytes"},
      {{{"objective", "rank:pairwise"}}, "parameter objective"},
      {{{"objective", "multi:softmax"}}, "num_class"},
      {{{"objective", "binary:logistic"}, {"num_class", "3"}}, "num_class"},
      {{{"max_depth", "6"}}, "unknown parameter 'max_depth'"},
  };
  for (const auto& [kv, want] : cases) {
    KV full = kv;
    if (kv[0].first != "objective" && kv[0].first != "num_class")
      full.insert(full.begin(), {"num_class", "3"});
    auto p = MlpParam::Parse(full);
    ASSERT_FALSE(p.ok()) << want;
    EXPECT_EQ(p.status().code(), StatusCode::kInvalidInput);
    EXPECT_NE(p.status().message().find(want), std::string::npos) << p.status().message();
  }
}

TEST(MlpParam, EveryKeyIsDocumented) {
  for (const ParamDoc& d : MlpParam::Params()) {
    EXPECT_FALSE(d.description.empty()) << d.key;
  }
  EXPECT_GE(MlpParam::Params().size(), 20u);
}

TEST(LearningRate, WarmsUpThenFollowsTheSchedule) {
  MlpParam p;
  p.learning_rate = 0.1;
  p.epochs = 10;
  p.warmup_epochs = 1;
  p.lr_scaling = true;
  const std::int64_t spe = 100;
  EXPECT_NEAR(LearningRateAt(p, 0, spe, 1), 0.001, 1e-12);  // step 1 of 100 of the ramp
  EXPECT_NEAR(LearningRateAt(p, 99, spe, 1), 0.1, 1e-12);
  EXPECT_NEAR(LearningRateAt(p, 99, spe, 4), 0.2, 1e-12);    // sqrt(4) x
  EXPECT_NEAR(LearningRateAt(p, 549, spe, 1), 0.05, 1e-12);  // cosine half-way after warm-up
  EXPECT_NEAR(LearningRateAt(p, 999, spe, 1), 0.0, 1e-12);
  p.lr_schedule = LrSchedule::kStep;
  p.lr_step_epochs = 3;
  p.lr_step_gamma = 0.5;
  EXPECT_NEAR(LearningRateAt(p, 250, spe, 1), 0.1, 1e-12);
  EXPECT_NEAR(LearningRateAt(p, 350, spe, 1), 0.05, 1e-12);
  EXPECT_NEAR(LearningRateAt(p, 650, spe, 1), 0.025, 1e-12);
  p.lr_schedule = LrSchedule::kConstant;
  p.lr_scaling = false;
  EXPECT_NEAR(LearningRateAt(p, 900, spe, 4), 0.1, 1e-12);
}

}  // namespace
}  // namespace treering::booster::mlp
