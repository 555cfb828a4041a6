// Exact vector replicas of glibc 2.36's expf and of the logistic gradient (see exp_simd.h).
//
// Why a replica and not any fast exp: XGBoost 1.7 computes the logistic gradient in float with
// expf, and treering's trees are compared node for node against XGBoost's; a different
// rounding of a single gradient can change a split. So the vector code repeats glibc's
// algorithm operation for operation (sysdeps/ieee754/flt-32/e_expf.c, table and constants from
// e_exp2f_data.c) in the form x86-64 glibc runs on AVX2 + FMA machines: the file built with
// -mfma -mavx2 (__expf_fma, picked by the IFUNC resolver when FMA and AVX2 are usable). There
// GCC contracted the C source as the disassembly shows (objdump -d libm.so.6; the function
// starts with vmovd %xmm0,%edx; vcvtss2sd). z = InvLn2N * xd is never rounded on its own:
//   kd = fma(InvLn2N, xd, SHIFT)      z = InvLn2N * xd; kd = z + SHIFT   (z never rounded)
//   kd = kd - SHIFT
//   r  = fma(InvLn2N, xd, -kd)        r = z - kd                        (z recomputed, fused)
//   s  = asdouble(T[ki % 32] + (ki << 47))
//   y  = fma(fma(C0, r, C1), r * r, fma(C2, r, 1.0)) * s,  returned as (float) y.
// Inputs with |x| >= 88 (glibc's special-case branch, also NaN and +-inf) are left to the
// scalar std::exp, one group of 8 at a time. Every other operation is an IEEE operation on
// the same values (conversions, products, the float division), so the lanes equal the scalar
// code. This file is compiled with -ffp-contract=off: GCC must not fuse any product below that
// the scalar code does not fuse (the intrinsics are plain vector arithmetic to GCC).
#include "exp_simd.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <iterator>
#include <vector>

// The replica is of glibc's expf (unchanged since glibc 2.27); with another libm std::exp is a
// different function and only the scalar loops run.
#if defined(__x86_64__) && defined(__GLIBC__)
#if __GLIBC_PREREQ(2, 27)
#define TREERING_EXACT_EXP_SIMD 1
#include <immintrin.h>
#endif
#endif

