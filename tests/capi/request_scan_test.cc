// The fast scan of prediction configs (request_scan.h) must read every string it accepts
// exactly as the full parser does, and give up on the rest.
#include "request_scan.h"

#include <cmath>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "api_error.h"
#include "predict_request.h"

namespace treering::capi {
namespace {

// Full parse with the scan out of the way: the scan is tried first inside ParsePredictConfig,
// so compare against a config the scan gives up on (an escaped key it does not read).
PredictRequest FullParse(const std::string& config, bool inplace) {
  std::string slow = config;
  slow.insert(slow.find('{') + 1, "\"x\\u0041\": 1, ");
  return ParsePredictConfig(slow.c_str(), inplace);
}

void ExpectSame(const PredictRequest& a, const PredictRequest& b) {
  EXPECT_EQ(a.type, b.type);
  EXPECT_EQ(a.training, b.training);
  EXPECT_EQ(a.iteration_begin, b.iteration_begin);
  EXPECT_EQ(a.iteration_end, b.iteration_end);
  EXPECT_EQ(a.strict_shape, b.strict_shape);
  EXPECT_EQ(a.has_missing, b.has_missing);
  if (std::isnan(a.missing)) {
    EXPECT_TRUE(std::isnan(b.missing));
  } else {
    EXPECT_EQ(a.missing, b.missing);
  }
}

TEST(RequestScan, ConfigsReadAsTheFullParserReadsThem) {
  const std::vector<std::pair<std::string, bool>> configs = {
      {R"({"type": 0, "training": false, "iteration_begin": 0, "iteration_end": 0, "strict_shape": false})",
       false},
      {R"({"type": 6, "training": true, "iteration_begin": 0, "iteration_end": 3, "strict_shape": true, "ntree_limit": null})",
       false},
      {R"({"type":1,"training":false,"iteration_begin":2,"iteration_end":5,"strict_shape":false,"ntree_limit":0})",
       false},
      {R"({"type": 0, "training": false, "iteration_begin": 0, "iteration_end": 0, "strict_shape": false, "ntree_limit": 4})",
       false},
      {R"({"type": 1, "training": false, "iteration_begin": 0, "iteration_end": 0, "strict_shape": true, "missing": NaN, "cache_id": 0})",
       true},
      {R"({"type": 0, "iteration_begin": 1, "iteration_end": 2, "strict_shape": false, "missing": -999.5})",
       true},
      {R"( { "missing" : -Infinity , "type" : 0 , "iteration_begin" : 0 , "iteration_end" : 0 , "strict_shape" : false } )",
       true},
      {R"({"type": 0, "iteration_begin": 0, "iteration_end": 0, "strict_shape": false, "missing": 3})",
       true},
  };
  for (const auto& [config, inplace] : configs) {
    SCOPED_TRACE(config);
    PredictRequest scanned;
    ASSERT_TRUE(ScanPredictConfig(config, inplace, &scanned));
    ExpectSame(scanned, FullParse(config, inplace));
  }
}

TEST(RequestScan, GivesUpOnWhatItDoesNotDecide) {
  const std::vector<std::pair<std::string, bool>> configs = {
      {R"({"type": 7, "training": false, "iteration_begin": 0, "iteration_end": 0, "strict_shape": false})",
       false},
      {R"({"type": 0, "iteration_begin": 0, "iteration_end": 0, "strict_shape": false})", false},
      {R"({"type": 1.5, "training": false, "iteration_begin": 0, "iteration_end": 0, "strict_shape": false})",
       false},
      {R"({"type": 6, "iteration_begin": 0, "iteration_end": 0, "strict_shape": false, "missing": 0})",
       true},
      {R"({"type": 0, "iteration_begin": 0, "iteration_end": 0, "strict_shape": false})", true},
      {R"({"type": 0, "iteration_begin": 0, "iteration_end": 0, "strict_shape": false, "missing": 0, "cache_id": 2})",
       true},
      {R"({"type": 0, "training": false, "iteration_begin": 0, "iteration_end": 2, "strict_shape": false, "ntree_limit": 4})",
       false},
      {R"({"type": 0, "training": "no", "iteration_begin": 0, "iteration_end": 0, "strict_shape": false})",
       false},
      {R"({"type": 0, "training": false, "iteration_begin": 0, "iteration_end": 0, "strict_shape": false)",
       false},
      {R"({"type": 0, "training": false, "iteration_begin": 0, "iteration_end": 0, "strict_shape": false} x)",
       false},
      {R"([1, 2])", false},
  };
  for (const auto& [config, inplace] : configs) {
    PredictRequest scanned;
    EXPECT_FALSE(ScanPredictConfig(config, inplace, &scanned)) << config;
  }
}

}  // namespace
}  // namespace treering::capi
