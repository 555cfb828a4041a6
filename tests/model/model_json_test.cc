// XGBoost 1.7 JSON: the sample written by XGBoost 1.7.4 loads and saves back byte for byte;
// our own models survive save -> load unchanged; every number has the JSON type XGBoost needs.
#include <filesystem>
#include <limits>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "booster/atomic_file.h"
#include "booster/model_io.h"
#include "model_test_util.h"

namespace treering::booster {
namespace {

using testing::SampleModelText;
using testing::SmallModel;

TEST(ModelJson, LoadsXgboostSample) {
  auto model = ModelFromJson(SampleModelText(), "sample.json");
  ASSERT_TRUE(model.ok()) << model.status().message();
  EXPECT_EQ(model->objective, "multi:softmax");
  EXPECT_EQ(model->num_class, 10);
  EXPECT_EQ(model->num_feature, 784u);
  EXPECT_EQ(model->base_score, 0.5f);
  ASSERT_EQ(model->trees.size(), 30u);
  EXPECT_EQ(model->NumRounds(), 3);
  EXPECT_EQ(model->tree_info[13], 3);
  const RegTree& t = model->trees[0];
  ASSERT_EQ(t.NumNodes(), 15);
  EXPECT_EQ(t.parent[0], -1);  // 2147483647 in the file
  EXPECT_EQ(t.split_index[0], 89u);
  EXPECT_EQ(t.split_cond[0], 10.0f);
  EXPECT_TRUE(t.IsLeaf(7));
  EXPECT_EQ(t.split_cond[7], -1.5215184e-1f);
  EXPECT_EQ(t.sum_hess[0], 1.08e4f);
}

TEST(ModelJson, SampleSavesBackByteIdentical) {
  const std::string text = SampleModelText();
  auto model = ModelFromJson(text, "sample.json");
  ASSERT_TRUE(model.ok()) << model.status().message();
  auto saved = ModelToJson(model.value());
  ASSERT_TRUE(saved.ok()) << saved.status().message();
  EXPECT_EQ(saved.value(), text);
}

void ExpectSameTree(const RegTree& a, const RegTree& b) {
  EXPECT_EQ(a.left, b.left);
  EXPECT_EQ(a.right, b.right);
  EXPECT_EQ(a.parent, b.parent);
  EXPECT_EQ(a.split_index, b.split_index);
  EXPECT_EQ(a.split_cond, b.split_cond);
  EXPECT_EQ(a.default_left, b.default_left);
  EXPECT_EQ(a.base_weight, b.base_weight);
  EXPECT_EQ(a.loss_change, b.loss_change);
  EXPECT_EQ(a.sum_hess, b.sum_hess);
}

TEST(ModelJson, RoundTripKeepsEveryField) {
  const GBTreeModel m = SmallModel();
  auto text = ModelToJson(m);
  ASSERT_TRUE(text.ok()) << text.status().message();
  auto back = ModelFromJson(text.value(), "mem");
  ASSERT_TRUE(back.ok()) << back.status().message();
  EXPECT_EQ(back->objective, m.objective);
  EXPECT_EQ(back->base_score, m.base_score);
  EXPECT_EQ(back->num_feature, m.num_feature);
  EXPECT_EQ(back->num_class, m.num_class);
  EXPECT_EQ(back->scale_pos_weight, m.scale_pos_weight);
  EXPECT_EQ(back->tree_info, m.tree_info);
  EXPECT_EQ(back->attributes, m.attributes);
  ASSERT_EQ(back->trees.size(), m.trees.size());
  for (std::size_t i = 0; i < m.trees.size(); ++i) ExpectSameTree(back->trees[i], m.trees[i]);
  auto again = ModelToJson(back.value());
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(again.value(), text.value());
}

TEST(ModelJson, NumbersTypedAsXgboostRequires) {
  auto text = ModelToJson(SmallModel());
  ASSERT_TRUE(text.ok());
  const auto doc = nlohmann::json::parse(text.value());
  EXPECT_EQ(doc["version"], nlohmann::json::parse("[1,7,4]"));
  const auto& learner = doc["learner"];
  for (const auto& [key, value] : learner["learner_model_param"].items()) {
    EXPECT_TRUE(value.is_string()) << key;
  }
  EXPECT_EQ(learner["learner_model_param"]["base_score"], "3E-1");
  EXPECT_EQ(learner["objective"]["reg_loss_param"]["scale_pos_weight"], "2.5");
  const auto& tree = learner["gradient_booster"]["model"]["trees"][0];
  for (const char* key : {"split_conditions", "base_weights", "loss_changes", "sum_hessian"}) {
    for (const auto& v : tree[key]) EXPECT_TRUE(v.is_number_float()) << key;
  }
  for (const char* key : {"left_children", "right_children", "parents", "split_indices",
                          "default_left", "split_type"}) {
    for (const auto& v : tree[key]) EXPECT_TRUE(v.is_number_integer()) << key;
  }
  EXPECT_EQ(tree["parents"][0], 2147483647);
  EXPECT_TRUE(tree["id"].is_number_integer());
  EXPECT_EQ(tree["tree_param"]["num_nodes"], "5");
}

TEST(ModelJson, ObjectiveBlocksAsXgboostWritesThem) {
  GBTreeModel m;
  m.objective = "multi:softprob";
  m.num_class = 3;
  auto doc = nlohmann::json::parse(ModelToJson(m).value());
  EXPECT_EQ(doc["learner"]["objective"]["softmax_multiclass_param"]["num_class"], "3");
  EXPECT_EQ(doc["learner"]["learner_model_param"]["num_class"], "3");
  m = GBTreeModel{};
  m.objective = "count:poisson";
  doc = nlohmann::json::parse(ModelToJson(m).value());
  EXPECT_EQ(doc["learner"]["objective"]["poisson_regression_param"]["max_delta_step"],
            "0.699999988");
  m.objective = "reg:absoluteerror";
  doc = nlohmann::json::parse(ModelToJson(m).value());
  EXPECT_EQ(doc["learner"]["objective"].size(), 1u);  // only "name", as XGBoost 1.7.4
}

TEST(ModelJson, SaveIsAtomicAndLeavesNoTemporaries) {
  const auto dir = std::filesystem::temp_directory_path() / "treering_model_json_test";
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  const std::string path = (dir / "m.json").string();
  ASSERT_TRUE(WriteFileAtomic(path, "old").ok());
  ASSERT_TRUE(SaveModelJson(SmallModel(), path).ok());
  auto back = LoadModelJson(path);
  ASSERT_TRUE(back.ok()) << back.status().message();
  EXPECT_EQ(back->trees.size(), 2u);
  EXPECT_EQ(std::distance(std::filesystem::directory_iterator(dir),
                          std::filesystem::directory_iterator()),
            1);
  const Status st = SaveModelJson(SmallModel(), (dir / "no-such-dir" / "m.json").string());
  EXPECT_EQ(st.code(), StatusCode::kIoError);
  EXPECT_NE(st.message().find("no-such-dir"), std::string::npos) << st.message();
  std::filesystem::remove_all(dir);
}

TEST(ModelJson, NonFiniteModelIsRefusedNotWritten) {
  GBTreeModel m = SmallModel();
  m.trees[1].split_cond[3] = std::numeric_limits<float>::infinity();
  auto text = ModelToJson(m);
  ASSERT_FALSE(text.ok());
  EXPECT_NE(text.status().message().find("tree 1"), std::string::npos);
}

// The checkpoint writer reuses formatted trees: growing the model a tree at a time through one
// writer gives, at every step, the bytes a fresh ModelToJson gives, and at the end the sample
// XGBoost wrote.
TEST(IncrementalModelJson, GrowingModelMatchesModelToJsonAtEveryStep) {
  const std::string text = SampleModelText();
  auto full = ModelFromJson(text, "sample.json");
  ASSERT_TRUE(full.ok()) << full.status().message();
  GBTreeModel grown = full.value();
  grown.trees.clear();
  grown.tree_info.clear();
  IncrementalModelJson writer;
  for (std::size_t i = 0; i <= full->trees.size(); ++i) {
    if (i > 0) {
      grown.trees.push_back(full->trees[i - 1]);
      grown.tree_info.push_back(full->tree_info[i - 1]);
    }
    std::string out = "prefix:";
    ASSERT_TRUE(writer.AppendTo(grown, &out).ok());
    auto fresh = ModelToJson(grown);
    ASSERT_TRUE(fresh.ok());
    EXPECT_EQ(out, "prefix:" + fresh.value()) << "after " << i << " trees";
  }
  std::string out;
  ASSERT_TRUE(writer.AppendTo(grown, &out).ok());
  EXPECT_EQ(out, text);
}

TEST(IncrementalModelJson, ReformatsWhatChangedAndFailsWithoutWriting) {
  auto model = ModelFromJson(SampleModelText(), "sample.json");
  ASSERT_TRUE(model.ok()) << model.status().message();
  GBTreeModel m = model.value();
  IncrementalModelJson writer;
  std::string out;
  ASSERT_TRUE(writer.AppendTo(m, &out).ok());
  // The feature count is inside every tree's text.
  m.num_feature = 900;
  out.clear();
  ASSERT_TRUE(writer.AppendTo(m, &out).ok());
  EXPECT_EQ(out, ModelToJson(m).value());
  // A tree replaced by one of another size.
  const RegTree other = SmallModel().trees[0];
  ASSERT_NE(other.NumNodes(), m.trees[3].NumNodes());
  m.trees[3] = other;
  out.clear();
  ASSERT_TRUE(writer.AppendTo(m, &out).ok());
  EXPECT_EQ(out, ModelToJson(m).value());
  // A model XGBoost could not load: an error, nothing appended; fixed, it writes again.
  const float kept = m.trees[5].split_cond[0];
  m.trees[5].split_cond[0] = std::numeric_limits<float>::infinity();
  m.trees[5].left.push_back(-1);  // new node count: the tree must be checked again
  out = "x";
  EXPECT_FALSE(writer.AppendTo(m, &out).ok());
  EXPECT_EQ(out, "x");
  m.trees[5].split_cond[0] = kept;
  m.trees[5].left.pop_back();
  out.clear();
  ASSERT_TRUE(writer.AppendTo(m, &out).ok());
  EXPECT_EQ(out, ModelToJson(m).value());
}

}  // namespace
}  // namespace treering::booster