namespace treering::booster {
namespace {

// The scalar row: ElementwiseObjective's logistic formula as it has always been written.
inline GradientPair LogisticRow(float margin, float y, float w, float scale_pos_weight) {
  if (y == 1.0f) w *= scale_pos_weight;
  const float p = 1.0f / (1.0f + std::exp(-margin));
  return {(p - y) * w, std::fmax(p * (1.0f - p), 1e-16f) * w};
}

#if defined(TREERING_EXACT_EXP_SIMD)

// glibc's __exp2f_data: 2^(i/32) with the top bits of i/32 subtracted from the exponent field
// (tab), 32/ln2 (invln2_scaled), 0x1.8p52 (shift) and the polynomial (poly_scaled); the bits
// as e_exp2f_data.c has them and as Debian 12's libm.so.6 holds them.
alignas(32) constexpr std::uint64_t kExp2fTable[32] = {
    0x3ff0000000000000, 0x3fefd9b0d3158574, 0x3fefb5586cf9890f, 0x3fef9301d0125b51,
    0x3fef72b83c7d517b, 0x3fef54873168b9aa, 0x3fef387a6e756238, 0x3fef1e9df51fdee1,
    0x3fef06fe0a31b715, 0x3feef1a7373aa9cb, 0x3feedea64c123422, 0x3feece086061892d,
    0x3feebfdad5362a27, 0x3feeb42b569d4f82, 0x3feeab07dd485429, 0x3feea47eb03a5585,
    0x3feea09e667f3bcd, 0x3fee9f75e8ec5f74, 0x3feea11473eb0187, 0x3feea589994cce13,
    0x3feeace5422aa0db, 0x3feeb737b0cdc5e5, 0x3feec49182a3f090, 0x3feed503b23e255d,
    0x3feee89f995ad3ad, 0x3feeff76f2fb5e47, 0x3fef199bdd85529c, 0x3fef3720dcef9069,
    0x3fef5818dcfba487, 0x3fef7c97337b9b5f, 0x3fefa4afa2a490da, 0x3fefd0765b6e4540,
};
constexpr std::uint64_t kInvLn2N = 0x40471547652b82fe;  // 0x1.71547652b82fep+0 * 32
constexpr std::uint64_t kShift = 0x4338000000000000;    // 0x1.8p+52
constexpr std::uint64_t kPoly[3] = {0x3ebc6af84b912394, 0x3f2ebfce50fac4f3, 0x3f962e42ff0c52d6};
constexpr std::uint32_t kAbsBelow88 = 0x42afffff;  // largest |x| bits glibc's main path takes

#define TREERING_AVX2 __attribute__((target("avx2,fma")))

TREERING_AVX2 inline __m256d Bits(std::uint64_t v) {
  return _mm256_castsi256_pd(_mm256_set1_epi64x(static_cast<long long>(v)));
}

// glibc's main path for 4 doubles (floats converted exactly), before the final rounding.
TREERING_AVX2 inline __m256d Exp4(__m256d xd) {
  const __m256d inv_ln2n = Bits(kInvLn2N), shift = Bits(kShift);
  __m256d kd = _mm256_fmadd_pd(inv_ln2n, xd, shift);
  const __m256i ki = _mm256_castpd_si256(kd);
  kd = _mm256_sub_pd(kd, shift);
  const __m256d r = _mm256_fmsub_pd(inv_ln2n, xd, kd);
  const __m256i index = _mm256_and_si256(ki, _mm256_set1_epi64x(31));
  const __m256i t = _mm256_add_epi64(
      _mm256_i64gather_epi64(reinterpret_cast<const long long*>(kExp2fTable), index, 8),
      _mm256_slli_epi64(ki, 47));
  const __m256d s = _mm256_castsi256_pd(t);
  const __m256d z = _mm256_fmadd_pd(Bits(kPoly[0]), r, Bits(kPoly[1]));
  const __m256d r2 = _mm256_mul_pd(r, r);
  __m256d y = _mm256_fmadd_pd(Bits(kPoly[2]), r, _mm256_set1_pd(1.0));
  y = _mm256_fmadd_pd(z, r2, y);
  return _mm256_mul_pd(y, s);
}

// True if some lane of x is outside glibc's main path (|x| >= 88, +-inf, NaN).
TREERING_AVX2 inline bool AnySpecial(__m256 x) {
  const __m256i abs = _mm256_and_si256(_mm256_castps_si256(x), _mm256_set1_epi32(0x7fffffff));
  const __m256i special = _mm256_cmpgt_epi32(abs, _mm256_set1_epi32(kAbsBelow88));
  return !_mm256_testz_si256(special, special);
}

// expf of 8 floats none of which AnySpecial.
TREERING_AVX2 inline __m256 Exp8(__m256 x) {
  const __m128 lo = _mm256_cvtpd_ps(Exp4(_mm256_cvtps_pd(_mm256_castps256_ps128(x))));
  const __m128 hi = _mm256_cvtpd_ps(Exp4(_mm256_cvtps_pd(_mm256_extractf128_ps(x, 1))));
  return _mm256_set_m128(hi, lo);
}

TREERING_AVX2 void ExpFloatsAvx2(const float* x, std::size_t n, float* out) {
  std::size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    const __m256 v = _mm256_loadu_ps(x + i);
    if (AnySpecial(v)) {
      for (std::size_t j = i; j < i + 8; ++j) out[j] = std::exp(x[j]);
    } else {
      _mm256_storeu_ps(out + i, Exp8(v));
    }
  }
  for (; i < n; ++i) out[i] = std::exp(x[i]);
}

// Largest lane of a maxima accumulator (no lane is NaN).
TREERING_AVX2 inline float MaxLane(__m256 v) {
  alignas(32) float lanes[8];
  _mm256_store_ps(lanes, v);
  return *std::max_element(lanes, lanes + 8);
}

TREERING_AVX2 GradientMaxima LogisticGradientsAvx2(const float* margin, const float* label,
                                                   const float* weight, float scale_pos_weight,
                                                   std::size_t n, GradientPair* out) {
  const __m256 one = _mm256_set1_ps(1.0f), spw = _mm256_set1_ps(scale_pos_weight);
  const __m256 min_hess = _mm256_set1_ps(1e-16f), sign = _mm256_set1_ps(-0.0f);
  __m256 max_grad = _mm256_setzero_ps(), max_hess = _mm256_setzero_ps();
  GradientMaxima maxima;
  std::size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    const __m256 neg_margin = _mm256_xor_ps(_mm256_loadu_ps(margin + i), sign);
    if (AnySpecial(neg_margin)) {  // glibc's special cases (and NaN margins): the scalar rows
      for (std::size_t j = i; j < i + 8; ++j) {
        out[j] = LogisticRow(margin[j], label[j], weight ? weight[j] : 1.0f, scale_pos_weight);
        maxima.Include(out[j]);
      }
      continue;
    }
    const __m256 p = _mm256_div_ps(one, _mm256_add_ps(one, Exp8(neg_margin)));
    const __m256 y = _mm256_loadu_ps(label + i);
    __m256 w = weight ? _mm256_loadu_ps(weight + i) : one;
    w = _mm256_blendv_ps(w, _mm256_mul_ps(w, spw), _mm256_cmp_ps(y, one, _CMP_EQ_OQ));
    const __m256 grad = _mm256_mul_ps(_mm256_sub_ps(p, y), w);
    // fmax and maxps agree here: p is in (0, 1], so p (1 - p) is never NaN.
    const __m256 hess =
        _mm256_mul_ps(_mm256_max_ps(_mm256_mul_ps(p, _mm256_sub_ps(one, p)), min_hess), w);
    // maxps(a, acc) is acc when a is NaN, as std::max(acc, a) is.
    max_grad = _mm256_max_ps(_mm256_andnot_ps(sign, grad), max_grad);
    max_hess = _mm256_max_ps(_mm256_andnot_ps(sign, hess), max_hess);
    // Interleave to {grad, hess} pairs: rows 0 1 4 5 and 2 3 6 7, then halves swapped.
    const __m256 lo = _mm256_unpacklo_ps(grad, hess), hi = _mm256_unpackhi_ps(grad, hess);
    float* dst = reinterpret_cast<float*>(out + i);
    _mm256_storeu_ps(dst, _mm256_permute2f128_ps(lo, hi, 0x20));
    _mm256_storeu_ps(dst + 8, _mm256_permute2f128_ps(lo, hi, 0x31));
  }
  maxima.Include(GradientMaxima{MaxLane(max_grad), MaxLane(max_hess)});
  for (; i < n; ++i) {
    out[i] = LogisticRow(margin[i], label[i], weight ? weight[i] : 1.0f, scale_pos_weight);
    maxima.Include(out[i]);
  }
  return maxima;
}

