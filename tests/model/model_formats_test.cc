// UBJSON and the legacy binary format: every field survives save -> load in each format, the
// chain JSON -> UBJSON -> binary -> JSON gives back XGBoost's own bytes, the bytes follow
// XGBoost 1.7.4's layouts (checked at known offsets), and the path picks the format as
// XGBoost does. Cross-checks against python3-xgboost itself: xgboost_formats_test.py.
#include "booster/model_formats.h"

#include <cstring>
#include <string>

#include <gtest/gtest.h>

#include "booster/model_io.h"
#include "model_test_util.h"

namespace treering::booster {
namespace {

using testing::SampleModelText;
using testing::SmallModel;

void ExpectSameModel(const GBTreeModel& a, const GBTreeModel& b) {
  EXPECT_EQ(a.objective, b.objective);
  EXPECT_EQ(a.base_score, b.base_score);
  EXPECT_EQ(a.num_feature, b.num_feature);
  EXPECT_EQ(a.num_class, b.num_class);
  EXPECT_EQ(a.scale_pos_weight, b.scale_pos_weight);
  EXPECT_EQ(a.tree_info, b.tree_info);
  EXPECT_EQ(a.num_parallel_tree, b.num_parallel_tree);
  EXPECT_EQ(a.attributes, b.attributes);
  EXPECT_EQ(a.boost_from_average, b.boost_from_average);
  ASSERT_EQ(a.trees.size(), b.trees.size());
  for (std::size_t i = 0; i < a.trees.size(); ++i) {
    const RegTree& x = a.trees[i];
    const RegTree& y = b.trees[i];
    EXPECT_EQ(x.left, y.left);
    EXPECT_EQ(x.right, y.right);
    EXPECT_EQ(x.parent, y.parent);
    EXPECT_EQ(x.split_index, y.split_index);
    EXPECT_EQ(x.split_cond, y.split_cond);
    EXPECT_EQ(x.default_left, y.default_left);
    EXPECT_EQ(x.base_weight, y.base_weight);
    EXPECT_EQ(x.loss_change, y.loss_change);
    EXPECT_EQ(x.sum_hess, y.sum_hess);
  }
}

class EachFormat : public ::testing::TestWithParam<ModelFormat> {};

TEST_P(EachFormat, RoundTripKeepsEveryField) {
  GBTreeModel model = SmallModel();
  model.boost_from_average = false;
  auto bytes = SerializeModelAs(model, GetParam());
  ASSERT_TRUE(bytes.ok()) << bytes.status().message();
  auto back = ParseModel(bytes.value(), "m");
  ASSERT_TRUE(back.ok()) << back.status().message();
  ExpectSameModel(model, back.value());
  auto again = SerializeModelAs(back.value(), GetParam());
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(again.value(), bytes.value());
}

TEST_P(EachFormat, SampleSurvivesAndKeepsObjectiveBlock) {
  auto sample = ModelFromJson(SampleModelText(), "sample.json");
  ASSERT_TRUE(sample.ok());
  GBTreeModel model = sample.value();
  model.objective = "count:poisson";
  model.num_class = 0;
  model.tree_info.assign(model.trees.size(), 0);
  model.objective_param_block = "poisson_regression_param";
  model.objective_params = {{"max_delta_step", "0.5"}, {"unknown_key", "kept"}};
  auto bytes = SerializeModelAs(model, GetParam());
  ASSERT_TRUE(bytes.ok()) << bytes.status().message();
  auto back = ParseModel(bytes.value(), "m");
  ASSERT_TRUE(back.ok()) << back.status().message();
  ExpectSameModel(model, back.value());
  EXPECT_EQ(back->objective_params, model.objective_params);
}

// SmallModel's two trees as one round of a two-tree forest, and refused as a three-tree one
// (rounds must be whole, or every round count would truncate).
TEST_P(EachFormat, ForestKeepsTreesPerRound) {
  GBTreeModel model = SmallModel();
  model.num_parallel_tree = 2;
  auto bytes = SerializeModelAs(model, GetParam());
  ASSERT_TRUE(bytes.ok()) << bytes.status().message();
  auto back = ParseModel(bytes.value(), "m");
  ASSERT_TRUE(back.ok()) << back.status().message();
  ExpectSameModel(model, back.value());
  EXPECT_EQ(back->num_parallel_tree, 2);
  EXPECT_EQ(back->NumRounds(), 1);
  model.num_parallel_tree = 3;
  bytes = SerializeModelAs(model, GetParam());
  ASSERT_TRUE(bytes.ok());
  back = ParseModel(bytes.value(), "m");
  ASSERT_FALSE(back.ok());
  EXPECT_NE(back.status().message().find("num_parallel_tree"), std::string::npos)
      << back.status().message();
}

INSTANTIATE_TEST_SUITE_P(ModelFormats, EachFormat,
                         ::testing::Values(ModelFormat::kJson, ModelFormat::kUbjson,
                                           ModelFormat::kLegacyBinary));

TEST(ModelFormats, JsonToUbjsonToBinaryToJsonIsByteIdentical) {
  const std::string text = SampleModelText();
  auto json = ModelFromJson(text, "sample.json");
  ASSERT_TRUE(json.ok());
  auto ubj = ModelFromUbjson(ModelToUbjson(json.value()).value(), "m.ubj");
  ASSERT_TRUE(ubj.ok()) << ubj.status().message();
  auto bin = ModelFromLegacyBinary(ModelToLegacyBinary(ubj.value()).value(), "m.model");
  ASSERT_TRUE(bin.ok()) << bin.status().message();
  EXPECT_EQ(ModelToJson(bin.value()).value(), text);
}

std::uint32_t U32At(const std::string& b, std::size_t at) {
  std::uint32_t v = 0;
  for (int i = 3; i >= 0; --i) v = v << 8 | static_cast<unsigned char>(b[at + i]);
  return v;
}

// Offsets from XGBoost 1.7.4's structs (legacy_binary_layout.h): "binf", a 136-byte learner
// param, two length-prefixed names, a 160-byte gbtree param, then per tree 148 + 36 * nodes.
TEST(ModelFormats, LegacyBinaryFollowsXgboostLayout) {
  const GBTreeModel model = SmallModel();
  const std::string b = ModelToLegacyBinary(model).value();
  ASSERT_EQ(b.substr(0, 4), "binf");
  float base_score = 0;
  std::memcpy(&base_score, b.data() + 4, 4);
  EXPECT_EQ(base_score, 0.3f);
  EXPECT_EQ(U32At(b, 8), 3u);       // num_feature
  EXPECT_EQ(U32At(b, 4 + 20), 1u);  // major version
  EXPECT_EQ(U32At(b, 4 + 24), 7u);  // minor version
  EXPECT_EQ(U32At(b, 140), 15u);    // strlen("binary:logistic"), low word
  const std::size_t gbtree = 140 + 8 + 15 + 8 + 6;
  EXPECT_EQ(b.substr(gbtree - 6, 6), "gbtree");
  EXPECT_EQ(U32At(b, gbtree), 2u);  // num_trees
  const std::size_t tree0 = gbtree + 160;
  EXPECT_EQ(U32At(b, tree0 + 4), 5u);  // num_nodes
  const std::size_t node1 = tree0 + 148 + 20;
  EXPECT_EQ(U32At(b, tree0 + 148), 0xFFFFFFFFu);       // the root's parent
  EXPECT_EQ(U32At(b, node1), 0x80000000u);             // node 1: left child of 0
  EXPECT_EQ(U32At(b, node1 + 20), 0u);                 // node 2: right child of 0
  EXPECT_EQ(U32At(b, tree0 + 148 + 12), 0x80000002u);  // root: feature 2, missing left
  const std::size_t end = tree0 + 2 * (148 + 5 * 36) + 2 * 4;
  EXPECT_EQ(U32At(b, end), 4u);  // 3 attributes + "objective"
  EXPECT_NE(b.find("{\"name\":\"binary:logistic\",\"reg_loss_param\":{\"scale_pos_weight\":"
                   "\"2.5\"}}"),
            std::string::npos);
}

// XGBoost's CLI writes contain_eval_metrics = 1 and a "metrics" attribute into .model files.
TEST(ModelFormats, CliMetricsSurviveInBinaryOnly) {
  GBTreeModel model = SmallModel();
  model.eval_metrics = "auc;logloss;";
  const std::string b = ModelToLegacyBinary(model).value();
  EXPECT_EQ(U32At(b, 4 + 16), 1u);  // contain_eval_metrics
  auto back = ModelFromLegacyBinary(b, "m.model");
  ASSERT_TRUE(back.ok()) << back.status().message();
  EXPECT_EQ(back->eval_metrics, "auc;logloss;");
  EXPECT_EQ(back->attributes, model.attributes);  // not an attribute once loaded
  EXPECT_EQ(ModelToLegacyBinary(back.value()).value(), b);
  auto json = ModelFromJson(ModelToJson(back.value()).value(), "m.json");
  ASSERT_TRUE(json.ok());
  EXPECT_EQ(json->eval_metrics, "");  // XGBoost's JSON has no place for it either
}

TEST(ModelFormats, UbjsonUsesXgboostMarkers) {
  const std::string b = ModelToUbjson(SmallModel()).value();
  EXPECT_EQ(b.substr(0, 10), std::string("{L\0\0\0\0\0\0\0\x07", 10));
  // Typed arrays: float32 weights, int32 children, uint8 flags; version [1,7,4] as int8s.
  EXPECT_NE(b.find(std::string("base_weights[$d#L\0\0\0\0\0\0\0\x05", 25)), std::string::npos);
  EXPECT_NE(b.find(std::string("left_children[$l#L", 18)), std::string::npos);
  EXPECT_NE(b.find(std::string("default_left[$U#L", 17)), std::string::npos);
  EXPECT_EQ(b.substr(b.size() - 25),
            std::string("version[#L\0\0\0\0\0\0\0\x03i\x01i\x07i\x04}", 25));
}

TEST(ModelFormats, ExtensionPicksTheSaveFormat) {
  EXPECT_EQ(ModelFormatForPath("m.json"), ModelFormat::kJson);
  EXPECT_EQ(ModelFormatForPath("dir.json/m.ubj"), ModelFormat::kUbjson);
  EXPECT_EQ(ModelFormatForPath("0010.model"), ModelFormat::kLegacyBinary);
  EXPECT_EQ(ModelFormatForPath("model"), ModelFormat::kLegacyBinary);
  // XGBoost lower-cases the path and splits it at its last '.', directories included.
  EXPECT_EQ(ModelFormatForPath("m.JSON"), ModelFormat::kJson);
  EXPECT_EQ(ModelFormatForPath("M.Ubj"), ModelFormat::kUbjson);
  EXPECT_EQ(ModelFormatForPath(".json"), ModelFormat::kJson);
  EXPECT_EQ(ModelFormatForPath("dir.json/model"), ModelFormat::kLegacyBinary);
}

TEST(ModelFormats, LoadingLooksAtTheBytesFirst) {
  const GBTreeModel model = SmallModel();
  for (const ModelFormat f :
       {ModelFormat::kJson, ModelFormat::kUbjson, ModelFormat::kLegacyBinary}) {
    const std::string bytes = SerializeModelAs(model, f).value();
    for (const char* name : {"m.json", "m.ubj", "m.model"}) {
      EXPECT_EQ(DetectModelFormat(bytes, name), f) << name;
      EXPECT_TRUE(ParseModel(bytes, name).ok()) << name;
    }
  }
  // Headerless binary (XGBoost < 0.80) loads too.
  const std::string bin = ModelToLegacyBinary(model).value();
  auto old = ParseModel(bin.substr(4), "old.model");
  ASSERT_TRUE(old.ok()) << old.status().message();
  ExpectSameModel(model, old.value());
}

}  // namespace
}  // namespace treering::booster
