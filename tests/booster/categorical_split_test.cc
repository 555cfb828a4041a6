// Categorical split search (booster/tree/split/categorical_split.cc) against expectations
// computed from XGBoost 1.7's rules with the evaluator's own gain formula (checked by hand in
// split_formula_test.cc): one-hot candidates, the weight order of partition scans, which scan
// wins and where the missing rows go, and max_cat_threshold cutting the scans short. The
// whole-model comparison with python3-xgboost is tests/cli/categorical_test.py.
#include <algorithm>
#include <cmath>
#include <limits>
#include <random>

#include <gtest/gtest.h>

#include "booster/tree/split/split_evaluator.h"

namespace treering::booster {
namespace {

const GradientQuantiser kUnit(1.0, 1.0);  // integer sums read as plain numbers

// One categorical feature with bins 0..n-1 (as categorical_cuts.cc builds them).
HistogramCuts Categories(int n) {
  HistogramCuts c;
  for (int k = 0; k < n; ++k) c.values.push_back(static_cast<float>(k + 1));
  c.ptrs = {0, static_cast<std::uint32_t>(n)};
  c.min_vals = {0.0f};
  return c;
}

TreeParam CategoricalParam() {
  TreeParam p;
  p.feature_types = {"c"};
  p.min_child_weight = 0.0f;
  return p;
}

GradientPairInt Sum(const Histogram& h, GradientPairInt missing) {
  GradientPairInt s = missing;
  for (const GradientPairInt& b : h) s += b;
  return s;
}

float Loss(const SplitEvaluator& ev, GradientPairInt left, GradientPairInt right,
           GradientPairInt node) {
  return ev.Gain(left) + ev.Gain(right) - ev.Gain(node);
}

TEST(CategoricalSplit, OneHotPicksTheBestCategoryAndMissingSide) {
  const TreeParam p = CategoricalParam();  // max_cat_to_onehot 4 > 3 categories
  const HistogramCuts cuts = Categories(3);
  SplitEvaluator ev(p, cuts, kUnit);
  const Histogram hist = {{-5, 5}, {20, 5}, {-5, 5}};
  const GradientPairInt missing{10, 5}, node = Sum(hist, missing);
  // Expected: the best of the 6 candidates in XGBoost's order (strictly better replaces).
  float best = 0.0f;
  int best_cat = -1;
  bool best_left = false;
  for (int c = 0; c < 3; ++c) {
    for (bool default_left : {true, false}) {
      GradientPairInt right = hist[c];
      if (!default_left) right += missing;
      const float loss = Loss(ev, node - right, right, node);
      if (loss > best) {
        best = loss;
        best_cat = c;
        best_left = default_left;
      }
    }
  }
  const SplitCandidate s = ev.EvaluateNode(hist, node, {0}, 1);
  ASSERT_EQ(s.cat_kind, SplitCandidate::kOneHot);
  EXPECT_EQ(s.split_bin, best_cat);
  EXPECT_EQ(s.default_left, best_left);
  EXPECT_FLOAT_EQ(s.loss_chg, best);
  EXPECT_EQ(ev.CategorySet(hist, s), std::vector<std::int32_t>{best_cat});
  EXPECT_TRUE(std::isnan(s.split_value));
}

// Weights -G/(H + 1): categories 0 and 3 lowest, so a partition sends {0, 3} right.
const Histogram kFive = {{10, 5}, {-10, 5}, {-10, 5}, {10, 5}, {-10, 5}};

TEST(CategoricalSplit, PartitionForwardScanWinsTiesWithMissingLeft) {
  const TreeParam p = CategoricalParam();  // 5 categories >= max_cat_to_onehot 4
  const HistogramCuts cuts = Categories(5);
  SplitEvaluator ev(p, cuts, kUnit);
  const GradientPairInt node = Sum(kFive, {});
  const SplitCandidate s = ev.EvaluateNode(kFive, node, {0}, 1);
  ASSERT_EQ(s.cat_kind, SplitCandidate::kPartition);
  EXPECT_EQ(ev.CategorySet(kFive, s), (std::vector<std::int32_t>{0, 3}));
  // Without missing rows the backward scan finds the same split; it is not strictly better.
  EXPECT_TRUE(s.default_left);
  EXPECT_FLOAT_EQ(s.loss_chg, Loss(ev, {-30, 15}, {20, 10}, node));
}

TEST(CategoricalSplit, PartitionBackwardScanSendsMissingRight) {
  const TreeParam p = CategoricalParam();
  const HistogramCuts cuts = Categories(5);
  SplitEvaluator ev(p, cuts, kUnit);
  const GradientPairInt missing{50, 5}, node = Sum(kFive, missing);
  const SplitCandidate s = ev.EvaluateNode(kFive, node, {0}, 1);
  ASSERT_EQ(s.cat_kind, SplitCandidate::kPartition);
  EXPECT_EQ(ev.CategorySet(kFive, s), (std::vector<std::int32_t>{0, 3}));
  EXPECT_FALSE(s.default_left);  // {0, 3} and the missing rows right
  EXPECT_FLOAT_EQ(s.loss_chg, Loss(ev, {-30, 15}, {70, 15}, node));
  EXPECT_GT(s.loss_chg, Loss(ev, {20, 20}, {20, 10}, node));  // the forward scan's best
}

TEST(CategoricalSplit, MaxCatThresholdCutsTheScansShort) {
  TreeParam p = CategoricalParam();
  p.max_cat_threshold = 2;  // one step from each end
  const HistogramCuts cuts = Categories(5);
  SplitEvaluator ev(p, cuts, kUnit);
  const GradientPairInt node = Sum(kFive, {});
  const SplitCandidate s = ev.EvaluateNode(kFive, node, {0}, 1);
  ASSERT_EQ(s.cat_kind, SplitCandidate::kPartition);
  // Order by weight (stable): 0, 3, 1, 2, 4. Forward: {0} right; backward: {4} left, i.e.
  // {0, 3, 1, 2} right. The forward one is better (and wins a tie).
  const float fwd = Loss(ev, {-20, 20}, {10, 5}, node);
  const float bwd = Loss(ev, {-10, 5}, {0, 20}, node);
  const bool forward = !(bwd > fwd);
  EXPECT_EQ(s.default_left, forward);
  const std::vector<std::int32_t> expected =
      forward ? std::vector<std::int32_t>{0} : std::vector<std::int32_t>{0, 1, 2, 3};
  EXPECT_EQ(ev.CategorySet(kFive, s), expected);
  EXPECT_FLOAT_EQ(s.loss_chg, forward ? fwd : bwd);
}

TEST(CategoricalSplit, MaxCatToOnehotSwitchesTheKind) {
  TreeParam p = CategoricalParam();
  p.max_cat_to_onehot = 6;  // 5 categories < 6: one-hot
  const HistogramCuts cuts = Categories(5);
  SplitEvaluator ev(p, cuts, kUnit);
  const SplitCandidate s = ev.EvaluateNode(kFive, Sum(kFive, {}), {0}, 1);
  EXPECT_EQ(s.cat_kind, SplitCandidate::kOneHot);
}

// The weight order is sorted only at both ends (CategoryOrder): the winner's category set
// must still be the first cat_count bins of the full stable order by weight, for scans from
// either end, with many equal weights (small integer sums) and max_cat_threshold below and
// above half the categories.
TEST(CategoricalSplit, PartialOrderGivesTheStableOrdersSets) {
  constexpr int kCategories = 300;
  const HistogramCuts cuts = Categories(kCategories);
  std::mt19937 rng(23);
  std::uniform_int_distribution<std::int64_t> grad(-3, 3), hess(0, 3);
  int forward = 0, backward = 0;
  for (int threshold : {8, 64, 200}) {
    TreeParam p = CategoricalParam();
    p.max_cat_threshold = threshold;
    const SplitEvaluator ev(p, cuts, kUnit);
    for (int trial = 0; trial < 200; ++trial) {
      Histogram h(kCategories);
      for (GradientPairInt& b : h) b = {grad(rng), hess(rng)};
      const GradientPairInt sum = Sum(h, {grad(rng) * (trial % 2), hess(rng) * (trial % 2)});
      const SplitCandidate c = ev.EvaluateNode(h, sum, {0}, 1);
      if (c.cat_kind != SplitCandidate::kPartition) continue;
      std::vector<std::int32_t> order(kCategories);
      for (int b = 0; b < kCategories; ++b) order[b] = b;
      std::stable_sort(order.begin(), order.end(), [&](std::int32_t l, std::int32_t r) {
        return ev.Weight(h[l]) < ev.Weight(h[r]);
      });
      std::vector<std::int32_t> want(order.begin(), order.begin() + c.cat_count);
      std::sort(want.begin(), want.end());
      ASSERT_EQ(ev.CategorySet(h, c), want) << "threshold " << threshold << " trial " << trial;
      (c.default_left ? forward : backward) += 1;
    }
  }
  EXPECT_GT(forward, 20);
  EXPECT_GT(backward, 20);
}

}  // namespace
}  // namespace treering::booster
