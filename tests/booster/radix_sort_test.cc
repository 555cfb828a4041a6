// RadixSortKeys (booster/tree/sketch/radix_sort.cc) against std::sort of the same keys, on both of
// its shapes: short columns (three LSD passes) and long ones (split by the top 11 bits of the
// key range, each part sorted on its own), at the sizes around the switch and on the key
// distributions that change how the split falls: a range narrower than 2048 keys (the split
// alone sorts), all keys equal, float columns with negatives and both zeros, heavy duplicates,
// and an outlier that puts nearly every key into one part.
#include "booster/tree/sketch/radix_sort.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

namespace treering::booster {
namespace {

void ExpectSorts(std::vector<std::uint32_t> keys, const std::string& what) {
  std::vector<std::uint32_t> want = keys;
  std::sort(want.begin(), want.end());
  std::vector<std::uint32_t> tmp(keys.size());
  const std::uint32_t* sorted = RadixSortKeys(keys.data(), keys.size(), tmp.data());
  ASSERT_TRUE(sorted == keys.data() || sorted == tmp.data()) << what;
  ASSERT_TRUE(std::equal(want.begin(), want.end(), sorted)) << what << ", " << keys.size();
}

std::vector<std::uint32_t> Make(std::size_t n, const std::function<std::uint32_t()>& next) {
  std::vector<std::uint32_t> keys(n);
  for (auto& k : keys) k = next();
  return keys;
}

TEST(RadixSortKeys, MatchesStdSortOnEveryShape) {
  std::mt19937_64 rng(7);
  std::normal_distribution<float> normal(0.0f, 3.0f);
  std::exponential_distribution<float> expo(1.5f);
  const std::vector<std::pair<std::string, std::function<std::uint32_t()>>> shapes = {
      {"uniform 32-bit", [&] { return static_cast<std::uint32_t>(rng()); }},
      {"range of 1000", [&] { return 123456u + static_cast<std::uint32_t>(rng() % 1000); }},
      {"range of 5000", [&] { return 99u + static_cast<std::uint32_t>(rng() % 5000); }},
      {"all equal", [&] { return 42u; }},
      {"normal floats, both zeros",
       [&] {
         const std::uint64_t r = rng() % 50;
         return OrderedBits(r == 0 ? -0.0f : r == 1 ? 0.0f : normal(rng));
       }},
      {"rounded floats (duplicates)", [&] { return OrderedBits(std::round(normal(rng))); }},
      {"exponential floats", [&] { return OrderedBits(expo(rng)); }},
      {"one outlier",
       [&] {
         return rng() % 100000 == 0 ? 0xFFFFFFF0u
                                    : 1000000u + static_cast<std::uint32_t>(rng() % 3000000);
       }},
  };
  const std::vector<std::size_t> sizes = {0, 1, 2, 65, 65535, 65536, 65537, 300000};
  for (const auto& [name, next] : shapes) {
    for (std::size_t n : sizes) ExpectSorts(Make(n, next), name);
  }
}

TEST(RadixSortKeys, TheExtremeKeysAndAFullRange) {
  std::mt19937_64 rng(11);
  std::vector<std::uint32_t> keys(100000);
  for (auto& k : keys) k = static_cast<std::uint32_t>(rng());
  keys[5] = 0;
  keys[6] = 0xFFFFFFFFu;
  keys[7] = 0xFFFFFFFFu;
  ExpectSorts(keys, "0 and 2^32-1 present");
}

}  // namespace
}  // namespace treering::booster
