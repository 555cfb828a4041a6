// LSD radix sort of floats (ascending, -0 before +0; NaN never reaches here because a
// LibSVM value is a number). Sketching sorts every feature column once; for 1M values this
// is several times faster than std::sort.
#pragma once

#include <cstdint>
#include <cstring>
#include <vector>

namespace treering::booster {

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

inline void RadixSortFloats(std::vector<float>* values) {
  const std::size_t n = values->size();
  std::vector<std::uint32_t> keys(n), tmp(n);
  for (std::size_t i = 0; i < n; ++i) keys[i] = OrderedBits((*values)[i]);
  for (int shift = 0; shift < 32; shift += 8) {
    std::size_t count[257] = {0};
    for (std::uint32_t k : keys) ++count[((k >> shift) & 0xffu) + 1];
    if (count[((keys.empty() ? 0 : keys[0]) >> shift & 0xffu) + 1] == n) continue;  // one digit
    for (int d = 0; d < 256; ++d) count[d + 1] += count[d];
    for (std::uint32_t k : keys) tmp[count[(k >> shift) & 0xffu]++] = k;
    keys.swap(tmp);
  }
  for (std::size_t i = 0; i < n; ++i) (*values)[i] = FromOrderedBits(keys[i]);
}

}  // namespace treering::booster
