// Bad model files give one clear error naming the source and the JSON path of the bad field,
// and no input (truncated, mutated) crashes the loader.
#include <functional>
#include <random>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "booster/model_io.h"
#include "model_test_util.h"

namespace treering::booster {
namespace {

std::string SmallModelText() { return ModelToJson(testing::SmallModel()).value(); }

// Applies `edit` to the small model's JSON and returns the loader's error message.
std::string ErrorAfter(const std::function<void(nlohmann::json&)>& edit) {
  auto doc = nlohmann::json::parse(SmallModelText());
  edit(doc);
  auto model = ModelFromJson(doc.dump(), "bad.json");
  EXPECT_FALSE(model.ok());
  if (model.ok()) return "";
  EXPECT_EQ(model.status().code(), StatusCode::kInvalidInput);
  EXPECT_EQ(model.status().message().find('\n'), std::string::npos);  // one line
  return model.status().message();
}

nlohmann::json& Tree0(nlohmann::json& doc) {
  return doc["learner"]["gradient_booster"]["model"]["trees"][0];
}

TEST(ModelErrors, NotJsonNamesSourceAndPosition) {
  auto model = ModelFromJson("{\"learner\": [1,", "m.json");
  ASSERT_FALSE(model.ok());
  EXPECT_EQ(model.status().message().rfind("m.json: not valid JSON: parse error at line 1", 0), 0u)
      << model.status().message();
}

TEST(ModelErrors, MissingFieldNamesPath) {
  EXPECT_EQ(ErrorAfter([](auto& d) { d["learner"].erase("attributes"); }),
            "bad.json: /learner: missing required field \"attributes\"");
  EXPECT_EQ(ErrorAfter([](auto& d) { Tree0(d).erase("sum_hessian"); }),
            "bad.json: /learner/gradient_booster/model/trees/0: missing required field "
            "\"sum_hessian\"");
}

TEST(ModelErrors, WrongTypesNamePath) {
  EXPECT_EQ(ErrorAfter([](auto& d) { Tree0(d)["left_children"][1] = 3.0; }),
            "bad.json: /learner/gradient_booster/model/trees/0/left_children/1: expected an "
            "integer, got a float");
  EXPECT_EQ(ErrorAfter([](auto& d) { d["learner"]["learner_model_param"]["num_class"] = 3; }),
            "bad.json: /learner/learner_model_param/num_class: expected a string, got an integer");
  EXPECT_EQ(ErrorAfter([](auto& d) { d["learner"]["learner_model_param"]["base_score"] = "x"; }),
            "bad.json: /learner/learner_model_param/base_score: expected a finite number in a "
            "string, got \"x\"");
}

TEST(ModelErrors, RangesAndLengthsNamePath) {
  EXPECT_EQ(ErrorAfter([](auto& d) { Tree0(d)["right_children"][0] = 99; }),
            "bad.json: /learner/gradient_booster/model/trees/0/right_children/0: 99 is out of "
            "range [-1, 4]");
  EXPECT_EQ(ErrorAfter([](auto& d) { Tree0(d)["base_weights"].erase(0); }),
            "bad.json: /learner/gradient_booster/model/trees/0/base_weights: has 4 entries, "
            "num_nodes is 5");
  EXPECT_EQ(ErrorAfter([](auto& d) { Tree0(d)["split_indices"][1] = 3; }),
            "bad.json: /learner/gradient_booster/model/trees/0: node 1: splits on feature 3 but "
            "num_feature is 3");
  EXPECT_EQ(
      ErrorAfter([](auto& d) { d["learner"]["gradient_booster"]["model"]["tree_info"] = {0}; }),
      "bad.json: /learner/gradient_booster/model/tree_info: has 1 entries for 2 trees");
}

TEST(ModelErrors, BrokenLinksAreRejected) {
  // Node 1's left child pointing back at the root would make prediction loop forever.
  EXPECT_NE(ErrorAfter([](auto& d) { Tree0(d)["left_children"][1] = 0; }).find("reached twice"),
            std::string::npos);
  EXPECT_NE(ErrorAfter([](auto& d) { Tree0(d)["right_children"][1] = -1; }).find("one child"),
            std::string::npos);
  EXPECT_NE(ErrorAfter([](auto& d) { Tree0(d)["parents"][3] = 2; }).find("node 3: parent is 2"),
            std::string::npos);
}

TEST(ModelErrors, UnsupportedFeaturesAreNamed) {
  EXPECT_NE(ErrorAfter([](auto& d) {
              d["learner"]["gradient_booster"]["name"] = "gblinear2";
            }).find("booster \"gblinear2\" is not supported"),
            std::string::npos);
  EXPECT_NE(ErrorAfter([](auto& d) { Tree0(d)["split_type"][0] = 1; }).find("categorical"),
            std::string::npos);
}

TEST(ModelErrors, MissingFileIsUserError) {
  auto model = LoadModelJson("/nonexistent/dir/model.json");
  ASSERT_FALSE(model.ok());
  EXPECT_EQ(model.status().code(), StatusCode::kInvalidInput);
  EXPECT_NE(model.status().message().find("/nonexistent/dir/model.json"), std::string::npos);
}

TEST(ModelErrors, DeepNestingIsAnErrorNotAStackOverflow) {
  const std::size_t depth = 200000;
  auto closed = ModelFromJson(std::string(depth, '[') + std::string(depth, ']'), "deep.json");
  ASSERT_FALSE(closed.ok());
  EXPECT_EQ(closed.status().message(), "deep.json: /: expected an object, got an array");
  EXPECT_FALSE(ModelFromJson("{\"learner\":" + std::string(depth, '['), "open.json").ok());
}

TEST(ModelErrors, TruncatedFilesNeverLoadOrCrash) {
  const std::string text = SmallModelText();
  for (std::size_t len = 0; len < text.size(); ++len) {
    EXPECT_FALSE(ModelFromJson(text.substr(0, len), "t.json").ok()) << len;
  }
}

TEST(ModelErrors, MutatedFilesNeverCrash) {
  const std::string text = SmallModelText();
  const std::string alphabet = "0123456789-.eE,[]{}\":ab ";
  std::mt19937 rng(11);
  for (int trial = 0; trial < 5000; ++trial) {
    std::string mutated = text;
    for (int k = 0; k < 3; ++k) mutated[rng() % mutated.size()] = alphabet[rng() % alphabet.size()];
    auto model = ModelFromJson(mutated, "m.json");
    if (model.ok()) (void)ModelToJson(model.value());  // whatever loads must also save
  }
}

}  // namespace
}  // namespace treering::booster
