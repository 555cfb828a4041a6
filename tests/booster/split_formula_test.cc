// Weight, gain and split choice against values computed by hand from XGBoost's formulas.
#include <cmath>
#include <cstring>
#include <random>

#include <gtest/gtest.h>

#include "booster/tree/split/split_evaluator.h"

namespace treering::booster {
namespace {

// A quantiser with scale 1 makes the integer sums read as plain numbers.
const GradientQuantiser kUnit(1.0, 1.0);

HistogramCuts OneFeature(std::vector<float> cuts) {
  HistogramCuts c;
  c.values = std::move(cuts);
  c.ptrs = {0, static_cast<std::uint32_t>(c.values.size())};
  c.min_vals = {-1.0f};
  return c;
}

TEST(SplitFormula, WeightWithL2AndL1) {
  TreeParam p;
  p.reg_lambda = 2.0f;
  p.reg_alpha = 1.0f;
  const HistogramCuts cuts = OneFeature({1});
  SplitEvaluator ev(p, cuts, kUnit);
  // w = -(G - alpha) / (H + lambda) = -(10 - 1) / (4 + 2)
  EXPECT_FLOAT_EQ(ev.Weight(10.0, 4.0), -1.5f);
  // |G| <= alpha -> 0
  EXPECT_FLOAT_EQ(ev.Weight(0.5, 4.0), 0.0f);
  // G < -alpha: -(G + alpha) / (H + lambda) = -(-7 + 1) / 6
  EXPECT_FLOAT_EQ(ev.Weight(-7.0, 4.0), 1.0f);
  // gain = ThresholdL1(G)^2 / (H + lambda) = 81 / 6
  EXPECT_FLOAT_EQ(ev.Gain(10.0, 4.0), 13.5f);
}

// GainSum (both sides in one packed division, L1 by max/min) equals the scalar Gain sum bit
// for bit: alpha zero and positive, gradients on both sides of +-alpha and exactly at it,
// zero and negative hessians, max_delta_step (the scalar path).
TEST(SplitFormula, GainSumEqualsScalarGainsBitForBit) {
  std::mt19937_64 rng(11);
  std::uniform_int_distribution<std::int64_t> grad(-(std::int64_t{1} << 40), std::int64_t{1} << 40);
  std::uniform_int_distribution<std::int64_t> hess(-1000, std::int64_t{1} << 38);
  const GradientQuantiser q(std::ldexp(1.0, 30), std::ldexp(1.0, 31));
  struct Case {
    float alpha, mds, lambda;
  };
  std::vector<Case> cases;
  for (float alpha : {0.0f, 0.5f, 3.0f}) {
    for (float mds : {0.0f, 0.7f}) {
      // lambda 0 with a zero hessian: 0/0, masked to 0
      for (float lambda : {1.5f, 0.0f}) cases.push_back({alpha, mds, lambda});
    }
  }
  for (const Case& c : cases) {
    const float alpha = c.alpha, mds = c.mds, lambda = c.lambda;
    TreeParam p;
    p.reg_alpha = alpha;
    p.reg_lambda = lambda;
    p.max_delta_step = mds;
    const HistogramCuts cuts = OneFeature({1});
    SplitEvaluator ev(p, cuts, q);
    std::vector<GradientPairInt> sums = {{0, 0}, {0, 5}, {5, 0}, {-5, -3}};
    // |G| == alpha exactly, and just around it.
    const std::int64_t at_alpha = std::llrint(alpha * std::ldexp(1.0, 30));
    for (std::int64_t d : {-1, 0, 1}) {
      sums.push_back({at_alpha + d, 1 << 20});
      sums.push_back({-at_alpha + d, 1 << 20});
    }
    for (int i = 0; i < 20000; ++i) sums.push_back({grad(rng), hess(rng)});
    for (std::size_t i = 0; i + 1 < sums.size(); ++i) {
      const float want = ev.Gain(sums[i]) + ev.Gain(sums[i + 1]);
      const float got = ev.GainSum(sums[i], sums[i + 1]);
      std::uint32_t a, b;
      std::memcpy(&a, &want, 4);
      std::memcpy(&b, &got, 4);
      ASSERT_EQ(a, b) << "alpha " << alpha << " mds " << mds << " lambda " << lambda << " pair "
                      << i;
    }
  }
}

TEST(SplitFormula, MinChildWeightZeroesWeightButNotGain) {
  TreeParam p;  // lambda 1, min_child_weight 1
  const HistogramCuts cuts = OneFeature({1});
  SplitEvaluator ev(p, cuts, kUnit);
  EXPECT_FLOAT_EQ(ev.Weight(3.0, 0.5), 0.0f);
  EXPECT_FLOAT_EQ(ev.Gain(3.0, 0.5), 6.0f);  // 9 / 1.5, as XGBoost's evaluator computes it
  EXPECT_FLOAT_EQ(ev.Gain(3.0, 0.0), 0.0f);
}

TEST(SplitFormula, MaxDeltaStepClipsWeightAndUsesWeightedGain) {
  TreeParam p;
  p.max_delta_step = 0.5f;
  const HistogramCuts cuts = OneFeature({1});
  SplitEvaluator ev(p, cuts, kUnit);
  // unclipped w = -8 / 4 = -2 -> -0.5; gain = -(2 G w + (H + lambda) w^2) = -(-8 + 1) = 7
  EXPECT_FLOAT_EQ(ev.Weight(8.0, 3.0), -0.5f);
  EXPECT_FLOAT_EQ(ev.Gain(8.0, 3.0), 7.0f);
}

TEST(SplitFormula, TieBreakPrefersSmallerFeature) {
  SplitCandidate best;
  best.loss_chg = 2.0f;
  best.feature = 5;
  EXPECT_TRUE(best.NeedReplace(2.0f, 3));   // equal gain, smaller feature wins
  EXPECT_FALSE(best.NeedReplace(2.0f, 5));  // same feature needs strictly more
  EXPECT_FALSE(best.NeedReplace(2.0f, 7));
  EXPECT_TRUE(best.NeedReplace(2.5f, 7));
  EXPECT_FALSE(best.NeedReplace(INFINITY, 0));
}

// Four bins with (g, h) = (-4,2) (-2,2) (3,2) (5,2); missing rows carry (-6, 2).
TEST(SplitFormula, EvaluateNodeLearnsMissingDirection) {
  TreeParam p;
  const HistogramCuts cuts = OneFeature({1, 2, 3, 4});
  SplitEvaluator ev(p, cuts, kUnit);
  Histogram hist = {{-4, 2}, {-2, 2}, {3, 2}, {5, 2}};
  const GradientPairInt node{-4, 10};  // includes the missing rows
  const SplitCandidate best = ev.EvaluateNode(hist, node, {0}, 1);
  // Missing (-6,2) joins the negative side: left = bins 0,1 + missing = (-12, 6),
  // right = (8, 4): gain 144/7 + 64/5 - 16/11.
  EXPECT_EQ(best.split_bin, 1);
  EXPECT_TRUE(best.default_left);
  EXPECT_FLOAT_EQ(best.split_value, 2.0f);
  EXPECT_EQ(best.left_sum.grad, -12);
  EXPECT_NEAR(best.loss_chg, 144.0 / 7 + 64.0 / 5 - 16.0 / 11, 1e-4);
}

TEST(SplitFormula, NoMissingMeansForwardScanOnly) {
  TreeParam p;
  const HistogramCuts cuts = OneFeature({1, 2, 3, 4});
  SplitEvaluator ev(p, cuts, kUnit);
  Histogram hist = {{-4, 2}, {-2, 2}, {3, 2}, {5, 2}};
  const SplitCandidate best = ev.EvaluateNode(hist, {2, 8}, {0}, 1);
  EXPECT_EQ(best.split_bin, 1);
  EXPECT_FALSE(best.default_left);
  EXPECT_NEAR(best.loss_chg, 36.0 / 5 + 64.0 / 5 - 4.0 / 9, 1e-4);
}

// XGBoost's two scans written out plainly (hist/evaluate_splits.h EnumerateSplit): forward
// with missing rows right, then backward with them left, each candidate replacing the best
// only if strictly better. The evaluator runs both as one pass; it must pick the same.
SplitCandidate TwoScans(const SplitEvaluator& ev, const HistogramCuts& cuts, const Histogram& hist,
                        GradientPairInt node_sum, float min_child) {
  const float root_gain = ev.Gain(node_sum);
  const int first = static_cast<int>(cuts.ptrs[0]), last = static_cast<int>(cuts.ptrs[1]) - 1;
  SplitCandidate best;
  GradientPairInt present;
  for (int i = first; i <= last; ++i) present += hist[i];
  for (int dir : {+1, -1}) {
    if (dir < 0 && present == node_sum) break;
    GradientPairInt scanned;
    for (int i = dir > 0 ? first : last; i >= first && i <= last; i += dir) {
      if (hist[i].grad == 0 && hist[i].hess == 0) continue;
      scanned += hist[i];
      const GradientPairInt rest = node_sum - scanned;
      if (ev.H(scanned) < min_child || ev.H(rest) < min_child) continue;
      const float loss_chg = ev.GainSum(scanned, rest) - root_gain;
      if (!best.NeedReplace(loss_chg, 0)) continue;
      best.loss_chg = loss_chg;
      best.default_left = dir < 0;
      best.split_bin = dir > 0 ? i - first : i - first - 1;
      best.left_sum = dir > 0 ? scanned : rest;
    }
  }
  return best;
}

// Small integer sums make equal gains (ties) and empty bins common; missing rows on either
// side, with and without min_child_weight.
TEST(SplitFormula, OnePassScanPicksWhatTheTwoScansPick) {
  const HistogramCuts cuts = OneFeature({1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12});
  std::mt19937_64 rng(11);
  std::uniform_int_distribution<std::int64_t> grad(-3, 3), hess(0, 2), empty(0, 2);
  int with_missing_left = 0, compared = 0;
  for (float min_child : {0.0f, 1.0f, 3.0f}) {
    TreeParam p;
    p.min_child_weight = min_child;
    SplitEvaluator ev(p, cuts, kUnit);
    ev.SetVectorScan(false);  // the scalar one-pass scan (split_scan_test.cc checks the vector one)
    for (int trial = 0; trial < 3000; ++trial) {
      Histogram hist(cuts.values.size());
      GradientPairInt node_sum;
      for (GradientPairInt& bin : hist) {
        if (empty(rng) == 0) continue;
        bin = {grad(rng), hess(rng)};
        node_sum += bin;
      }
      node_sum += GradientPairInt{grad(rng) * (trial % 3), hess(rng) * (trial % 3)};  // missing
      const SplitCandidate want = TwoScans(ev, cuts, hist, node_sum, min_child);
      const SplitCandidate got = ev.EvaluateNode(hist, node_sum, {0}, 1);
      ASSERT_EQ(got.loss_chg, want.loss_chg) << trial;
      ASSERT_EQ(got.split_bin, want.split_bin) << trial;
      ASSERT_EQ(got.default_left, want.default_left) << trial;
      ASSERT_TRUE(got.left_sum == want.left_sum) << trial;
      if (want.split_bin >= 0 || want.loss_chg > 0.0f) {
        ASSERT_TRUE(got.right_sum == node_sum - want.left_sum) << trial;
        ASSERT_FLOAT_EQ(got.split_value,
                        want.split_bin < 0 ? cuts.min_vals[0] : cuts.values[want.split_bin]);
      }
      with_missing_left += want.default_left;
      ++compared;
    }
  }
  EXPECT_GT(with_missing_left, compared / 20);  // both directions were exercised
}

// A sibling derived during the evaluation (single process) equals parent - built on every
// bin, the sampled features' and the others', and its best split equals the one evaluated
// from a histogram subtracted beforehand; a node without derivation in the same call is
// untouched. 1 and 2 threads (6 x 1200 bins: (2 x 2 sampled + 4 derived) x 1200 x 4 is
// above kMinParallelWork, so the two-thread call runs in parallel).
TEST(SplitFormula, DerivedSiblingEqualsSubtractionAndItsEvaluation) {
  HistogramCuts cuts;
  cuts.ptrs = {0};
  for (int f = 0; f < 6; ++f) {
    for (int b = 1; b <= 1200; ++b) cuts.values.push_back(static_cast<float>(b));
    cuts.ptrs.push_back(static_cast<std::uint32_t>(cuts.values.size()));
    cuts.min_vals.push_back(0.0f);
  }
  std::mt19937_64 rng(3);
  std::uniform_int_distribution<std::int64_t> part(0, 1000);
  Histogram parent(cuts.TotalBins()), built(cuts.TotalBins()), other(cuts.TotalBins());
  GradientPairInt parent_sum, built_sum, other_sum;
  for (std::size_t b = 0; b < parent.size(); ++b) {
    built[b] = {part(rng) - 500, part(rng)};
    parent[b] = built[b];
    parent[b] += GradientPairInt{part(rng) - 400, part(rng)};
    other[b] = {part(rng) - 500, part(rng)};
  }
  for (std::uint32_t b = cuts.ptrs[0]; b < cuts.ptrs[1]; ++b) {  // feature 0 has every row
    parent_sum += parent[b];
    built_sum += built[b];
    other_sum += other[b];
  }
  const GradientPairInt sibling_sum = parent_sum - built_sum;
  Histogram want(cuts.TotalBins());
  for (std::size_t b = 0; b < want.size(); ++b) want[b] = parent[b] - built[b];
  TreeParam p;
  const GradientQuantiser q(1.0, 1.0);
  SplitEvaluator ev(p, cuts, q);
  const std::vector<std::uint32_t> sampled = {1, 4};
  for (int nthread : {1, 2}) {
    Histogram derived(cuts.TotalBins(), GradientPairInt{7, 7});  // stale contents
    const Histogram other_before = other;
    SplitEvaluator::NodeInput with{&derived, sibling_sum, sampled};
    with.derive = &derived;
    with.parent = &parent;
    with.built = &built;
    const std::vector<SplitCandidate> got =
        ev.EvaluateNodes({{&other, other_sum, sampled}, with}, nthread);
    EXPECT_TRUE(derived == want) << nthread;
    EXPECT_TRUE(other == other_before) << nthread;
    const std::vector<SplitCandidate> ref =
        ev.EvaluateNodes({{&other, other_sum, sampled}, {&want, sibling_sum, sampled}}, nthread);
    for (int i = 0; i < 2; ++i) {
      EXPECT_EQ(got[i].feature, ref[i].feature) << nthread;
      EXPECT_EQ(got[i].split_bin, ref[i].split_bin) << nthread;
      EXPECT_EQ(got[i].loss_chg, ref[i].loss_chg) << nthread;
      EXPECT_TRUE(got[i].left_sum == ref[i].left_sum) << nthread;
    }
  }
}

// min_data_in_leaf: LightGBM rejects a child whose RoundInt(H_child x rows / H_node) < m.
// Bin 0 holds (-10, 2) and the node 64 rows with hessian 32, so bin 0's count is
// round(2 x 64 / 32) = 4: isolating it is the best split up to m = 4 and refused from m = 5,
// where the next cut (bins 0-1 left) wins. With 32 rows (count 2) it is refused from m = 3.
TEST(SplitFormula, MinDataInLeafIsLightGbmRowEstimate) {
  const HistogramCuts cuts = OneFeature({1, 2, 3, 4});
  const Histogram hist = {{-10, 2}, {1, 10}, {2, 10}, {3, 10}};
  const GradientPairInt node{-4, 32};
  struct Case {
    int min_data;
    std::uint64_t rows;
    int want_bin;
  };
  for (const Case c : {Case{0, 64, 0}, Case{4, 64, 0}, Case{5, 64, 1}, Case{2, 32, 0},
                       Case{3, 32, 1}, Case{9, 32, 1}, Case{20, 32, -1}}) {
    TreeParam p;
    p.min_data_in_leaf = c.min_data;
    SplitEvaluator ev(p, cuts, kUnit);
    ev.SetVectorScan(false);
    EXPECT_DOUBLE_EQ(ev.MinChildHess(node, c.rows),
                     c.min_data == 0 ? 1.0 : std::max(1.0, (c.min_data - 0.5) * 32 / c.rows));
    SplitEvaluator::NodeInput in{&hist, node, {0}};
    in.rows = c.rows;
    const SplitCandidate best = ev.EvaluateNodes({in}, 1).front();
    EXPECT_EQ(best.split_bin, c.want_bin) << "min_data " << c.min_data << " rows " << c.rows;
  }
}

}  // namespace
}  // namespace treering::booster
