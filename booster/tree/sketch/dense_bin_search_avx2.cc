// Dense rows' bins eight features at a time with AVX2 (dense_bin_search.h).
//
// Why: on higgs10m the bin index took 4.9-5.2 CPU s for 280M values (~18 ns a value), most of
// it in the scalar search, whose eight interleaved lanes the compiler keeps on the stack. Here
// each step of the eight searches is one gather of the probed cuts, one compare and two adds.
// Per lane the steps are the scalar search's (half = n / 2, move by half when the probed cut
// is <= the value, n -= half, while the longest lane has n > 1), the compare is the same
// ordered <= (false for a NaN value), so every bin is the one the scalar code finds.
#include <algorithm>

#include "booster/tree/sketch/dense_bin_search.h"

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#define TREERING_DENSE_BINS_AVX2 1
#endif

namespace treering::booster {
namespace {

// Up to kGroups groups of eight features step together: a gather's latency (~30 cycles) is
// what one group's search waits on, and the groups' chains are independent.
constexpr std::uint32_t kGroups = 4;
constexpr std::uint32_t kLanes = 8;

// The scalar search's step count for a feature of n cuts: while n > 1, n -= n / 2.
std::uint32_t StepsFor(std::uint32_t n) {
  std::uint32_t steps = 0;
  for (; n > 1; n -= n / 2) ++steps;
  return steps;
}

}  // namespace

DenseBinSearchAvx2::DenseBinSearchAvx2(const HistogramCuts& cuts)
    : cut_values_(cuts.values.data()), nf_(cuts.NumFeatures()) {
  const std::uint32_t groups = (nf_ + kLanes - 1) / kLanes;
  first_.assign(std::size_t(groups) * kLanes, 0);
  count_.assign(std::size_t(groups) * kLanes, 1);  // stand-in lanes: cut 0, one cut
  for (std::uint32_t f = 0; f < nf_; ++f) {
    first_[f] = cuts.ptrs[f];
    count_[f] = cuts.ptrs[f + 1] - cuts.ptrs[f];
  }
  for (std::uint32_t g0 = 0; g0 < groups; g0 += kGroups) {
    const std::uint32_t end = std::min(nf_, (g0 + kGroups) * kLanes);
    std::uint32_t longest = 1;
    for (std::uint32_t f = g0 * kLanes; f < end; ++f) longest = std::max(longest, count_[f]);
    steps_.push_back(StepsFor(longest));
  }
}

#if defined(TREERING_DENSE_BINS_AVX2)

#define TREERING_AVX2 __attribute__((target("avx2")))

TREERING_AVX2 void DenseBinSearchAvx2::Row(const float* row, std::uint32_t* bins) const {
  const __m256i one = _mm256_set1_epi32(1);
  const __m256i lane = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
  const std::uint32_t groups = static_cast<std::uint32_t>(first_.size() / kLanes);
  for (std::uint32_t g0 = 0; g0 < groups; g0 += kGroups) {
    const std::uint32_t in_block = std::min(kGroups, groups - g0);
    __m256i first[kGroups], count[kGroups], base[kGroups], n[kGroups], present[kGroups];
    __m256 value[kGroups];
    for (std::uint32_t g = 0; g < in_block; ++g) {
      const std::uint32_t f = (g0 + g) * kLanes;
      first[g] = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(first_.data() + f));
      count[g] = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(count_.data() + f));
      // Lanes past the last feature read no value (0.0f) and are not stored.
      present[g] = _mm256_cmpgt_epi32(_mm256_set1_epi32(static_cast<int>(nf_ - f)), lane);
      value[g] = _mm256_maskload_ps(row + f, present[g]);
      base[g] = first[g];
      n[g] = count[g];
    }
    for (std::uint32_t step = 0; step < steps_[g0 / kGroups]; ++step) {
      for (std::uint32_t g = 0; g < in_block; ++g) {
        const __m256i half = _mm256_srli_epi32(n[g], 1);
        // A lane whose n is 1 probes its current cut (in range) and does not move.
        const __m256i probe =
            _mm256_add_epi32(base[g], _mm256_sub_epi32(_mm256_max_epu32(half, one), one));
        const __m256 cut = _mm256_i32gather_ps(cut_values_, probe, 4);
        const __m256i le = _mm256_castps_si256(_mm256_cmp_ps(cut, value[g], _CMP_LE_OQ));
        base[g] = _mm256_add_epi32(base[g], _mm256_and_si256(half, le));
        n[g] = _mm256_sub_epi32(n[g], half);
      }
    }
    for (std::uint32_t g = 0; g < in_block; ++g) {
      const __m256 cut = _mm256_i32gather_ps(cut_values_, base[g], 4);
      const __m256i le = _mm256_castps_si256(_mm256_cmp_ps(cut, value[g], _CMP_LE_OQ));
      __m256i bin = _mm256_sub_epi32(_mm256_sub_epi32(base[g], first[g]), le);  // le: -1 or 0
      bin = _mm256_min_epu32(bin, _mm256_sub_epi32(count[g], one));
      _mm256_maskstore_epi32(reinterpret_cast<int*>(bins + (g0 + g) * kLanes), present[g], bin);
    }
  }
}

std::optional<DenseBinSearchAvx2> DenseBinSearchAvx2::For(const HistogramCuts& cuts) {
  static const bool avx2 = __builtin_cpu_supports("avx2");
  if (!avx2) return std::nullopt;
  for (std::uint32_t f = 0; f < cuts.NumFeatures(); ++f) {
    if (cuts.ptrs[f + 1] == cuts.ptrs[f]) return std::nullopt;
  }
  // Gather indices are int32.
  if (cuts.values.size() >= (std::size_t{1} << 31)) return std::nullopt;
  return DenseBinSearchAvx2(cuts);
}

#else

void DenseBinSearchAvx2::Row(const float*, std::uint32_t*) const {}
std::optional<DenseBinSearchAvx2> DenseBinSearchAvx2::For(const HistogramCuts&) {
  return std::nullopt;
}

#endif

}  // namespace treering::booster
