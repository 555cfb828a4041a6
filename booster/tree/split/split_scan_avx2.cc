// The split scan of one feature 4 bins at a time on AVX2 CPUs without AVX-512 (this VM's AMD
// EPYC; split_scan.cc's 8-lane scan needs AVX-512 DQ for its int64 -> double conversion).
//
// Why: on such CPUs every node's every bin went through the scalar scan, 19-23 % of a
// ranking run's perf samples and 44 % of a Fashion-MNIST round's. The lanes do the scalar
// scan's IEEE operations in its order (split_scan.h), so every candidate's loss_chg has the
// same bits and the picks follow the scalar preference order: per lane the best loss and its
// bin, ties to the first bin forward and to the last bin backward, then resolved across
// lanes the same way. No screening: every live candidate is computed exactly (the floor is
// ignored, which the contract allows: nothing that reaches it is skipped).
#include <algorithm>
#include <cstddef>
#include <limits>

#include "booster/tree/split/split_scan.h"

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#define TREERING_SPLIT_SCAN_AVX2 1
#endif

namespace treering::booster {

#if defined(TREERING_SPLIT_SCAN_AVX2)
namespace {

#define TREERING_AVX2 __attribute__((target("avx2")))

struct Sides {  // int64 sums of one candidate per lane
  __m256i lg, lh, rg, rh;
};

struct Units {
  __m256d grad, hess, alpha, lambda, min_child;
  bool with_alpha;
};

// int64 -> double, correctly rounded as cvtsi2sd (one rounding, in the last add): the top 16
// bits times 2^48 and the low 48 bits are each made exact doubles through magic exponents
// (AVX2 has no cvtepi64_pd).
TREERING_AVX2 inline __m256d Int64ToDouble(__m256i x) {
  const __m256d magic_hi = _mm256_set1_pd(442721857769029238784.0);   // 3 * 2^67
  const __m256d magic_all = _mm256_set1_pd(442726361368656609280.0);  // 3 * 2^67 + 2^52
  const __m256d two52 = _mm256_set1_pd(4503599627370496.0);           // 2^52
  __m256i hi = _mm256_srai_epi32(x, 16);
  hi = _mm256_blend_epi16(hi, _mm256_setzero_si256(), 0x33);  // (x >> 48) << 32
  hi = _mm256_add_epi64(hi, _mm256_castpd_si256(magic_hi));   // 3 * 2^67 + (x >> 48) * 2^48
  const __m256i lo = _mm256_blend_epi16(x, _mm256_castpd_si256(two52), 0x88);  // 2^52 + low 48
  const __m256d high = _mm256_sub_pd(_mm256_castsi256_pd(hi), magic_all);      // exact
  return _mm256_add_pd(high, _mm256_castsi256_pd(lo));
}

TREERING_AVX2 inline __m256d ToDouble(__m256i q, __m256d unit) {
  return _mm256_mul_pd(Int64ToDouble(q), unit);  // = double(q) * unit, as Grad / Hess
}

// ThresholdL1 as GainSum writes it: max(g - alpha, 0) + min(g + alpha, 0).
TREERING_AVX2 inline __m256d Threshold(__m256d g, const Units& u) {
  if (!u.with_alpha) return g;
  const __m256d zero = _mm256_setzero_pd();
  return _mm256_add_pd(_mm256_max_pd(_mm256_sub_pd(g, u.alpha), zero),
                       _mm256_min_pd(_mm256_add_pd(g, u.alpha), zero));
}

// Lane bits where both sides hold at least min_child_weight of hessian (H is never NaN).
TREERING_AVX2 inline int EnoughHessian(__m256d hl, __m256d hr, const Units& u) {
  return _mm256_movemask_pd(_mm256_and_pd(_mm256_cmp_pd(hl, u.min_child, _CMP_NLT_UQ),
                                          _mm256_cmp_pd(hr, u.min_child, _CMP_NLT_UQ)));
}

// One side's term t^2 / (h + lambda), 0 where h <= 0.
TREERING_AVX2 inline __m256d Term(__m256d g, __m256d h, const Units& u) {
  const __m256d t = Threshold(g, u);
  const __m256d q = _mm256_div_pd(_mm256_mul_pd(t, t), _mm256_add_pd(h, u.lambda));
  return _mm256_and_pd(q, _mm256_cmp_pd(h, _mm256_setzero_pd(), _CMP_GT_OQ));
}

// Exact loss_chg of every lane (GainSum - root_gain, float); clears the bits of `live`
// whose sides are too light.
TREERING_AVX2 inline __m128 ExactLoss(const Sides& s, int* live, __m128 root_gain, const Units& u) {
  const __m256d gl = ToDouble(s.lg, u.grad), hl = ToDouble(s.lh, u.hess);
  const __m256d gr = ToDouble(s.rg, u.grad), hr = ToDouble(s.rh, u.hess);
  *live &= EnoughHessian(hl, hr, u);
  const __m128 fl = _mm256_cvtpd_ps(Term(gl, hl, u));
  const __m128 fr = _mm256_cvtpd_ps(Term(gr, hr, u));
  return _mm_sub_ps(_mm_add_ps(fl, fr), root_gain);
}

// Inclusive prefix sum of the 4 lanes.
TREERING_AVX2 inline __m256i PrefixSum(__m256i x) {
  const __m256i up1 = _mm256_blend_epi32(_mm256_permute4x64_epi64(x, 0x90),  // x0 x0 x1 x2
                                         _mm256_setzero_si256(), 0x03);
  x = _mm256_add_epi64(x, up1);                                       // + lane i-1
  return _mm256_add_epi64(x, _mm256_permute2x128_si256(x, x, 0x08));  // + lane i-2
}

TREERING_AVX2 inline __m128 LaneMask(int bits) {
  const __m128i bit = _mm_setr_epi32(1, 2, 4, 8);
  return _mm_castsi128_ps(_mm_cmpeq_epi32(_mm_and_si128(_mm_set1_epi32(bits), bit), bit));
}

struct LaneBest {
  __m128 loss;
  __m128i bin;
};

// `kLast`: equal losses replace (the backward scan's first best is the forward order's last).
template <bool kLast>
TREERING_AVX2 inline void Keep(LaneBest* best, __m128 loss, int live, __m128i bins) {
  const __m128 inf = _mm_set1_ps(std::numeric_limits<float>::infinity());
  __m128 better =
      _mm_and_ps(LaneMask(live), _mm_cmp_ps(loss, best->loss, kLast ? _CMP_GE_OQ : _CMP_GT_OQ));
  better = _mm_and_ps(better, _mm_cmp_ps(loss, _mm_setzero_ps(), _CMP_GT_OQ));
  better = _mm_and_ps(better, _mm_cmp_ps(loss, inf, _CMP_LT_OQ));  // NeedReplace skips inf
  best->loss = _mm_blendv_ps(best->loss, loss, better);
  best->bin =
      _mm_castps_si128(_mm_blendv_ps(_mm_castsi128_ps(best->bin), _mm_castsi128_ps(bins), better));
}

// The lanes' winner: the largest loss; of equal ones the lowest bin (or, kLast, the highest).
template <bool kLast>
TREERING_AVX2 inline void Resolve(const LaneBest& best, float* loss, int* bin) {
  alignas(16) float l[4];
  alignas(16) int b[4];
  _mm_store_ps(l, best.loss);
  _mm_store_si128(reinterpret_cast<__m128i*>(b), best.bin);
  ResolveLanes(l, b, 4, kLast, loss, bin);
}

// Bins i0..i0+3 as grad and hess lanes; bins past n read as empty.
TREERING_AVX2 inline void LoadBlock(const long long* pairs, int i0, int n, __m256i* xg,
                                    __m256i* xh) {
  const long long* p = pairs + 2 * i0;
  __m256i a, b;
  if (n - i0 >= 4) {
    a = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p));
    b = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + 4));
  } else {
    const __m256i lane = _mm256_setr_epi64x(0, 1, 2, 3);
    const int count = n - i0;
    a = _mm256_maskload_epi64(p, _mm256_cmpgt_epi64(_mm256_set1_epi64x(2 * count), lane));
    b = _mm256_maskload_epi64(p + 4, _mm256_cmpgt_epi64(_mm256_set1_epi64x(2 * count - 4), lane));
  }
  *xg = _mm256_permute4x64_epi64(_mm256_unpacklo_epi64(a, b), 0xD8);  // g0 g1 g2 g3
  *xh = _mm256_permute4x64_epi64(_mm256_unpackhi_epi64(a, b), 0xD8);
}

