// Categorical splits in the model: XGBoost 1.7's Decision (in the set -> right), the JSON and
// UBJSON fields written and read back, XGBoost's bare NaN conditions, and malformed fields as
// one-line errors. Peer checks (python3-xgboost loads these files) are in
// tests/cli/categorical_test.py.
#include <cmath>
#include <functional>
#include <limits>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "booster/model_dump.h"
#include "booster/model_formats.h"
#include "booster/model_io.h"
#include "model_test_util.h"

namespace treering::booster {
namespace {

// The small model with its root (feature 2) made categorical: {1, 4} go right.
GBTreeModel CategoricalModel() {
  GBTreeModel m = testing::SmallModel();
  m.trees[0].categories[0] = {1, 4};
  m.trees[0].split_cond[0] = std::numeric_limits<float>::quiet_NaN();
  m.trees[1].categories[1] = {0};
  m.trees[1].split_cond[1] = std::numeric_limits<float>::quiet_NaN();
  m.feature_types = {"q", "c", "c"};
  return m;
}

TEST(CategoricalModel, DecisionIsXgboostsCommonDecision) {
  const std::vector<std::int32_t> set = {1, 4, 70000};
  EXPECT_FALSE(CategoryGoesLeft(set, 1.0f));  // in the set: right
  EXPECT_FALSE(CategoryGoesLeft(set, 4.9f));  // truncated to 4
  EXPECT_FALSE(CategoryGoesLeft(set, 70000.0f));
  EXPECT_TRUE(CategoryGoesLeft(set, 2.0f));   // outside: left
  EXPECT_TRUE(CategoryGoesLeft(set, 0.5f));   // truncated to 0
  EXPECT_TRUE(CategoryGoesLeft(set, -1.0f));  // invalid: left
  EXPECT_TRUE(CategoryGoesLeft(set, -0.5f));  // negative, though it truncates to 0
  EXPECT_TRUE(CategoryGoesLeft(set, 16777216.0f));
  EXPECT_TRUE(CategoryGoesLeft(set, 1e30f));
}

TEST(CategoricalModel, JsonCarriesXgboostsFields) {
  auto text = ModelToJson(CategoricalModel());
  ASSERT_TRUE(text.ok()) << text.status().message();
  EXPECT_NE(text->find("\"split_conditions\":[NaN,"), std::string::npos);
  std::string parsed = *text;
  for (std::size_t p = parsed.find("NaN"); p != std::string::npos; p = parsed.find("NaN")) {
    parsed.replace(p, 3, "null");
  }
  const auto doc = nlohmann::json::parse(parsed);
  const auto& trees = doc["learner"]["gradient_booster"]["model"]["trees"];
  EXPECT_EQ(trees[0]["split_type"], nlohmann::json({1, 0, 0, 0, 0}));
  EXPECT_EQ(trees[0]["categories"], nlohmann::json({1, 4}));
  EXPECT_EQ(trees[0]["categories_nodes"], nlohmann::json({0}));
  EXPECT_EQ(trees[0]["categories_segments"], nlohmann::json({0}));
  EXPECT_EQ(trees[0]["categories_sizes"], nlohmann::json({2}));
  EXPECT_EQ(trees[1]["categories_nodes"], nlohmann::json({1}));
  EXPECT_EQ(doc["learner"]["feature_types"], nlohmann::json({"q", "c", "c"}));
}

void ExpectSameCategories(const GBTreeModel& a, const GBTreeModel& b) {
  ASSERT_EQ(a.trees.size(), b.trees.size());
  for (std::size_t i = 0; i < a.trees.size(); ++i) {
    EXPECT_EQ(a.trees[i].categories, b.trees[i].categories) << "tree " << i;
    for (int n = 0; n < a.trees[i].NumNodes(); ++n) {
      const float x = a.trees[i].split_cond[n], y = b.trees[i].split_cond[n];
      EXPECT_TRUE(x == y || (std::isnan(x) && std::isnan(y))) << "tree " << i << " node " << n;
    }
  }
  EXPECT_EQ(a.feature_types, b.feature_types);
}

TEST(CategoricalModel, JsonAndUbjsonRoundTrip) {
  const GBTreeModel m = CategoricalModel();
  auto back = ModelFromJson(ModelToJson(m).value(), "m.json");
  ASSERT_TRUE(back.ok()) << back.status().message();
  ExpectSameCategories(m, back.value());
  EXPECT_EQ(ModelToJson(back.value()).value(), ModelToJson(m).value());
  auto ubj = ModelToUbjson(m);
  ASSERT_TRUE(ubj.ok()) << ubj.status().message();
  auto from_ubj = ModelFromUbjson(ubj.value(), "m.ubj");
  ASSERT_TRUE(from_ubj.ok()) << from_ubj.status().message();
  ExpectSameCategories(m, from_ubj.value());
}

TEST(CategoricalModel, NaNInsideStringsIsKept) {
  GBTreeModel m = CategoricalModel();
  m.attributes["note"] = "NaN stays NaN";
  auto back = ModelFromJson(ModelToJson(m).value(), "m.json");
  ASSERT_TRUE(back.ok()) << back.status().message();
  EXPECT_EQ(back->attributes["note"], "NaN stays NaN");
}

TEST(CategoricalModel, LegacyBinaryRefusesCategoricalSplits) {
  auto bin = ModelToLegacyBinary(CategoricalModel());
  ASSERT_FALSE(bin.ok());
  EXPECT_NE(bin.status().message().find("categorical"), std::string::npos);
}

TEST(CategoricalModel, TextDumpAsXgboost) {
  const std::vector<std::string> dump =
      DumpTrees(CategoricalModel(), DumpFormat::kText, /*with_stats=*/false);
  // yes = the right child (the set), no = the left; feature by index without "f".
  EXPECT_EQ(dump.at(0).rfind("0:[2:{1,4}] yes=2,no=1,missing=1\n", 0), 0u) << dump.at(0);
}

std::string ErrorAfter(const std::function<void(nlohmann::json&)>& edit) {
  std::string text = ModelToJson(CategoricalModel()).value();
  for (std::size_t p = text.find("NaN"); p != std::string::npos; p = text.find("NaN")) {
    text.replace(p, 3, "null");
  }
  auto doc = nlohmann::json::parse(text);
  edit(doc);
  auto model = ModelFromJson(doc.dump(), "bad.json");
  EXPECT_FALSE(model.ok());
  if (model.ok()) return "";
  EXPECT_EQ(model.status().code(), StatusCode::kInvalidInput);
  EXPECT_EQ(model.status().message().find('\n'), std::string::npos);
  EXPECT_EQ(model.status().message().rfind("bad.json: ", 0), 0u) << model.status().message();
  return model.status().message();
}

nlohmann::json& Tree0(nlohmann::json& doc) {
  return doc["learner"]["gradient_booster"]["model"]["trees"][0];
}

TEST(CategoricalModel, MalformedFieldsAreOneLineErrors) {
  EXPECT_NE(ErrorAfter([](auto& d) {
              Tree0(d)["categories"] = {1, -4};
            }).find("categories"),
            std::string::npos);
  EXPECT_NE(ErrorAfter([](auto& d) { Tree0(d)["categories_sizes"] = {3}; }).find("run past"),
            std::string::npos);
  EXPECT_NE(ErrorAfter([](auto& d) { Tree0(d)["categories_sizes"] = {0}; }).find("sizes"),
            std::string::npos);
  EXPECT_NE(ErrorAfter([](auto& d) { Tree0(d)["split_type"][0] = 0; }).find("split_type"),
            std::string::npos);
  EXPECT_NE(ErrorAfter([](auto& d) { Tree0(d)["categories_nodes"] = {2}; }).find("split_type"),
            std::string::npos);
  // A leaf with a category set: split_type and categories moved to leaf 2.
  EXPECT_NE(ErrorAfter([](auto& d) {
              Tree0(d)["split_type"] = {0, 0, 1, 0, 0};
              Tree0(d)["categories_nodes"] = {2};
              Tree0(d)["split_conditions"][0] = 0.5;
            }).find("no split"),
            std::string::npos);
  // NaN (null) is a categorical node's condition only.
  EXPECT_NE(ErrorAfter([](auto& d) {
              Tree0(d)["split_conditions"][1] = nullptr;
            }).find("split_conditions"),
            std::string::npos);
  EXPECT_NE(ErrorAfter([](auto& d) {
              Tree0(d)["categories_nodes"] = {0, 1};
            }).find("length"),
            std::string::npos);
}

}  // namespace
}  // namespace treering::booster
