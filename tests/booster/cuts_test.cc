// Cut points (XGBoost's rules), the quantile summary operations and the binned matrix.
#include <cmath>
#include <random>

#include <gtest/gtest.h>

#include "booster/tree/sketch/binned_matrix.h"
#include "booster/tree/sketch/hist_cuts.h"
#include "booster/tree/sketch/quantile_summary.h"
#include "booster/tree/sketch/radix_sort.h"
#include "synthetic_data.h"

namespace treering::booster {
namespace {

data::DMatrix OneColumn(const std::vector<float>& values) {
  data::DMatrix dm;
  for (float v : values) {
    dm.index.push_back(0);
    dm.value.push_back(v);
    dm.row_ptr.push_back(dm.index.size());
    dm.label.push_back(0);
  }
  dm.num_col = 1;
  return dm;
}

TEST(Cuts, FewDistinctValuesGiveEveryValueButTheMinimumPlusSentinel) {
  const auto dm = OneColumn({3, 1, 2, 2, 5, 1, 3});
  const HistogramCuts cuts = BuildCuts(dm, 1, 256, 1, rabit::DefaultComm());
  const std::vector<float> want = {2, 3, 5, 5 + (5 + 1e-5f)};
  EXPECT_EQ(cuts.values, want);
  EXPECT_FLOAT_EQ(cuts.min_vals[0], 1 - (1 + 1e-5f));
  EXPECT_EQ(cuts.SearchBin(0, 1), 0u);
  EXPECT_EQ(cuts.SearchBin(0, 2), 1u);
  EXPECT_EQ(cuts.SearchBin(0, 4.9f), 2u);
  EXPECT_EQ(cuts.SearchBin(0, 100), 3u);  // clamped into the last bin
}

TEST(Cuts, ManyDistinctValuesRespectMaxBinAndQuantiles) {
  std::vector<float> values(20000);
  for (std::size_t i = 0; i < values.size(); ++i) values[i] = static_cast<float>(i);
  std::shuffle(values.begin(), values.end(), std::mt19937(5));
  const HistogramCuts cuts = BuildCuts(OneColumn(values), 1, 16, 1, rabit::DefaultComm());
  ASSERT_LE(cuts.FeatureBins(0), 16u);
  ASSERT_GE(cuts.FeatureBins(0), 14u);
  // Uniform data: the k-th cut sits near the k/16 quantile.
  for (std::uint32_t k = 0; k + 1 < cuts.FeatureBins(0); ++k) {
    EXPECT_NEAR(cuts.values[k], (k + 1) * 20000.0 / 16, 20000.0 / 16 / 2) << k;
  }
}

TEST(Cuts, EmptyFeatureHasOneBin) {
  data::DMatrix dm = OneColumn({1, 2});
  const HistogramCuts cuts =
      BuildCuts(dm, 3, 256, 1, rabit::DefaultComm());  // features 1 and 2 never appear
  EXPECT_EQ(cuts.FeatureBins(1), 1u);
  EXPECT_EQ(cuts.FeatureBins(2), 1u);
}

TEST(QuantileSummary, CombineAddsRanksAndPruneKeepsEnds) {
  const Summary a = MakeExactSummary({1, 2, 2, 4}, {1, 1, 1, 1});
  const Summary b = MakeExactSummary({2, 3}, {2, 1});
  const Summary c = Combine(a, b);
  ASSERT_EQ(c.size(), 4u);  // values 1, 2, 3, 4
  EXPECT_FLOAT_EQ(c[1].value, 2);
  EXPECT_FLOAT_EQ(c[1].wmin, 4);  // 2 + 2
  EXPECT_FLOAT_EQ(c[1].rmin, 1);
  EXPECT_FLOAT_EQ(c[3].rmax, 7);  // total weight
  const Summary p = Prune(c, 2);
  ASSERT_EQ(p.size(), 2u);
  EXPECT_FLOAT_EQ(p.front().value, 1);
  EXPECT_FLOAT_EQ(p.back().value, 4);
}

TEST(BinnedMatrix, LocalBinAgreesWithSplitConditionSemantics) {
  testing::SyntheticSpec spec;
  spec.rows = 300;
  const data::DMatrix dm = testing::MakeSynthetic(spec);
  const HistogramCuts cuts = BuildCuts(dm, spec.features, 256, 2, rabit::DefaultComm());
  const BinnedMatrix m = BinnedMatrix::Build(dm, cuts, 2);
  EXPECT_EQ(m.layout(), BinnedMatrix::Layout::kSparse);
  for (std::size_t row = 0; row < dm.NumRows(); ++row) {
    std::vector<float> x(spec.features, NAN);
    for (auto j = dm.row_ptr[row]; j < dm.row_ptr[row + 1]; ++j) x[dm.index[j]] = dm.value[j];
    for (std::uint32_t f = 0; f < spec.features; ++f) {
      const int bin = m.LocalBin(row, f);
      if (std::isnan(x[f])) {
        EXPECT_EQ(bin, -1);
        continue;
      }
      // bin b <=> cut[b-1] <= x < cut[b]: "bin <= s" is the same test as "x < cut[s]".
      const float* c = cuts.values.data() + cuts.ptrs[f];
      EXPECT_LT(x[f], c[bin]);
      if (bin > 0) {
        EXPECT_GE(x[f], c[bin - 1]);
      }
    }
  }
  spec.missing = 0;
  const data::DMatrix dense = testing::MakeSynthetic(spec);
  EXPECT_EQ(
      BinnedMatrix::Build(dense, BuildCuts(dense, spec.features, 256, 1, rabit::DefaultComm()), 1)
          .layout(),
      BinnedMatrix::Layout::kDense8);
}

}  // namespace
}  // namespace treering::booster

