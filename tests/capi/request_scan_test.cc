// The fast scan of prediction configs and dense array interfaces (request_scan.h) must read
// every string it accepts exactly as the full parsers do, and give up on the rest.
#include "request_scan.h"

#include <cmath>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "api_error.h"
#include "array_interface.h"
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

TEST(RequestScan, DenseInterfacesReadAsTheFullParserReadsThem) {
  const std::vector<std::string> interfaces = {
      R"({"data": [140000000000, true], "shape": [1, 28], "strides": null, "typestr": "<f4", "version": 3})",
      R"({"version": 3, "typestr": "<f8", "shape": [5, 3], "data": [4096, false]})",
      R"({"data": [4096, true], "shape": [7], "typestr": "<f4", "version": 3})",
      R"({"data": [4096, true], "shape": [0, 4], "strides": null, "typestr": "<f4", "version": 3})",
  };
  for (const std::string& text : interfaces) {
    SCOPED_TRACE(text);
    ArrayInterface scanned;
    ASSERT_TRUE(ScanDenseInterface(text, &scanned));
    const ArrayInterface full = ParseArrayInterface(text, "values").value();
    EXPECT_EQ(scanned.data, full.data);
    EXPECT_EQ(scanned.rows, full.rows);
    EXPECT_EQ(scanned.cols, full.cols);
    EXPECT_EQ(scanned.dims, full.dims);
    EXPECT_EQ(scanned.row_stride, full.row_stride);
    EXPECT_EQ(scanned.col_stride, full.col_stride);
    EXPECT_EQ(scanned.type, full.type);
    EXPECT_EQ(scanned.item_bytes, full.item_bytes);
  }
  const std::vector<std::string> others = {
      R"({"data": [4096, true], "shape": [2, 3], "strides": [4, 8], "typestr": "<f4", "version": 3})",
      R"({"data": [4096, true], "shape": [2, 3], "typestr": "<i4", "version": 3})",
      R"({"data": [4096, true], "shape": [2, 3], "typestr": ">f4", "version": 3})",
      R"({"data": [0, true], "shape": [2, 3], "typestr": "<f4", "version": 3})",
      R"({"data": [4096, true], "shape": [2, 3, 4], "typestr": "<f4", "version": 3})",
      R"({"data": [4096, true], "shape": [2, 3], "typestr": "<f4", "version": 3, "mask": null})",
      R"({"data": [4096, true], "shape": [4611686018427387904, 4], "typestr": "<f4", "version": 3})",
  };
  for (const std::string& text : others) {
    ArrayInterface scanned;
    EXPECT_FALSE(ScanDenseInterface(text, &scanned)) << text;
  }
}

}  // namespace
}  // namespace treering::capi