#endif  // TREERING_EXACT_EXP_SIMD

}  // namespace

static_assert(sizeof(GradientPair) == 2 * sizeof(float), "GradientPair is stored as 2 floats");

// The 72 floats of (-88, 88) whose expf, before glibc's final double -> float rounding, lies
// within 40 double ulps of a float rounding midpoint (found by a one-off sweep of every float).
// A 1-ulp change in the double computation shows only on inputs like these: leaving
// r = InvLn2N * xd - kd unfused changes two of them (0x1.04845ep+5, -0x1.f8cbb2p+5) and no
// other float of the range; the other fusions of __expf_fma change none.
const float kExpHardCases[72] = {
    -0x1.f8cbb2p+5f,  -0x1.c67e98p+5f,  -0x1.7bab02p+5f,  -0x1.a420f4p+4f,  -0x1.aec4d6p+2f,
    -0x1.013084p+2f,  -0x1.d1b46cp+1f,  -0x1.bc6008p+0f,  -0x1.1f42e8p-1f,  -0x1.9deb5cp-2f,
    -0x1.6f7b5ap-2f,  -0x1.5c8c12p-2f,  -0x1.299058p-3f,  -0x1.7cd34ap-5f,  -0x1.e14abp-7f,
    -0x1.7e5202p-7f,  -0x1.d0c364p-8f,  -0x1.b15878p-8f,  -0x1.af4c76p-9f,  -0x1.6f0c72p-9f,
    -0x1.8eb796p-10f, -0x1.70101ep-10f, -0x1.2437aep-10f, -0x1.927b8ap-11f, -0x1.4a76a8p-11f,
    -0x1.f756ecp-12f, -0x1.4ad55cp-12f, -0x1.bf261ap-14f, -0x1.e981d4p-16f, -0x1.93813ep-16f,
    -0x1.6a004p-18f,  -0x1.2c0016p-19f, -0x1.a80016p-20f, -0x1.600004p-22f, -0x1.400002p-23f,
    -0x1.800002p-24f, -0x1.8p-24f,      -0x1.000002p-25f, -0x1p-25f,        -0x1.fffffep-26f,
    -0x1.fffffcp-26f, 0x1.fffffcp-25f,  0x1.fffffep-25f,  0x1p-24f,         0x1.7ffffep-23f,
    0x1.bffffap-22f,  0x1.dffff2p-21f,  0x1.efffe2p-20f,  0x1.f7ffc2p-19f,  0x1.fbff82p-18f,
    0x1.fdff02p-17f,  0x1.fefe02p-16f,  0x1.fd7c0ap-15f,  0x1.fbb822p-14f,  0x1.31c496p-12f,
    0x1.539bd6p-11f,  0x1.168a2ep-9f,   0x1.6f3234p-9f,   0x1.a024b4p-9f,   0x1.1e827p-8f,
    0x1.206302p-5f,   0x1.1265dp-4f,    0x1.e1972ap-4f,   0x1.e75bc4p-3f,   0x1.c11ddap-2f,
    0x1.7c234cp+0f,   0x1.1b318ep+1f,   0x1.287d6ap+1f,   0x1.4c77f2p+2f,   0x1.82586ep+2f,
    0x1.2e4ed8p+4f,   0x1.04845ep+5f,
};