namespace treering::booster {
namespace {

// Dense rows are binned with the features' searches interleaved: every bin must equal
// SearchBin's, with features of different cut counts (a constant column: one bin; few
// distinct values; many) and a feature count that is not a multiple of the lane count.
TEST(BinnedMatrix, DenseBinsEqualSearchBin) {
  for (int max_bin : {256, 1000}) {
    testing::SyntheticSpec spec;
    spec.rows = 2000;
    spec.features = 11;
    spec.missing = 0;
    spec.distinct_values = 3000;
    data::DMatrix dm = testing::MakeSynthetic(spec);
    for (std::size_t row = 0; row < dm.NumRows(); ++row) {
      dm.value[dm.row_ptr[row] + 1] = 2.5f;                              // constant
      dm.value[dm.row_ptr[row] + 4] = static_cast<float>(row % 3);       // three values
      dm.value[dm.row_ptr[row] + 9] = static_cast<float>(row % 37) - 5;  // 37 values
    }
    const HistogramCuts cuts = BuildCuts(dm, spec.features, max_bin, 1, rabit::DefaultComm());
    const BinnedMatrix m = BinnedMatrix::Build(dm, cuts, 2);
    ASSERT_EQ(m.layout(),
              max_bin <= 256 ? BinnedMatrix::Layout::kDense8 : BinnedMatrix::Layout::kDense16);
    for (std::size_t row = 0; row < dm.NumRows(); ++row) {
      for (std::uint32_t f = 0; f < spec.features; ++f) {
        const float x = dm.value[dm.row_ptr[row] + f];
        ASSERT_EQ(m.LocalBin(row, f), int(cuts.SearchBin(f, x) - cuts.ptrs[f]))
            << "row " << row << " feature " << f << " max_bin " << max_bin;
      }
    }
  }
}

// The unweighted summary (no weights vector) equals the weighted one with every weight 1,
// entry for entry, including long runs of one value.
TEST(QuantileSummary, UnweightedEqualsWeightOne) {
  std::mt19937 rng(8);
  std::vector<float> v(100000);
  for (std::size_t i = 0; i < v.size(); ++i) {
    v[i] = static_cast<float>(rng() % (i < 50000 ? 7 : 5000));
  }
  std::sort(v.begin(), v.end());
  const Summary a = MakeExactSummary(v);
  const Summary b = MakeExactSummary(v, std::vector<float>(v.size(), 1.0f));
  ASSERT_EQ(a.size(), b.size());
  for (std::size_t i = 0; i < a.size(); ++i) {
    ASSERT_EQ(a[i].rmin, b[i].rmin) << i;
    ASSERT_EQ(a[i].rmax, b[i].rmax) << i;
    ASSERT_EQ(a[i].wmin, b[i].wmin) << i;
    ASSERT_EQ(a[i].value, b[i].value) << i;
  }
}

TEST(RadixSort, MatchesStdSortWithNegativesZerosAndDuplicates) {
  std::mt19937 rng(2);
  std::normal_distribution<float> normal(0, 100);
  std::vector<float> v(5000);
  for (std::size_t i = 0; i < v.size(); ++i) {
    v[i] = i % 3 == 0 ? std::round(normal(rng)) : normal(rng);
  }
  v[7] = -0.0f;
  v[8] = 0.0f;
  std::vector<float> want = v;
  std::sort(want.begin(), want.end());
  RadixSortFloats(&v);
  EXPECT_EQ(v, want);
}

TEST(Cuts, SearchBinEqualsClampedUpperBound) {
  std::mt19937 rng(4);
  for (int trial = 0; trial < 200; ++trial) {
    std::vector<float> cuts(1 + rng() % 40);
    for (auto& c : cuts) c = static_cast<float>(rng() % 60);
    std::sort(cuts.begin(), cuts.end());
    cuts.erase(std::unique(cuts.begin(), cuts.end()), cuts.end());
    HistogramCuts hc;
    hc.values = cuts;
    hc.ptrs = {0, static_cast<std::uint32_t>(cuts.size())};
    for (float x = -1.0f; x < 62.0f; x += 0.5f) {
      auto it = std::upper_bound(cuts.begin(), cuts.end(), x);
      if (it == cuts.end()) --it;
      ASSERT_EQ(hc.SearchBin(0, x), static_cast<std::uint32_t>(it - cuts.begin())) << x;
    }
  }
}

}  // namespace
}  // namespace treering::booster
