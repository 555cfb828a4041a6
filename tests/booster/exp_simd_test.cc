// The vector expf and logistic gradient (booster/common/src/exp_simd.h) against the scalar
// code they replace, bit for bit: std::exp (glibc's expf) and XGBoost 1.7's float formula.
#include "exp_simd.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <iterator>
#include <limits>
#include <random>
#include <vector>

#include <gtest/gtest.h>

#include "booster/objective.h"

namespace treering::booster {
namespace {

std::uint32_t BitsOf(float f) {
  std::uint32_t u;
  std::memcpy(&u, &f, sizeof u);
  return u;
}

float FromBits(std::uint32_t u) {
  float f;
  std::memcpy(&f, &u, sizeof f);
  return f;
}

// Runs ExpFloats over x (in groups that put every value in a different lane position) and
// counts the values whose bits differ from std::exp's.
std::size_t ExpMismatches(const std::vector<float>& x) {
  std::vector<float> out(x.size());
  ExpFloats(x.data(), x.size(), out.data());
  std::size_t bad = 0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    if (BitsOf(out[i]) != BitsOf(std::exp(x[i]))) {
      if (++bad <= 5) {
        ADD_FAILURE() << "expf(" << x[i] << ") bits " << std::hex << BitsOf(x[i]) << ": "
                      << BitsOf(out[i]) << " vs std::exp " << BitsOf(std::exp(x[i]));
      }
    }
  }
  return bad;
}

// On x86-64 glibc with AVX2 + FMA the replica must be in use: its start-up check against
// std::exp (HaveExactSimdExp) failing there means the replica and this libm disagree, and the
// speed-up is silently gone. Elsewhere the tests below check the scalar fallback only.
TEST(ExactExp, VectorPathIsUsedWhereItCanBe) {
#if defined(__x86_64__) && defined(__GLIBC__)
  if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) {
    EXPECT_TRUE(HaveExactSimdExp());
  }
#endif
  RecordProperty("simd", HaveExactSimdExp() ? "avx2+fma" : "scalar");
}

TEST(ExactExp, HardestRoundingCases) {
  // Each case in each lane of a group of 8 (the others ordinary values).
  std::vector<float> x;
  for (float h : kExpHardCases) {
    for (int lane = 0; lane < 8; ++lane) {
      for (int j = 0; j < 8; ++j) x.push_back(j == lane ? h : 0.11f * (j - 3));
    }
  }
  EXPECT_EQ(ExpMismatches(x), 0u);
}

TEST(ExactExp, EveryNinetySeventhFloatInRange) {
  // Every 97th bit pattern of [0, 88) and of (-88, -0], in chunks of 64 Ki values.
  const std::uint32_t limit = BitsOf(88.0f);
  std::vector<float> x;
  x.reserve(1 << 16);
  std::size_t bad = 0, count = 0;
  for (std::uint32_t sign : {0u, 0x80000000u}) {
    for (std::uint32_t u = 0; u < limit; u += 97) {
      x.push_back(FromBits(sign | u));
      if (x.size() == x.capacity()) {
        bad += ExpMismatches(x);
        count += x.size();
        x.clear();
      }
    }
  }
  bad += ExpMismatches(x);
  count += x.size();
  EXPECT_EQ(bad, 0u) << "of " << count;
  EXPECT_GT(count, 20000000u);
}

TEST(ExactExp, EdgesAndSpecialLanes) {
  std::vector<float> x = {0.0f, -0.0f, 1e-45f, -1e-45f, 1e-38f, -1e-38f, 1e-30f, 1.0f, -1.0f};
  // Every float of [-88, -87.3]: results in the subnormal range, computed on the main path.
  for (std::uint32_t u = BitsOf(-87.3f); u < BitsOf(-88.0f); ++u) x.push_back(FromBits(u));
  // The 2000 floats below 88 on both sides, and 88 itself.
  for (std::uint32_t u = BitsOf(88.0f) - 2000; u <= BitsOf(88.0f); ++u) {
    x.push_back(FromBits(u));
    x.push_back(-FromBits(u));
  }
  const float inf = std::numeric_limits<float>::infinity();
  const std::vector<float> special = {88.0f,
                                      -88.0f,
                                      88.72283f,
                                      88.7229f,
                                      89.0f,
                                      -100.0f,
                                      -103.2789f,
                                      -103.9721f,
                                      -104.0f,
                                      -150.0f,
                                      1e30f,
                                      -1e30f,
                                      std::numeric_limits<float>::max(),
                                      inf,
                                      -inf,
                                      std::numeric_limits<float>::quiet_NaN(),
                                      -std::numeric_limits<float>::quiet_NaN(),
                                      std::numeric_limits<float>::signaling_NaN(),
                                      FromBits(0x7fc12345),
                                      FromBits(0xffa00001)};
  for (float s : special) x.push_back(s);
  EXPECT_EQ(ExpMismatches(x), 0u);
  // Each special value in each lane of a group of otherwise ordinary values.
  std::vector<float> mixed;
  for (float s : special) {
    for (int lane = 0; lane < 8; ++lane) {
      for (int j = 0; j < 8; ++j) mixed.push_back(j == lane ? s : 0.37f * (j - 4));
    }
  }
  EXPECT_EQ(ExpMismatches(mixed), 0u);
}

