// gblinear models in the three formats against the files python3-xgboost 1.7.4 wrote for a
// 3-feature, 3-round reg:squarederror model (data/xgboost-1.7-gblinear.{json,ubj,model}): each
// loads, saves back byte-identical in every format, dumps as 1.7's get_dump; malformed weights
// are refused naming the path.
#include <fstream>
#include <sstream>
#include <string>

#include <gtest/gtest.h>

#include "booster/model_dump.h"
#include "booster/model_formats.h"
#include "booster/model_io.h"

namespace treering::booster {
namespace {

std::string ReadData(const std::string& ext) {
  std::ifstream in(std::string(TREERING_MODEL_DATA) + "/xgboost-1.7-gblinear." + ext,
                   std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

TEST(LinearModel, XgboostFilesLoadAndSaveBackByteIdentical) {
  for (const std::string ext : {"json", "ubj", "model"}) {
    SCOPED_TRACE(ext);
    auto model = ParseModel(ReadData(ext), "m." + ext);
    ASSERT_TRUE(model.ok()) << model.status().message();
    EXPECT_TRUE(model->linear);
    EXPECT_EQ(model->num_feature, 3u);
    ASSERT_EQ(model->linear_weights.size(), 4u);  // 3 weights, then the bias
    EXPECT_EQ(model->linear_weights[3], -8.393712E-2f);
    // The legacy binary format keeps no round count (XGBoost reads 0 too).
    EXPECT_EQ(model->linear_rounds, ext == "model" ? 0 : 3);
    if (ext == "model") model->linear_rounds = 3;
    for (const std::string out : {"json", "ubj", "model"}) {
      auto bytes = SerializeModelAs(model.value(), ModelFormatForPath("x." + out));
      ASSERT_TRUE(bytes.ok());
      EXPECT_TRUE(bytes.value() == ReadData(out)) << ext << " -> " << out;
    }
  }
}

TEST(LinearModel, DumpsAsXgboost) {
  auto model = ModelFromJson(ReadData("json"), "m.json");
  ASSERT_TRUE(model.ok());
  EXPECT_EQ(DumpTrees(model.value(), DumpFormat::kText, false),
            std::vector<std::string>{"bias:\n-0.0839371\nweight:\n0.748247\n1.62964\n-0.753044\n"});
  EXPECT_EQ(DumpTrees(model.value(), DumpFormat::kJson, false),
            std::vector<std::string>{
                "  { \"bias\": [\n      -0.0839371\n    ],\n    \"weight\": [\n      0.748247,\n"
                "      1.62964,\n      -0.753044\n    ]\n  }"});
}

TEST(LinearModel, WrongWeightCountNamesThePath) {
  std::string text = ReadData("json");
  const std::string weights = "-8.393712E-2]";
  text.replace(text.find(weights), weights.size(), "-8.393712E-2,1E0]");
  auto model = ModelFromJson(text, "m.json");
  ASSERT_FALSE(model.ok());
  EXPECT_NE(model.status().message().find("m.json: /learner/gradient_booster/model/weights"),
            std::string::npos)
      << model.status().message();
}

}  // namespace
}  // namespace treering::booster
