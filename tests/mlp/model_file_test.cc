// The MLP model file: round trip, and every kind of damage is a one-line user error.
#include "booster/mlp/model_file.h"

#include <gtest/gtest.h>

namespace treering::booster::mlp {
namespace {

MlpModel SmallModel() {
  MlpModel m;
  m.widths = {3, 4, 2};
  m.activation = Activation::kTanh;
  m.objective = "multi:softprob";
  m.num_class = 2;
  m.optimizer = OptimizerKind::kAdam;
  m.seed = 9;
  m.scaling = {{1.0f, 0.5f, 2.0f}, {0.0f, 0.1f, -0.2f}};
  const Architecture arch(m.widths, m.activation);
  m.state.params = InitialParams(arch, 1);
  m.state.slots = {std::vector<float>(arch.NumParams(), 0.25f),
                   std::vector<float>(arch.NumParams(), 0.5f)};
  m.state.steps = 77;
  m.state.epochs_done = 3;
  return m;
}

TEST(MlpModelFile, RoundTripsEverything) {
  const MlpModel m = SmallModel();
  auto back = ParseModel(SerializeModel(m), "m.mlp");
  ASSERT_TRUE(back.ok()) << back.status().message();
  EXPECT_EQ(back->widths, m.widths);
  EXPECT_EQ(back->activation, m.activation);
  EXPECT_EQ(back->objective, m.objective);
  EXPECT_EQ(back->num_class, 2);
  EXPECT_EQ(back->optimizer, OptimizerKind::kAdam);
  EXPECT_EQ(back->seed, 9);
  EXPECT_EQ(back->scaling.inv_std, m.scaling.inv_std);
  EXPECT_EQ(back->scaling.center, m.scaling.center);
  EXPECT_EQ(back->state.params, m.state.params);
  EXPECT_EQ(back->state.slots, m.state.slots);
  EXPECT_EQ(back->state.steps, 77);
  EXPECT_EQ(back->state.epochs_done, 3);
}

TEST(MlpModelFile, StartsWithMagicAndHeaderLength) {
  const std::string bytes = SerializeModel(SmallModel());
  EXPECT_EQ(bytes.substr(0, 8), "TRRMLP01");
  std::uint64_t len = 0;
  for (int i = 0; i < 8; ++i)
    len |= std::uint64_t(static_cast<unsigned char>(bytes[8 + i])) << (8 * i);
  EXPECT_EQ(bytes[16], '{');
  EXPECT_EQ(bytes[16 + len - 1], '}');
}

TEST(MlpModelFile, DamageIsAnInvalidInputNamingTheFile) {
  const std::string good = SerializeModel(SmallModel());
  std::string flipped = good;
  flipped[good.size() / 2] ^= 0x10;
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"", "bad magic"},
      {"TRRMLP02" + good.substr(8), "bad magic"},
      {good.substr(0, good.size() - 3), "checksum"},
      {flipped, "checksum"},
      {"{\"learner\": {}}", "bad magic"},
  };
  for (const auto& [bytes, what] : cases) {
    auto m = ParseModel(bytes, "broken.mlp");
    ASSERT_FALSE(m.ok());
    EXPECT_EQ(m.status().code(), StatusCode::kInvalidInput);
    EXPECT_NE(m.status().message().find("broken.mlp"), std::string::npos);
    EXPECT_NE(m.status().message().find(what), std::string::npos) << m.status().message();
  }
}

TEST(MlpModelFile, MissingFileIsAnInvalidInput) {
  auto m = LoadModelFile("/nonexistent/dir/model.mlp");
  ASSERT_FALSE(m.ok());
  EXPECT_EQ(m.status().code(), StatusCode::kInvalidInput);
}

}  // namespace
}  // namespace treering::booster::mlp
