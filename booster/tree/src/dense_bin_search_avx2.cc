// Dense rows' bins eight features at a time with AVX2 (dense_bin_search.h).
//
// Why: on higgs10m the bin index took 4.9-5.2 CPU s for 280M values (~18 ns a value), most of
// it in the scalar search, whose eight interleaved lanes the compiler keeps on the stack. Here
// each step of the eight searches is one gather of the probed cuts, one compare and two adds.
// Per lane the steps are the scalar search's (half = n / 2, move by half when the probed cut
// is <= the value, n -= half, while the longest lane has n > 1), the compare is the same
// ordered <= (false for a NaN value), so every bin is the one the scalar code finds.
#include <algorithm>

#include "dense_bin_search.h"

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#define TREERING_DENSE_BINS_AVX2 1
#endif

namespace treering::booster {

#if defined(TREERING_DENSE_BINS_AVX2)

#define TREERING_AVX2 __attribute__((target("avx2")))

// Up to kGroups groups of eight features step together: a gather's latency (~30 cycles) is
// what one group's search waits on, and the groups' chains are independent.
constexpr std::uint32_t kGroups = 4;

TREERING_AVX2 void SearchDenseRowAvx2(const HistogramCuts& cuts, const float* row, std::uint32_t nf,
                                      std::uint32_t* bins) {
  const float* all = cuts.values.data();
  const std::uint32_t* ptrs = cuts.ptrs.data();
  const __m256i one = _mm256_set1_epi32(1);
  std::uint32_t f0 = 0;
  while (f0 + 8 <= nf) {
    const std::uint32_t groups = std::min(kGroups, (nf - f0) / 8);
    __m256i first[kGroups], count[kGroups], base[kGroups], n[kGroups];
    __m256 value[kGroups];
    std::uint32_t longest = 0;
    for (std::uint32_t g = 0; g < groups; ++g) {
      const std::uint32_t f = f0 + 8 * g;
      first[g] = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(ptrs + f));
      count[g] = _mm256_sub_epi32(
          _mm256_loadu_si256(reinterpret_cast<const __m256i*>(ptrs + f + 1)), first[g]);
      value[g] = _mm256_loadu_ps(row + f);
      base[g] = first[g];
      n[g] = count[g];
      for (std::uint32_t k = 0; k < 8; ++k)
        longest = std::max(longest, ptrs[f + k + 1] - ptrs[f + k]);
    }
    for (; longest > 1; longest -= longest / 2) {
      for (std::uint32_t g = 0; g < groups; ++g) {
        const __m256i half = _mm256_srli_epi32(n[g], 1);
        // A lane whose n is 1 probes its current cut (in range) and does not move.
        const __m256i probe =
            _mm256_add_epi32(base[g], _mm256_sub_epi32(_mm256_max_epu32(half, one), one));
        const __m256 cut = _mm256_i32gather_ps(all, probe, 4);
        const __m256i le = _mm256_castps_si256(_mm256_cmp_ps(cut, value[g], _CMP_LE_OQ));
        base[g] = _mm256_add_epi32(base[g], _mm256_and_si256(half, le));
        n[g] = _mm256_sub_epi32(n[g], half);
      }
    }
    for (std::uint32_t g = 0; g < groups; ++g) {
      const __m256 cut = _mm256_i32gather_ps(all, base[g], 4);
      const __m256i le = _mm256_castps_si256(_mm256_cmp_ps(cut, value[g], _CMP_LE_OQ));
      __m256i bin = _mm256_sub_epi32(_mm256_sub_epi32(base[g], first[g]), le);  // le: -1 or 0
      bin = _mm256_min_epu32(bin, _mm256_sub_epi32(count[g], one));
      _mm256_storeu_si256(reinterpret_cast<__m256i*>(bins + f0 + 8 * g), bin);
    }
    f0 += 8 * groups;
  }
  for (; f0 < nf; ++f0) bins[f0] = cuts.SearchBin(f0, row[f0]) - ptrs[f0];  // the tail
}

bool HaveAvx2DenseBinSearch(const HistogramCuts& cuts) {
  static const bool avx2 = __builtin_cpu_supports("avx2");
  if (!avx2) return false;
  for (std::uint32_t f = 0; f < cuts.NumFeatures(); ++f) {
    if (cuts.ptrs[f + 1] == cuts.ptrs[f]) return false;
  }
  // Gather indices are int32.
  return cuts.values.size() < (std::size_t{1} << 31);
}

#else

void SearchDenseRowAvx2(const HistogramCuts&, const float*, std::uint32_t, std::uint32_t*) {}
bool HaveAvx2DenseBinSearch(const HistogramCuts&) { return false; }

#endif

}  // namespace treering::booster