TREERING_AVX2 ScanPicks ScanAvx2(const GradientPairInt* bins, int n, GradientPairInt node_sum,
                                 const ScanConstants& k) {
  static_assert(sizeof(GradientPairInt) == 2 * sizeof(long long) &&
                    offsetof(GradientPairInt, grad) == 0 &&
                    offsetof(GradientPairInt, hess) == sizeof(long long),
                "bins are read as (grad, hess) pairs of 64-bit integers");
  const auto* pairs = reinterpret_cast<const long long*>(bins);
  ScanPicks picks;
  {  // present = the sum of all bins, two bins per add
    __m256i acc = _mm256_setzero_si256();
    int i = 0;
    for (; i + 2 <= n; i += 2) {
      acc = _mm256_add_epi64(acc,
                             _mm256_loadu_si256(reinterpret_cast<const __m256i*>(pairs + 2 * i)));
    }
    alignas(32) long long lanes[4];
    _mm256_store_si256(reinterpret_cast<__m256i*>(lanes), acc);
    picks.present = GradientPairInt{lanes[0], lanes[1]};
    picks.present += GradientPairInt{lanes[2], lanes[3]};
    if (i < n) picks.present += bins[i];
  }
  const bool both = !(picks.present == node_sum);
  const GradientPairInt missing = node_sum - picks.present;
  Units u;
  u.grad = _mm256_set1_pd(k.grad_unit);
  u.hess = _mm256_set1_pd(k.hess_unit);
  u.alpha = _mm256_set1_pd(k.alpha);
  u.lambda = _mm256_set1_pd(k.lambda);
  u.min_child = _mm256_set1_pd(k.min_child);
  u.with_alpha = k.alpha != 0.0;
  const __m128 root_gain = _mm_set1_ps(k.root_gain);
  const __m256i node_g = _mm256_set1_epi64x(node_sum.grad),
                node_h = _mm256_set1_epi64x(node_sum.hess);
  const __m256i present_g = _mm256_set1_epi64x(picks.present.grad);
  const __m256i present_h = _mm256_set1_epi64x(picks.present.hess);
  const __m256i missing_g = _mm256_set1_epi64x(missing.grad);
  const __m256i missing_h = _mm256_set1_epi64x(missing.hess);
  const __m256i zero = _mm256_setzero_si256();
  LaneBest fwd{_mm_setzero_ps(), _mm_set1_epi32(-1)};
  LaneBest bwd{_mm_setzero_ps(), _mm_set1_epi32(-1)};
  __m256i carry_g = zero, carry_h = zero;
  for (int i0 = 0; i0 < n; i0 += 4) {
    __m256i xg, xh;
    LoadBlock(pairs, i0, n, &xg, &xh);
    // An empty bin repeats the previous candidate (both directions): never a candidate.
    const __m256i empty =
        _mm256_and_si256(_mm256_cmpeq_epi64(xg, zero), _mm256_cmpeq_epi64(xh, zero));
    const int live = ~_mm256_movemask_pd(_mm256_castsi256_pd(empty)) & 0xF;
    const __m256i incl_g = _mm256_add_epi64(PrefixSum(xg), carry_g);
    const __m256i incl_h = _mm256_add_epi64(PrefixSum(xh), carry_h);
    carry_g = _mm256_permute4x64_epi64(incl_g, 0xFF);
    carry_h = _mm256_permute4x64_epi64(incl_h, 0xFF);
    if (live == 0) continue;
    const __m128i bin = _mm_add_epi32(_mm_set1_epi32(i0), _mm_setr_epi32(0, 1, 2, 3));
    // Forward: bins <= i left, missing right.
    const Sides f{incl_g, incl_h, _mm256_sub_epi64(node_g, incl_g),
                  _mm256_sub_epi64(node_h, incl_h)};
    int ok = live;
    const __m128 f_loss = ExactLoss(f, &ok, root_gain, u);
    Keep<false>(&fwd, f_loss, ok, bin);
    if (!both) continue;
    // Backward: bins < i and missing left, bins >= i right.
    const __m256i excl_g = _mm256_sub_epi64(incl_g, xg), excl_h = _mm256_sub_epi64(incl_h, xh);
    const Sides r{_mm256_add_epi64(excl_g, missing_g), _mm256_add_epi64(excl_h, missing_h),
                  _mm256_sub_epi64(present_g, excl_g), _mm256_sub_epi64(present_h, excl_h)};
    ok = live;
    const __m128 r_loss = ExactLoss(r, &ok, root_gain, u);
    Keep<true>(&bwd, r_loss, ok, bin);
  }
  Resolve<false>(fwd, &picks.forward_loss, &picks.forward_bin);
  if (both) Resolve<true>(bwd, &picks.backward_loss, &picks.backward_bin);
  return picks;
}

}  // namespace

ScanPicks SplitScanAvx2(const GradientPairInt* bins, int n, GradientPairInt node_sum,
                        const ScanConstants& k) {
  return ScanAvx2(bins, n, node_sum, k);
}

bool HaveAvx2SplitScan() {
  static const bool have = __builtin_cpu_supports("avx2");
  return have;
}

#else

ScanPicks SplitScanAvx2(const GradientPairInt*, int, GradientPairInt, const ScanConstants&) {
  return {};
}
bool HaveAvx2SplitScan() { return false; }

#endif

}  // namespace treering::booster