#if defined(TREERING_EXACT_EXP_SIMD)
namespace {

// The replica against this process's std::exp: the hardest cases, then every 4099th float bit
// pattern of (0, 88) with both signs (~260 K values, well under a millisecond).
TREERING_AVX2 bool ReplicaMatchesLibm() {
  std::vector<float> x(std::begin(kExpHardCases), std::end(kExpHardCases));
  for (std::uint32_t bits = 1; bits < 0x42b00000u; bits += 4099) {
    float v;
    std::memcpy(&v, &bits, sizeof(v));
    x.push_back(v);
    x.push_back(-v);
  }
  while (x.size() % 8 != 0) x.push_back(1.0f);
  for (std::size_t i = 0; i < x.size(); i += 8) {
    alignas(32) float got[8];
    _mm256_store_ps(got, Exp8(_mm256_loadu_ps(x.data() + i)));
    for (int k = 0; k < 8; ++k) {
      const float want = std::exp(x[i + k]);
      if (std::memcmp(&got[k], &want, sizeof(float)) != 0) return false;
    }
  }
  return true;
}

}  // namespace
#endif

bool HaveExactSimdExp() {
#if defined(TREERING_EXACT_EXP_SIMD)
  static const bool have =
      __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma") && ReplicaMatchesLibm();
  return have;
#else
  return false;
#endif
}

void ExpFloats(const float* x, std::size_t n, float* out) {
#if defined(TREERING_EXACT_EXP_SIMD)
  if (HaveExactSimdExp()) return ExpFloatsAvx2(x, n, out);
#endif
  for (std::size_t i = 0; i < n; ++i) out[i] = std::exp(x[i]);
}

GradientMaxima LogisticGradientsScalar(const float* margin, const float* label, const float* weight,
                                       float scale_pos_weight, std::size_t n, GradientPair* out) {
  GradientMaxima maxima;
  for (std::size_t i = 0; i < n; ++i) {
    out[i] = LogisticRow(margin[i], label[i], weight ? weight[i] : 1.0f, scale_pos_weight);
    maxima.Include(out[i]);
  }
  return maxima;
}

GradientMaxima LogisticGradients(const float* margin, const float* label, const float* weight,
                                 float scale_pos_weight, std::size_t n, GradientPair* out) {
#if defined(TREERING_EXACT_EXP_SIMD)
  if (HaveExactSimdExp()) {
    return LogisticGradientsAvx2(margin, label, weight, scale_pos_weight, n, out);
  }
#endif
  return LogisticGradientsScalar(margin, label, weight, scale_pos_weight, n, out);
}

}  // namespace treering::booster
