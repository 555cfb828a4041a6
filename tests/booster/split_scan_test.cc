// The vector split scans (AVX-512, or AVX2 where the CPU has no AVX-512) against the scalar
// scans: the same winner, bit for bit, on random histograms (ties, empty bins, missing rows
// either way, L1, min_child_weight, tails of every length), and the floor that lets the
// AVX-512 scan skip bins never hides the node's winner. The AVX2 scan is also checked on its
// own (an AVX-512 CPU never reaches it through the evaluator).
#include "booster/tree/split/split_scan.h"

#include <cstring>
#include <random>

#include <gtest/gtest.h>

#include "booster/tree/split/split_evaluator.h"

namespace treering::booster {
namespace {

bool CpuHasVectorScan() {
  return (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512dq") &&
          __builtin_cpu_supports("avx512vl")) ||
         __builtin_cpu_supports("avx2");
}

// Features of 1..40 bins and three of 256: every tail length of a block of 8, and 1588 bins
// per node, so three nodes are enough work for EvaluateNodes to use two threads.
HistogramCuts ManyFeatures() {
  HistogramCuts c;
  c.ptrs = {0};
  std::vector<int> widths;
  for (int w = 1; w <= 40; ++w) widths.push_back(w);
  widths.insert(widths.end(), {256, 256, 256});
  for (int w : widths) {
    for (int b = 1; b <= w; ++b) c.values.push_back(static_cast<float>(b));
    c.ptrs.push_back(static_cast<std::uint32_t>(c.values.size()));
    c.min_vals.push_back(0.0f);
  }
  return c;
}

struct Case {
  GradientQuantiser quantiser;
  std::int64_t grad_range, hess_range;  // bins draw from [-g, g] x [0, h]
};

void ExpectSame(const SplitCandidate& a, const SplitCandidate& b, const std::string& where) {
  std::uint32_t la, lb;
  std::memcpy(&la, &a.loss_chg, 4);
  std::memcpy(&lb, &b.loss_chg, 4);
  EXPECT_EQ(la, lb) << where;
  EXPECT_EQ(a.feature, b.feature) << where;
  EXPECT_EQ(a.split_bin, b.split_bin) << where;
  EXPECT_EQ(a.default_left, b.default_left) << where;
  EXPECT_EQ(a.split_value, b.split_value) << where;
  EXPECT_TRUE(a.left_sum == b.left_sum) << where;
  EXPECT_TRUE(a.right_sum == b.right_sum) << where;
}

TEST(SplitScan, VectorScanGivesTheScalarWinnerBitForBit) {
  if (!CpuHasVectorScan()) GTEST_SKIP() << "no AVX-512 or AVX2 on this CPU: the scalar scan runs";
  const HistogramCuts cuts = ManyFeatures();
  const std::vector<Case> cases = {
      {GradientQuantiser(1.0, 1.0), 3, 2},  // small integers: ties everywhere
      {GradientQuantiser(std::ldexp(1.0, 40), std::ldexp(1.0, 40)), std::int64_t(1) << 45,
       std::int64_t(1) << 44},  // the quantiser's real range: sums near 2^50
  };
  std::mt19937_64 rng(5);
  std::vector<std::uint32_t> all(cuts.NumFeatures());
  for (std::uint32_t f = 0; f < all.size(); ++f) all[f] = f;
  int compared = 0, with_split = 0, default_left = 0;
  for (const Case& c : cases) {
    std::uniform_int_distribution<std::int64_t> grad(-c.grad_range, c.grad_range),
        hess(0, c.hess_range);
    for (float alpha : {0.0f, 0.5f}) {
      for (float lambda : {1.0f, 0.0f}) {
        for (float min_child : {0.0f, 1.0f, 40.0f}) {
          TreeParam p;
          p.reg_alpha = alpha;
          p.reg_lambda = lambda;
          p.min_child_weight = min_child;
          SplitEvaluator vector_ev(p, cuts, c.quantiser), scalar_ev(p, cuts, c.quantiser);
          scalar_ev.SetVectorScan(false);
          ASSERT_TRUE(vector_ev.VectorScanActive());
          ASSERT_FALSE(scalar_ev.VectorScanActive());
          for (int trial = 0; trial < 8; ++trial) {
            std::vector<Histogram> hists(3, Histogram(cuts.TotalBins()));
            std::vector<SplitEvaluator::NodeInput> nodes;
            const int empty_percent = trial % 2 ? 60 : 10;
            for (Histogram& h : hists) {
              for (GradientPairInt& bin : h) {
                if (int(rng() % 100) < empty_percent) continue;
                bin = {grad(rng), hess(rng)};
              }
              // The node's sum: feature 0's bin (every row has it) plus missing rows for the
              // others, so most features have some missing; a third of the nodes none.
              GradientPairInt sum;
              for (std::uint32_t f = 0; f < cuts.NumFeatures(); ++f) {
                GradientPairInt present;
                for (std::uint32_t b = cuts.ptrs[f]; b < cuts.ptrs[f + 1]; ++b) present += h[b];
                if (present.hess > sum.hess) sum = present;
              }
              if (trial % 3) sum += GradientPairInt{grad(rng), hess(rng)};
              nodes.push_back({&h, sum, all});
            }
            // Two threads split the 3 x 43 tasks in the middle of node 1: its later features
            // can set the floor before its earlier ones run (a tie must still go to the
            // smaller feature).
            ASSERT_GT(3 * cuts.TotalBins() * 4, 16384u);
            const auto want = scalar_ev.EvaluateNodes(nodes, 1);
            for (int nthread : {1, 2}) {
              const auto got = vector_ev.EvaluateNodes(nodes, nthread);
              for (std::size_t n = 0; n < nodes.size(); ++n) {
                ExpectSame(got[n], want[n], "trial " + std::to_string(trial));
                ++compared;
                with_split += want[n].split_bin >= 0 || want[n].default_left;
                default_left += want[n].default_left;
              }
            }
            if (HasFailure()) return;
          }
        }
      }
    }
  }
  EXPECT_GT(with_split, compared / 2);
  EXPECT_GT(default_left, compared / 20);
}

// One feature of 12 bins with tiny sums: equal gains within the feature in most trials, so
// the order of preference inside each direction (first best forward, first best of the
// backward scan's own order) decides.
TEST(SplitScan, TiesInsideOneFeatureResolveAsTheScalarScans) {
  if (!CpuHasVectorScan()) GTEST_SKIP() << "no AVX-512 or AVX2 on this CPU";
  HistogramCuts cuts;
  cuts.values = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12};
  cuts.ptrs = {0, 12};
  cuts.min_vals = {-1.0f};
  const GradientQuantiser q(1.0, 1.0);
  std::mt19937_64 rng(17);
  std::uniform_int_distribution<std::int64_t> grad(-2, 2), hess(0, 2), empty(0, 2);
  int default_left = 0;
  for (float min_child : {0.0f, 1.0f, 3.0f}) {
    TreeParam p;
    p.min_child_weight = min_child;
    SplitEvaluator vector_ev(p, cuts, q), scalar_ev(p, cuts, q);
    scalar_ev.SetVectorScan(false);
    for (int trial = 0; trial < 3000; ++trial) {
      Histogram h(12);
      GradientPairInt sum{grad(rng) * (trial % 3), hess(rng) * (trial % 3)};  // missing
      for (GradientPairInt& bin : h) {
        if (empty(rng) == 0) continue;
        bin = {grad(rng), hess(rng)};
        sum += bin;
      }
      const SplitCandidate want = scalar_ev.EvaluateNode(h, sum, {0}, 1);
      ExpectSame(vector_ev.EvaluateNode(h, sum, {0}, 1), want, "trial " + std::to_string(trial));
      default_left += want.default_left;
      if (HasFailure()) return;
    }
  }
  EXPECT_GT(default_left, 9000 / 20);
}

// Called with the feature's own best as the floor, the scan still returns that candidate
// (a tie is never skipped); with a floor above every candidate it may return nothing.
TEST(SplitScan, FloorNeverHidesACandidateThatReachesIt) {
  if (!CpuHasVectorScan()) GTEST_SKIP() << "no AVX-512 or AVX2 on this CPU";
  const HistogramCuts cuts = ManyFeatures();
  const std::uint32_t f = cuts.NumFeatures() - 1;  // 256 bins
  const GradientQuantiser q(1.0, 1.0);
  TreeParam p;
  SplitEvaluator ev(p, cuts, q);
  std::mt19937_64 rng(9);
  std::uniform_int_distribution<std::int64_t> grad(-50, 50), hess(0, 30);
  for (int trial = 0; trial < 200; ++trial) {
    Histogram h(cuts.TotalBins());
    GradientPairInt sum{grad(rng), hess(rng)};  // missing rows
    for (std::uint32_t b = cuts.ptrs[f]; b < cuts.ptrs[f + 1]; ++b) {
      h[b] = {grad(rng), hess(rng)};
      sum += h[b];
    }
    const SplitCandidate best = ev.EvaluateNode(h, sum, {f}, 1);
    ASSERT_GT(best.loss_chg, 0.0f);
    const ScanConstants k{1.0, 1.0, 0.0, 1.0, 1.0, ev.Gain(sum)};
    const ScanPicks at = VectorSplitScan(h.data() + cuts.ptrs[f], 256, sum, k, best.loss_chg);
    const bool left = best.default_left;
    EXPECT_EQ(left ? at.backward_loss : at.forward_loss, best.loss_chg) << trial;
    EXPECT_EQ(left ? at.backward_bin - 1 : at.forward_bin, best.split_bin) << trial;
    const float above = std::nextafter(best.loss_chg * 1.01f, INFINITY);
    const ScanPicks over = VectorSplitScan(h.data() + cuts.ptrs[f], 256, sum, k, above);
    EXPECT_LE(over.forward_loss, best.loss_chg) << trial;
    EXPECT_LE(over.backward_loss, best.loss_chg) << trial;
  }
}

// The AVX2 scan's picks made into the node's winner (forward, replaced by the backward pick
// only if strictly better) against the scalar scan, feature by feature, with sums up to 2^62
// where int64 -> double rounds (its conversion must round as cvtsi2sd does).
TEST(SplitScan, Avx2ScanGivesTheScalarWinnerBitForBit) {
  if (!HaveAvx2SplitScan()) GTEST_SKIP() << "no AVX2 on this CPU";
  const HistogramCuts cuts = ManyFeatures();
  std::mt19937_64 rng(23);
  int compared = 0, default_left = 0;
  for (const int shift : {2, 40, 54}) {
    const std::int64_t range = std::int64_t(1) << shift;
    const GradientQuantiser q(std::ldexp(1.0, shift - 2), std::ldexp(1.0, shift - 3));
    std::uniform_int_distribution<std::int64_t> grad(-range, range), hess(0, range);
    for (float alpha : {0.0f, 0.5f}) {
      for (float min_child : {0.0f, 1.0f}) {
        TreeParam p;
        p.reg_alpha = alpha;
        p.min_child_weight = min_child;
        SplitEvaluator scalar_ev(p, cuts, q);
        scalar_ev.SetVectorScan(false);
        for (int trial = 0; trial < 10; ++trial) {
          Histogram h(cuts.TotalBins());
          for (GradientPairInt& bin : h) {
            if (rng() % 3 == 0) continue;
            bin = {grad(rng), hess(rng)};
          }
          for (std::uint32_t f = 0; f < cuts.NumFeatures(); ++f) {
            GradientPairInt sum;
            for (std::uint32_t b = cuts.ptrs[f]; b < cuts.ptrs[f + 1]; ++b) sum += h[b];
            if (trial % 2) sum += GradientPairInt{grad(rng), hess(rng)};  // missing rows
            const SplitCandidate want = scalar_ev.EvaluateNode(h, sum, {f}, 1);
            const ScanConstants k{q.GradUnit(), q.HessUnit(), alpha,
                                  1.0,          min_child,    scalar_ev.Gain(sum)};
            const int n = static_cast<int>(cuts.FeatureBins(f));
            const ScanPicks got = SplitScanAvx2(h.data() + cuts.ptrs[f], n, sum, k);
            SplitCandidate best;
            if (got.forward_bin >= 0) {
              best.loss_chg = got.forward_loss;
              best.split_bin = got.forward_bin;
            }
            if (got.backward_bin >= 0 && best.NeedReplace(got.backward_loss, 0)) {
              best.loss_chg = got.backward_loss;
              best.split_bin = got.backward_bin - 1;
              best.default_left = true;
            }
            const std::string where =
                std::to_string(shift) + " " + std::to_string(trial) + " " + std::to_string(f);
            std::uint32_t la, lb;
            std::memcpy(&la, &best.loss_chg, 4);
            std::memcpy(&lb, &want.loss_chg, 4);
            EXPECT_EQ(la, lb) << where;
            EXPECT_EQ(best.split_bin, want.split_bin) << where;
            EXPECT_EQ(best.default_left, want.default_left) << where;
            ++compared;
            default_left += want.default_left;
            if (HasFailure()) return;
          }
        }
      }
    }
  }
  EXPECT_GT(default_left, compared / 20);
}

TEST(SplitScan, VectorPathIsUsedWhereItCanBe) {
  const HistogramCuts cuts = ManyFeatures();
  const GradientQuantiser q(1.0, 1.0);
  TreeParam p;
  SplitEvaluator ev(p, cuts, q);
  EXPECT_EQ(ev.VectorScanActive(), CpuHasVectorScan());
  p.max_delta_step = 0.7f;  // the weight-clipped gain stays scalar
  EXPECT_FALSE(ev.VectorScanActive());
}

}  // namespace
}  // namespace treering::booster
