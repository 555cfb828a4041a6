// RadixSortKeys (booster/radix_sort.h): the sketch sorts every feature column of every block
// once, 10M keys a column on the 10M-row set, where it was the largest part of the cuts.
//
// Why two shapes: an LSD pass reads and scatters the whole column, so three passes over a
// column far beyond cache stream it through memory three times. Split first by the top 11 bits
// of the column's key range (one counting pass and one scatter, after a pass for the range),
// each of the 2048 parts holds a few thousand keys on typical data and its own LSD passes run
// in L1/L2. A sorted array is a sorted array: both shapes give the same keys in the same order.
#include "booster/tree/sketch/radix_sort.h"

#include <algorithm>
#include <utility>

namespace treering::booster {
namespace {

constexpr int kDigitBits = 11;
constexpr std::uint32_t kDigits = 1u << kDigitBits;
// Below this many keys (256 KB) the LSD passes already run in cache.
constexpr std::size_t kSplitMinKeys = std::size_t{1} << 16;
// A part this small is sorted by comparison: counting digits would cost more than the keys.
constexpr std::size_t kSmallPart = 64;

// Three passes of 11, 11 and 10 bits (2048 buckets still fit in L1 with their write
// positions); the three digit histograms come from one read of the keys, and a digit every key
// shares is skipped, so a column of few distinct values costs fewer passes.
const std::uint32_t* LsdSort(std::uint32_t* keys, std::size_t n, std::uint32_t* tmp) {
  constexpr std::uint32_t kMask = kDigits - 1;
  std::vector<std::size_t> count(3 * (kMask + 2), 0);
  std::size_t* c0 = count.data();
  std::size_t* c1 = c0 + kMask + 2;
  std::size_t* c2 = c1 + kMask + 2;
  for (std::size_t i = 0; i < n; ++i) {
    const std::uint32_t k = keys[i];
    ++c0[(k & kMask) + 1];
    ++c1[((k >> kDigitBits) & kMask) + 1];
    ++c2[(k >> (2 * kDigitBits)) + 1];
  }
  std::uint32_t* from = keys;
  std::uint32_t* to = tmp;
  for (int digit = 0; digit < 3 && n > 0; ++digit) {
    const int shift = kDigitBits * digit;
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

// One part of a split column: its keys share everything above bit `bits` of (key - lo), so
// the LSD passes sort on the low `bits` (at most 21: two digits). Reads `from`, leaves the part
// sorted in `to` (`scratch`: room for the part); `counts` is reused between parts.
void SortPart(const std::uint32_t* from, std::size_t m, std::uint32_t lo, int bits,
              std::uint32_t* to, std::uint32_t* scratch, std::vector<std::size_t>* counts) {
  if (m <= kSmallPart) {
    std::copy(from, from + m, to);
    std::sort(to, to + m);
    return;
  }
  const int low_bits = (bits + 1) / 2;  // two digits: low_bits and bits - low_bits
  const int high_bits = bits - low_bits;
  const std::uint32_t low_mask = (1u << low_bits) - 1;
  const std::uint32_t high_mask = (1u << high_bits) - 1;  // the part's shared digit is above
  const std::size_t low_size = std::size_t{1} << low_bits;
  const std::size_t high_size = std::size_t{1} << high_bits;
  counts->assign(low_size + high_size + 2, 0);
  std::size_t* c_low = counts->data();
  std::size_t* c_high = c_low + low_size + 1;
  for (std::size_t i = 0; i < m; ++i) {
    const std::uint32_t k = from[i] - lo;
    ++c_low[(k & low_mask) + 1];
    ++c_high[((k >> low_bits) & high_mask) + 1];
  }
  for (std::size_t d = 0; d < low_size; ++d) c_low[d + 1] += c_low[d];
  for (std::size_t d = 0; d < high_size; ++d) c_high[d + 1] += c_high[d];
  for (std::size_t i = 0; i < m; ++i) {
    const std::uint32_t k = from[i];
    scratch[c_low[(k - lo) & low_mask]++] = k;
  }
  for (std::size_t i = 0; i < m; ++i) {
    const std::uint32_t k = scratch[i];
    to[c_high[((k - lo) >> low_bits) & high_mask]++] = k;
  }
}

}  // namespace

const std::uint32_t* RadixSortKeys(std::uint32_t* keys, std::size_t n, std::uint32_t* tmp) {
  if (n < kSplitMinKeys) return LsdSort(keys, n, tmp);
  std::uint32_t lo = keys[0], hi = keys[0];
  for (std::size_t i = 1; i < n; ++i) {
    lo = std::min(lo, keys[i]);
    hi = std::max(hi, keys[i]);
  }
  if (lo == hi) return keys;
  const int range_bits = 32 - __builtin_clz(hi - lo);  // hi - lo < 2^range_bits
  const int shift = std::max(0, range_bits - kDigitBits);
  std::vector<std::size_t> start(kDigits + 1, 0);
  for (std::size_t i = 0; i < n; ++i) ++start[((keys[i] - lo) >> shift) + 1];
  for (std::uint32_t d = 0; d < kDigits; ++d) start[d + 1] += start[d];
  std::vector<std::size_t> next(start.begin(), start.end() - 1);
  for (std::size_t i = 0; i < n; ++i) {
    const std::uint32_t k = keys[i];
    tmp[next[(k - lo) >> shift]++] = k;
  }
  if (shift == 0) return tmp;  // the split alone sorted them
  // Each part from tmp through keys (scratch) back into tmp: the result is in tmp.
  std::vector<std::size_t> counts;
  for (std::uint32_t d = 0; d < kDigits; ++d) {
    const std::size_t b = start[d], m = start[d + 1] - b;
    if (m > 1) SortPart(tmp + b, m, lo, shift, tmp + b, keys + b, &counts);
  }
  return tmp;
}

}  // namespace treering::booster