// XGBoost 1.7's logistic gradient as ElementwiseObjective always computed it.
GradientPair ScalarLogistic(float margin, float y, float w, float scale_pos_weight) {
  if (y == 1.0f) w *= scale_pos_weight;
  const float p = 1.0f / (1.0f + std::exp(-margin));
  return {(p - y) * w, std::fmax(p * (1.0f - p), 1e-16f) * w};
}

struct Rows {
  std::vector<float> margin, label, weight;
};

Rows RandomRows(std::size_t n, std::uint32_t seed) {
  std::mt19937 rng(seed);
  std::normal_distribution<float> normal(0.0f, 4.0f);
  std::uniform_real_distribution<float> wide(-130.0f, 130.0f);
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const float inf = std::numeric_limits<float>::infinity();
  const float odd[] = {88.0f, -88.0f, 87.99999f, -87.99999f, 0.0f, -0.0f, nan, inf, -inf, 17.5f};
  Rows r;
  for (std::size_t i = 0; i < n; ++i) {
    const std::uint32_t kind = rng() % 100;
    r.margin.push_back(kind < 80 ? normal(rng) : kind < 95 ? wide(rng) : odd[rng() % 10]);
    const std::uint32_t l = rng() % 10;
    r.label.push_back(l < 4 ? 0.0f : l < 8 ? 1.0f : 0.25f * static_cast<float>(l - 7));
    r.weight.push_back(std::ldexp(static_cast<float>(rng() % 4096), -10) - 0.5f);
  }
  return r;
}

void ExpectSameBits(const std::vector<GradientPair>& got, const std::vector<GradientPair>& want) {
  ASSERT_EQ(got.size(), want.size());
  std::size_t bad = 0;
  for (std::size_t i = 0; i < got.size(); ++i) {
    if (BitsOf(got[i].grad) != BitsOf(want[i].grad) ||
        BitsOf(got[i].hess) != BitsOf(want[i].hess)) {
      if (++bad <= 5) {
        ADD_FAILURE() << "row " << i << ": " << got[i].grad << "," << got[i].hess << " vs "
                      << want[i].grad << "," << want[i].hess;
      }
    }
  }
  EXPECT_EQ(bad, 0u);
}

GradientMaxima ScalarMaxima(const std::vector<GradientPair>& g) {
  GradientMaxima m;
  for (const GradientPair& p : g) {
    m.grad = std::max(m.grad, std::fabs(p.grad));
    m.hess = std::max(m.hess, std::fabs(p.hess));
  }
  return m;
}

void ExpectSameMaxima(GradientMaxima got, GradientMaxima want) {
  EXPECT_EQ(BitsOf(got.grad), BitsOf(want.grad)) << got.grad << " vs " << want.grad;
  EXPECT_EQ(BitsOf(got.hess), BitsOf(want.hess)) << got.hess << " vs " << want.hess;
}

TEST(LogisticKernel, EqualsScalarFormulaAndMaxima) {
  const Rows rows = RandomRows(5003, 11);
  for (std::size_t n : {0, 1, 7, 8, 9, 15, 16, 17, 31, 1000, 4999}) {
    for (std::size_t offset : {0, 1, 3}) {  // unaligned starts
      for (bool weighted : {false, true}) {
        for (float spw : {1.0f, 2.5f, 0.3f}) {
          SCOPED_TRACE(::testing::Message() << "n " << n << " offset " << offset << " weighted "
                                            << weighted << " spw " << spw);
          const float* w = weighted ? rows.weight.data() + offset : nullptr;
          std::vector<GradientPair> got(n), want(n);
          const GradientMaxima maxima = LogisticGradients(
              rows.margin.data() + offset, rows.label.data() + offset, w, spw, n, got.data());
          for (std::size_t i = 0; i < n; ++i) {
            want[i] = ScalarLogistic(rows.margin[offset + i], rows.label[offset + i],
                                     weighted ? w[i] : 1.0f, spw);
          }
          ExpectSameBits(got, want);
          ExpectSameMaxima(maxima, ScalarMaxima(want));
          std::vector<GradientPair> scalar(n);
          ExpectSameMaxima(
              LogisticGradientsScalar(rows.margin.data() + offset, rows.label.data() + offset, w,
                                      spw, n, scalar.data()),
              ScalarMaxima(want));
          ExpectSameBits(scalar, want);
        }
      }
    }
  }
}

