#include "booster/tree/split/split_scan.h"

#include <algorithm>
#include <cstddef>
#include <limits>

#if defined(__x86_64__) && defined(__GNUC__)
// GCC 12's AVX-512 headers pass an "undefined" register to the masked builtins, which its own
// -Wmaybe-uninitialized flags inside the header (GCC bug 105593): not this file's code.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wuninitialized"
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#include <immintrin.h>
#pragma GCC diagnostic pop
#define TREERING_SPLIT_SCAN_AVX512 1
#endif

namespace treering::booster {

#if defined(TREERING_SPLIT_SCAN_AVX512)
namespace {

#define TREERING_AVX512 __attribute__((target("avx512f,avx512dq,avx512vl")))

// How a block of 8 candidates is screened before any division: the candidate's gain sum
// S = tl^2 / (hl + lambda) + tr^2 / (hr + lambda) is estimated with a 14-bit reciprocal
// (relative error < 2^-14 per term, both terms >= 0, so |S' - S| < 2^-13.9 S). The float
// loss_chg the scalar code computes, fl(fl(f(ql) + f(qr)) - root_gain), can reach a best b
// only if S >= (b + root_gain)(1 - 2^-22) (three float roundings). So a block whose every S'
// is below (b + root_gain)(1 - 2^-11) cannot hold a candidate equal to or better than b, and
// is skipped; the others are computed exactly, with divisions, as GainSum does.
constexpr double kScreenMargin = 1.0 - 1.0 / 2048;

struct Sides {  // int64 sums of one candidate per lane
  __m512i lg, lh, rg, rh;
};

struct Units {
  __m512d grad, hess, alpha, lambda, min_child;
  bool with_alpha;
};

TREERING_AVX512 inline __m512d ToDouble(__m512i q, __m512d unit) {
  return _mm512_mul_pd(_mm512_cvtepi64_pd(q), unit);  // = double(q) * unit, as Grad / Hess
}

// ThresholdL1 as GainSum writes it: max(g - alpha, 0) + min(g + alpha, 0).
TREERING_AVX512 inline __m512d Threshold(__m512d g, const Units& u) {
  if (!u.with_alpha) return g;  // max(g, 0) + min(g, 0) == g (up to the sign of zero, squared)
  const __m512d zero = _mm512_setzero_pd();
  return _mm512_add_pd(_mm512_max_pd(_mm512_sub_pd(g, u.alpha), zero),
                       _mm512_min_pd(_mm512_add_pd(g, u.alpha), zero));
}

// Lanes where both sides hold at least min_child_weight of hessian (the scalar skip test is
// H < min_child; H is never NaN).
TREERING_AVX512 inline __mmask8 EnoughHessian(__m512d hl, __m512d hr, const Units& u) {
  return _mm512_cmp_pd_mask(hl, u.min_child, _CMP_NLT_UQ) &
         _mm512_cmp_pd_mask(hr, u.min_child, _CMP_NLT_UQ);
}

// One side's term t^2 / (h + lambda), 0 where h <= 0: exactly (kExact) or estimated.
template <bool kExact>
TREERING_AVX512 inline __m512d Term(__m512d g, __m512d h, const Units& u) {
  const __m512d t = Threshold(g, u);
  const __m512d den = _mm512_add_pd(h, u.lambda);
  const __m512d tt = _mm512_mul_pd(t, t);
  const __m512d q = kExact ? _mm512_div_pd(tt, den) : _mm512_mul_pd(tt, _mm512_rcp14_pd(den));
  return _mm512_maskz_mov_pd(_mm512_cmp_pd_mask(h, _mm512_setzero_pd(), _CMP_GT_OQ), q);
}

// Screen: lanes of `live` whose estimated gain sum reaches `floor_sum` (see kScreenMargin).
TREERING_AVX512 inline __mmask8 MayReach(const Sides& s, __mmask8 live, __m512d floor_sum,
                                         const Units& u) {
  const __m512d gl = ToDouble(s.lg, u.grad), hl = ToDouble(s.lh, u.hess);
  const __m512d gr = ToDouble(s.rg, u.grad), hr = ToDouble(s.rh, u.hess);
  live &= EnoughHessian(hl, hr, u);
  const __m512d sum = _mm512_add_pd(Term<false>(gl, hl, u), Term<false>(gr, hr, u));
  return _mm512_mask_cmp_pd_mask(live, sum, floor_sum, _CMP_GE_OQ);
}

// Exact loss_chg of every lane (GainSum - root_gain, float), and the lanes that are real
// candidates (live and enough hessian on both sides).
TREERING_AVX512 inline __m256 ExactLoss(const Sides& s, __mmask8* live, __m256 root_gain,
                                        const Units& u) {
  const __m512d gl = ToDouble(s.lg, u.grad), hl = ToDouble(s.lh, u.hess);
  const __m512d gr = ToDouble(s.rg, u.grad), hr = ToDouble(s.rh, u.hess);
  *live &= EnoughHessian(hl, hr, u);
  const __m256 fl = _mm512_cvtpd_ps(Term<true>(gl, hl, u));
  const __m256 fr = _mm512_cvtpd_ps(Term<true>(gr, hr, u));
  return _mm256_sub_ps(_mm256_add_ps(fl, fr), root_gain);
}

// Inclusive prefix sum of the 8 lanes.
TREERING_AVX512 inline __m512i PrefixSum(__m512i x) {
  const __m512i zero = _mm512_setzero_si512();
  x = _mm512_add_epi64(x, _mm512_maskz_alignr_epi64(0xFF, x, zero, 7));     // + lane i-1
  x = _mm512_add_epi64(x, _mm512_maskz_alignr_epi64(0xFF, x, zero, 6));     // + lane i-2
  return _mm512_add_epi64(x, _mm512_maskz_alignr_epi64(0xFF, x, zero, 4));  // + lane i-4
}

// Running per-lane best: each lane keeps its best loss and the bin it came from. `kLast`:
// equal losses replace (the backward scan's first best is the forward order's last).
struct LaneBest {
  __m256 loss;
  __m256i bin;
};

template <bool kLast>
TREERING_AVX512 inline void Keep(LaneBest* best, __m256 loss, __mmask8 live, __m256i bins) {
  const __m256 inf = _mm256_set1_ps(std::numeric_limits<float>::infinity());
  __mmask8 better =
      _mm256_mask_cmp_ps_mask(live, loss, best->loss, kLast ? _CMP_GE_OQ : _CMP_GT_OQ);
  better = _mm256_mask_cmp_ps_mask(better, loss, _mm256_setzero_ps(), _CMP_GT_OQ);
  better = _mm256_mask_cmp_ps_mask(better, loss, inf, _CMP_LT_OQ);  // NeedReplace skips inf
  best->loss = _mm256_mask_mov_ps(best->loss, better, loss);
  best->bin = _mm256_mask_mov_epi32(best->bin, better, bins);
}

// The lanes' winner: the largest loss; of equal ones the lowest bin (or, kLast, the highest).
template <bool kLast>
TREERING_AVX512 inline void Resolve(const LaneBest& best, float* loss, int* bin) {
  alignas(32) float l[8];
  alignas(32) int b[8];
  _mm256_store_ps(l, best.loss);
  _mm256_store_si256(reinterpret_cast<__m256i*>(b), best.bin);
  ResolveLanes(l, b, 8, kLast, loss, bin);
}

TREERING_AVX512 ScanPicks ScanAvx512(const GradientPairInt* bins, int n, GradientPairInt node_sum,
                                     const ScanConstants& k, float floor) {
  static_assert(sizeof(GradientPairInt) == 2 * sizeof(long long) &&
                    offsetof(GradientPairInt, grad) == 0 &&
                    offsetof(GradientPairInt, hess) == sizeof(long long),
                "bins are read as (grad, hess) pairs of 64-bit integers");
  const auto* pairs = reinterpret_cast<const long long*>(bins);
  ScanPicks picks;
  {  // present = the sum of all bins
    __m512i acc = _mm512_setzero_si512();
    for (int i = 0; i < n; i += 4) {
      const int lanes = 2 * std::min(4, n - i);
      acc = _mm512_add_epi64(acc,
                             _mm512_maskz_loadu_epi64(__mmask8((1u << lanes) - 1), pairs + 2 * i));
    }
    alignas(64) long long lanes[8];
    _mm512_store_si512(lanes, acc);
    for (int i = 0; i < 8; i += 2) picks.present += GradientPairInt{lanes[i], lanes[i + 1]};
  }
  const bool both = !(picks.present == node_sum);
  const GradientPairInt missing = node_sum - picks.present;
  Units u;
  u.grad = _mm512_set1_pd(k.grad_unit);
  u.hess = _mm512_set1_pd(k.hess_unit);
  u.alpha = _mm512_set1_pd(k.alpha);
  u.lambda = _mm512_set1_pd(k.lambda);
  u.min_child = _mm512_set1_pd(k.min_child);
  u.with_alpha = k.alpha != 0.0;
  const __m256 root_gain = _mm256_set1_ps(k.root_gain);
  const __m512i idx_g = _mm512_setr_epi64(0, 2, 4, 6, 8, 10, 12, 14);
  const __m512i idx_h = _mm512_setr_epi64(1, 3, 5, 7, 9, 11, 13, 15);
  const __m512i last_lane = _mm512_set1_epi64(7);
  const __m512i node_g = _mm512_set1_epi64(node_sum.grad),
                node_h = _mm512_set1_epi64(node_sum.hess);
  const __m512i present_g = _mm512_set1_epi64(picks.present.grad);
  const __m512i present_h = _mm512_set1_epi64(picks.present.hess);
  const __m512i missing_g = _mm512_set1_epi64(missing.grad);
  const __m512i missing_h = _mm512_set1_epi64(missing.hess);
  LaneBest fwd{_mm256_setzero_ps(), _mm256_set1_epi32(-1)};
  LaneBest bwd{_mm256_setzero_ps(), _mm256_set1_epi32(-1)};
  float best = std::max(floor, 0.0f);  // the best loss known: screen against it
  __m512d floor_sum = _mm512_set1_pd((double(best) + double(k.root_gain)) * kScreenMargin);
  __m512i carry_g = _mm512_setzero_si512(), carry_h = _mm512_setzero_si512();
  for (int i0 = 0; i0 < n; i0 += 8) {
    const int count = std::min(8, n - i0);
    const __m512i a =
        _mm512_maskz_loadu_epi64(__mmask8((1u << (2 * std::min(count, 4))) - 1), pairs + 2 * i0);
    const __m512i b = _mm512_maskz_loadu_epi64(__mmask8((1u << (2 * std::max(count - 4, 0))) - 1),
                                               pairs + 2 * i0 + 8);
    const __m512i xg = _mm512_permutex2var_epi64(a, idx_g, b);
    const __m512i xh = _mm512_permutex2var_epi64(a, idx_h, b);
    // An empty bin repeats the previous candidate (both directions): never a candidate.
    const __mmask8 live = _mm512_test_epi64_mask(xg, xg) | _mm512_test_epi64_mask(xh, xh);
    const __m512i incl_g = _mm512_add_epi64(PrefixSum(xg), carry_g);
    const __m512i incl_h = _mm512_add_epi64(PrefixSum(xh), carry_h);
    carry_g = _mm512_permutexvar_epi64(last_lane, incl_g);
    carry_h = _mm512_permutexvar_epi64(last_lane, incl_h);
    if (live == 0) continue;
    // Forward: bins <= i left, missing right.
    const Sides f{incl_g, incl_h, _mm512_sub_epi64(node_g, incl_g),
                  _mm512_sub_epi64(node_h, incl_h)};
    // Backward: bins < i and missing left, bins >= i right.
    Sides r{};
    if (both) {
      const __m512i excl_g = _mm512_sub_epi64(incl_g, xg), excl_h = _mm512_sub_epi64(incl_h, xh);
      r = {_mm512_add_epi64(excl_g, missing_g), _mm512_add_epi64(excl_h, missing_h),
           _mm512_sub_epi64(present_g, excl_g), _mm512_sub_epi64(present_h, excl_h)};
    }
    const __mmask8 f_may = MayReach(f, live, floor_sum, u);
    const __mmask8 r_may = both ? MayReach(r, live, floor_sum, u) : __mmask8(0);
    if ((f_may | r_may) == 0) continue;
    const __m256i bin =
        _mm256_add_epi32(_mm256_set1_epi32(i0), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
    if (f_may) {
      __mmask8 ok = live;
      const __m256 loss = ExactLoss(f, &ok, root_gain, u);
      Keep<false>(&fwd, loss, ok, bin);
    }
    if (r_may) {
      __mmask8 ok = live;
      const __m256 loss = ExactLoss(r, &ok, root_gain, u);
      Keep<true>(&bwd, loss, ok, bin);
    }
    // Raise the screen to the best loss kept so far.
    alignas(32) float l[16];
    _mm256_store_ps(l, fwd.loss);
    _mm256_store_ps(l + 8, bwd.loss);
    const float top = *std::max_element(l, l + 16);
    if (top > best) {
      best = top;
      floor_sum = _mm512_set1_pd((double(best) + double(k.root_gain)) * kScreenMargin);
    }
  }
  Resolve<false>(fwd, &picks.forward_loss, &picks.forward_bin);
  if (both) Resolve<true>(bwd, &picks.backward_loss, &picks.backward_bin);
  return picks;
}

}  // namespace
#endif

namespace {

bool HaveAvx512SplitScan() {
#if defined(TREERING_SPLIT_SCAN_AVX512)
  static const bool have = __builtin_cpu_supports("avx512f") &&
                           __builtin_cpu_supports("avx512dq") && __builtin_cpu_supports("avx512vl");
  return have;
#else
  return false;
#endif
}

}  // namespace

bool HaveVectorSplitScan() { return HaveAvx512SplitScan() || HaveAvx2SplitScan(); }

ScanPicks VectorSplitScan(const GradientPairInt* bins, int n, GradientPairInt node_sum,
                          const ScanConstants& k, float floor) {
#if defined(TREERING_SPLIT_SCAN_AVX512)
  if (HaveAvx512SplitScan()) return ScanAvx512(bins, n, node_sum, k, floor);
#endif
  (void)floor;
  return SplitScanAvx2(bins, n, node_sum, k);
}

}  // namespace treering::booster
