// Radix sort of floats (ascending, -0 before +0; NaN never reaches here because a LibSVM
// value is a number). Sketching sorts every feature column once; for 1M values this is
// several times faster than std::sort.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
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
// n keys), whichever the last pass wrote, so no copy back is needed (radix_sort.cc). Columns
// that fit in cache take three LSD passes of 11, 11 and 10 bits; a longer column is first split
// by its top 11 bits of the key range and each part then sorted in cache.
const std::uint32_t* RadixSortKeys(std::uint32_t* keys, std::size_t n, std::uint32_t* tmp);

inline void RadixSortFloats(std::vector<float>* values) {
  const std::size_t n = values->size();
  std::vector<std::uint32_t> keys(n), tmp(n);
  for (std::size_t i = 0; i < n; ++i) keys[i] = OrderedBits((*values)[i]);
  const std::uint32_t* sorted = RadixSortKeys(keys.data(), n, tmp.data());
  for (std::size_t i = 0; i < n; ++i) (*values)[i] = FromOrderedBits(sorted[i]);
}

}  // namespace treering::booster
