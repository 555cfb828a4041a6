// XGBoost's float spellings: the JSON form must read back to the same float32 and match the
// digits XGBoost 1.7.4 wrote in the sample model; %.9g matches its dumps and parameters.
#include "booster/number_format.h"

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <random>

#include <gtest/gtest.h>

namespace treering::booster {
namespace {

TEST(NumberFormat, XgbJsonSpellingsFromTheSampleModel) {
  EXPECT_EQ(FloatToXgbJson(0.5f), "5E-1");
  EXPECT_EQ(FloatToXgbJson(10.0f), "1E1");
  EXPECT_EQ(FloatToXgbJson(0.0f), "0E0");
  EXPECT_EQ(FloatToXgbJson(1.7611573f), "1.7611573E0");
  EXPECT_EQ(FloatToXgbJson(-0.03179714f), "-3.179714E-2");
  EXPECT_EQ(FloatToXgbJson(-2.0694142e-8f), "-2.0694142E-8");
  EXPECT_EQ(FloatToXgbJson(10800.0f), "1.08E4");
}

TEST(NumberFormat, XgbJsonAlwaysTypedAsFloatAndRoundTrips) {
  std::mt19937 rng(7);
  for (int i = 0; i < 200000; ++i) {
    std::uint32_t bits = rng();
    float f;
    std::memcpy(&f, &bits, sizeof(f));
    if (!std::isfinite(f)) continue;
    const std::string s = FloatToXgbJson(f);
    ASSERT_NE(s.find('E'), std::string::npos) << s;
    // The loader goes through double (nlohmann); the value must survive that path exactly.
    const float back = static_cast<float>(std::strtod(s.c_str(), nullptr));
    ASSERT_EQ(std::memcmp(&back, &f, sizeof(f)), 0) << s;
  }
}

TEST(NumberFormat, NonFiniteSpelledAsXgboost) {
  EXPECT_EQ(FloatToXgbJson(std::nanf("")), "NaN");
  EXPECT_EQ(FloatToXgbJson(-INFINITY), "-Infinity");
}

TEST(NumberFormat, G9MatchesXgboostParamsAndDumps) {
  EXPECT_EQ(FloatToG9(0.1f), "0.100000001");  // scale_pos_weight=0.1 as python-xgboost saves it
  EXPECT_EQ(FloatToG9(1.0f), "1");
  EXPECT_EQ(FloatToG9(0.7f), "0.699999988");       // count:poisson max_delta_step default
  EXPECT_EQ(FloatToG9(6290.0215f), "6290.02148");  // gain in the sample's text dump
  EXPECT_EQ(FloatToG9(-0.15215184f), "-0.152151838");
}

TEST(NumberFormat, PredictionLinesAreG9OnePerLine) {
  EXPECT_EQ(PredictionLines({}), "");
  EXPECT_EQ(PredictionLines({0.1f, 1.0f, -0.15215184f}), "0.100000001\n1\n-0.152151838\n");
}

}  // namespace
}  // namespace treering::booster
