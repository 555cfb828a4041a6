// PruneSortedKeys (the sketch's fast path) against the definition it replaces:
// Prune(MakeExactSummary(sorted values)), entry for entry and bit for bit.
#include <algorithm>
#include <cstring>
#include <random>

#include <gtest/gtest.h>

#include "booster/tree/sketch/quantile_summary.h"
#include "booster/tree/sketch/radix_sort.h"

namespace treering::booster {
namespace {

std::uint32_t Bits(float v) {
  std::uint32_t b;
  std::memcpy(&b, &v, sizeof(b));
  return b;
}

void ExpectSameSummary(const Summary& want, const Summary& got, const std::string& what) {
  ASSERT_EQ(want.size(), got.size()) << what;
  for (std::size_t i = 0; i < want.size(); ++i) {
    ASSERT_EQ(Bits(want[i].rmin), Bits(got[i].rmin)) << what << " entry " << i;
    ASSERT_EQ(Bits(want[i].rmax), Bits(got[i].rmax)) << what << " entry " << i;
    ASSERT_EQ(Bits(want[i].wmin), Bits(got[i].wmin)) << what << " entry " << i;
    ASSERT_EQ(Bits(want[i].value), Bits(got[i].value)) << what << " entry " << i;
  }
}

void ExpectMatchesDefinition(std::vector<float> values, const std::string& what) {
  std::vector<std::uint32_t> keys(values.size()), tmp(values.size());
  for (std::size_t i = 0; i < values.size(); ++i) keys[i] = OrderedBits(values[i]);
  const std::uint32_t* sorted = RadixSortKeys(keys.data(), keys.size(), tmp.data());
  RadixSortFloats(&values);
  const Summary exact = MakeExactSummary(values);
  for (std::size_t max_size : {1, 2, 3, 17, 257, 2048, 4000}) {
    ExpectSameSummary(Prune(exact, max_size), PruneSortedKeys(sorted, values.size(), max_size),
                      what + ", max_size " + std::to_string(max_size));
  }
}

TEST(SketchPrune, ContinuousValuesMatchPruneOfExactSummary) {
  std::mt19937 rng(11);
  std::normal_distribution<float> normal(0, 3);
  for (std::size_t n : {1, 2, 5, 1000, 30000, 200000}) {
    std::vector<float> v(n);
    for (auto& x : v) x = normal(rng);
    ExpectMatchesDefinition(v, "normal n=" + std::to_string(n));
  }
}

// Long runs, short runs, both zeros (one value for float ==), a heavy atom at one end.
TEST(SketchPrune, RunsAndSignedZerosMatchPruneOfExactSummary) {
  std::mt19937 rng(12);
  for (int cardinality : {2, 3, 50, 3000, 60000}) {
    std::vector<float> v(150000);
    for (std::size_t i = 0; i < v.size(); ++i) {
      const int r = static_cast<int>(rng() % cardinality) - cardinality / 2;
      v[i] = i % 7 == 0 ? (i % 2 ? -0.0f : 0.0f) : static_cast<float>(r) * 0.25f;
    }
    ExpectMatchesDefinition(v, "cardinality " + std::to_string(cardinality));
    std::vector<float> skewed = v;
    for (std::size_t i = 0; i < skewed.size(); i += 2) skewed[i] = 1e6f;  // half at the top
    ExpectMatchesDefinition(skewed, "top-heavy cardinality " + std::to_string(cardinality));
  }
}

TEST(SketchPrune, OnlyNegativeZerosOrOnlyPositiveZeros) {
  ExpectMatchesDefinition(std::vector<float>(100, -0.0f), "-0 only");
  std::vector<float> v(100, 0.0f);
  v.push_back(1);
  v.push_back(-1);
  ExpectMatchesDefinition(v, "+0 and two others");
}

}  // namespace
}  // namespace treering::booster
