// LSD radix sort of floats (ascending, -0 before +0; NaN never reaches here because a
// LibSVM value is a number). Sketching sorts every feature column once; for 1M values this
// is several times faster than std::sort.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <utility>
#include <vector>

namespace treering::booster {

// The float's bits turned so that unsigned order is float order (-0 just below +0).
inline std::uint32_t OrderedBits(float v) {
  std::uint32_t b;
  std::memcpy(&b, &v, sizeof(b));
  return (b & 0x80000000u) ? ~b : (b | 0x80000000u);
}

inline float FromOrderedBits(std::uint32_t b) {
  b = (b & 0x80000000u) ? (b & 0x7fffffffu) : ~b;
  float v;
  std::memcpy(&v, &b, sizeof(v));
  return v;
}

// Sorts keys[0, n) ascending and returns where the sorted keys are: `keys` or `tmp` (room for
// n keys), whichever the last pass wrote, so no copy back is needed. Three passes of 11, 11
// and 10 bits (2048 buckets still fit in L1 with their write positions); the three digit
// histograms come from one read of the keys, and a digit every key shares is skipped, so a
// column of few distinct values costs fewer passes.
inline const std::uint32_t* RadixSortKeys(std::uint32_t* keys, std::size_t n, std::uint32_t* tmp) {
  constexpr int kBits = 11;
  constexpr std::uint32_t kMask = (1u << kBits) - 1;
  std::vector<std::size_t> count(3 * (kMask + 2), 0);
  std::size_t* c0 = count.data();
  std::size_t* c1 = c0 + kMask + 2;
  std::size_t* c2 = c1 + kMask + 2;
  for (std::size_t i = 0; i < n; ++i) {
    const std::uint32_t k = keys[i];
    ++c0[(k & kMask) + 1];
    ++c1[((k >> kBits) & kMask) + 1];
    ++c2[(k >> (2 * kBits)) + 1];
  }
  std::uint32_t* from = keys;
  std::uint32_t* to = tmp;
  for (int digit = 0; digit < 3 && n > 0; ++digit) {
    const int shift = kBits * digit;
    std::size_t* c = count.data() + digit * (kMask + 2);
    if (c[((from[0] >> shift) & kMask) + 1] == n) continue;  // every key has this digit
    for (std::uint32_t d = 0; d <= kMask; ++d) c[d + 1] += c[d];
    for (std::size_t i = 0; i < n; ++i) {
      const std::uint32_t k = from[i];
      to[c[(k >> shift) & kMask]++] = k;
    }
    std::swap(from, to);
  }
  return from;
}

inline void RadixSortFloats(std::vector<float>* values) {
  const std::size_t n = values->size();
  std::vector<std::uint32_t> keys(n), tmp(n);
  for (std::size_t i = 0; i < n; ++i) keys[i] = OrderedBits((*values)[i]);
  const std::uint32_t* sorted = RadixSortKeys(keys.data(), n, tmp.data());
  for (std::size_t i = 0; i < n; ++i) (*values)[i] = FromOrderedBits(sorted[i]);
}

}  // namespace treering::booster