TEST(LogisticKernel, OrdinaryMarginsWithoutSpecialLanes) {
  // Only main-path margins, so every group of 8 goes through the vector code.
  std::mt19937 rng(5);
  std::uniform_real_distribution<float> margin_dist(-87.9f, 87.9f);
  std::vector<float> margin(4096), label(4096), weight(4096);
  for (std::size_t i = 0; i < margin.size(); ++i) {
    margin[i] = i % 2 ? margin_dist(rng) : margin_dist(rng) / 16.0f;
    label[i] = static_cast<float>(rng() % 2);
    weight[i] = 0.5f + static_cast<float>(rng() % 100) / 37.0f;
  }
  // The hardest expf inputs as margins (expf(-margin) is what the kernel takes).
  for (std::size_t i = 0; i < std::size(kExpHardCases); ++i)
    margin[8 * i + i % 8] = -kExpHardCases[i];
  std::vector<GradientPair> got(margin.size()), want(margin.size());
  const GradientMaxima maxima = LogisticGradients(margin.data(), label.data(), weight.data(), 1.5f,
                                                  margin.size(), got.data());
  for (std::size_t i = 0; i < margin.size(); ++i) {
    want[i] = ScalarLogistic(margin[i], label[i], weight[i], 1.5f);
  }
  ExpectSameBits(got, want);
  ExpectSameMaxima(maxima, ScalarMaxima(want));
}

// Through the Objective interface: one and two threads (above the parallel threshold), every
// one-output objective and softmax (the default GetGradientAndMaxima).
TEST(LogisticKernel, ObjectiveGradientAndMaximaMatchAcrossThreads) {
  const Rows rows = RandomRows(40001, 23);
  std::vector<float> label01(rows.label.size());
  for (std::size_t i = 0; i < label01.size(); ++i) label01[i] = rows.label[i] == 1.0f ? 1 : 0;
  const std::vector<float> none;
  for (const char* name : {"binary:logistic", "reg:logistic", "binary:logitraw"}) {
    ObjectiveConfig c;
    c.name = name;
    c.scale_pos_weight = 3.0f;
    auto obj = std::move(Objective::Create(c)).value();
    for (const std::vector<float>* weight : {&none, &rows.weight}) {
      std::vector<GradientPair> want(rows.margin.size());
      for (std::size_t i = 0; i < want.size(); ++i) {
        want[i] = ScalarLogistic(rows.margin[i], rows.label[i],
                                 weight->empty() ? 1.0f : (*weight)[i], c.scale_pos_weight);
      }
      for (int nthread : {1, 2}) {
        SCOPED_TRACE(::testing::Message() << name << " nthread " << nthread);
        std::vector<GradientPair> g, g2;
        obj->GetGradient(rows.margin, {&rows.label, weight}, Context{.nthread = nthread}, &g);
        ExpectSameBits(g, want);
        const GradientMaxima m = obj->GetGradientAndMaxima(rows.margin, {&rows.label, weight},
                                                           Context{.nthread = nthread}, &g2);
        ExpectSameBits(g2, want);
        ExpectSameMaxima(m, ScalarMaxima(want));
      }
    }
  }
  for (const char* name : {"reg:squarederror", "count:poisson"}) {
    ObjectiveConfig c;
    c.name = name;
    auto obj = std::move(Objective::Create(c)).value();
    std::vector<float> margin = rows.margin;
    for (float& m : margin) m = std::isfinite(m) ? std::fmod(m, 10.0f) : m;
    std::vector<GradientPair> g1, g2;
    obj->GetGradient(margin, {&label01, &rows.weight}, Context{.nthread = 1}, &g1);
    const GradientMaxima m =
        obj->GetGradientAndMaxima(margin, {&label01, &rows.weight}, Context{.nthread = 2}, &g2);
    ExpectSameBits(g2, g1);
    ExpectSameMaxima(m, ScalarMaxima(g1));
    EXPECT_EQ(
        BitsOf(g1[5].hess),
        BitsOf(name[0] == 'r' ? rows.weight[5] : std::exp(margin[5] + 0.7f) * rows.weight[5]));
  }
  ObjectiveConfig c;
  c.name = "multi:softprob";
  c.num_class = 3;
  auto obj = std::move(Objective::Create(c)).value();
  std::vector<float> margin(3 * 20000), label(20000);
  for (std::size_t i = 0; i < margin.size(); ++i) margin[i] = std::sin(0.1f * i) * 5.0f;
  for (std::size_t i = 0; i < label.size(); ++i) label[i] = static_cast<float>(i % 3);
  std::vector<GradientPair> g1, g2;
  obj->GetGradient(margin, {&label, &none}, Context{.nthread = 1}, &g1);
  const GradientMaxima m =
      obj->GetGradientAndMaxima(margin, {&label, &none}, Context{.nthread = 2}, &g2);
  ExpectSameBits(g2, g1);
  ExpectSameMaxima(m, ScalarMaxima(g1));
}

}  // namespace
}  // namespace treering::booster
