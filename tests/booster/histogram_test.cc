// HistogramBuilder against a plain per-row sum of quantised gradients, for the dense and the
// sparse layout, on all rows, on scattered row subsets (one level of three nodes, cut
// between thread shares), the root (column-wise on sparse data), with 1, 2 and 3 threads,
// and the row sum it returns; and the quantiser against std::llrint.
#include "booster/tree/hist/histogram.h"

#include <cmath>
#include <numeric>
#include <random>

#include <gtest/gtest.h>

#include "synthetic_data.h"

namespace treering::booster {
namespace {

// Reference: every stored entry of every row adds the row's pair to its global bin.
Histogram NaiveHistogram(const data::DMatrix& dm, const HistogramCuts& cuts,
                         const std::vector<GradientPairInt>& gpair,
                         const std::vector<std::uint32_t>& rows) {
  Histogram hist(cuts.TotalBins());
  for (std::uint32_t row : rows) {
    for (auto j = dm.row_ptr[row]; j < dm.row_ptr[row + 1]; ++j) {
      hist[cuts.SearchBin(dm.index[j], dm.value[j])] += gpair[row];
    }
  }
  return hist;
}

GradientPairInt NaiveSum(const std::vector<GradientPairInt>& gpair,
                         const std::vector<std::uint32_t>& rows) {
  GradientPairInt sum;
  for (std::uint32_t row : rows) sum += gpair[row];
  return sum;
}

void ExpectBuilderMatches(const data::DMatrix& dm, std::uint32_t features,
                          BinnedMatrix::Layout layout) {
  const HistogramCuts cuts = BuildCuts(dm, features, 256, 1, rabit::DefaultComm());
  const BinnedMatrix m = BinnedMatrix::Build(dm, cuts, 1);
  ASSERT_EQ(m.layout(), layout);
  std::mt19937_64 rng(5);
  std::normal_distribution<float> normal(0.0f, 2.0f);
  std::vector<GradientPair> gpair(dm.NumRows());
  for (auto& g : gpair) g = {normal(rng), std::fabs(normal(rng))};
  // Scales that leave fractions to round (a builder reading unquantised or truncated values
  // fails the comparison).
  const GradientQuantiser quantiser(std::ldexp(1.0, 30), std::ldexp(1.0, 29));
  std::vector<GradientPairInt> quantised(gpair.size());
  for (std::size_t i = 0; i < gpair.size(); ++i) {
    quantised[i] = {std::llrint(double(gpair[i].grad) * std::ldexp(1.0, 30)),
                    std::llrint(double(gpair[i].hess) * std::ldexp(1.0, 29))};
  }
  std::vector<std::uint32_t> all(dm.NumRows()), odd, sparse_subset;
  for (std::uint32_t r = 0; r < all.size(); ++r) {
    all[r] = r;
    if (r % 2 == 1) odd.push_back(r);
    if (rng() % 7 == 0) sparse_subset.push_back(r);
  }
  for (int nthread : {1, 2, 3}) {  // 3: a node cut twice
    const Context ctx{.nthread = nthread};
    HistogramBuilder builder(&m, cuts.TotalBins(), ctx);
    // Every output holds stale values (recycled buffers do): each must be overwritten, a node
    // without rows with zeros.
    const Histogram stale(cuts.TotalBins(), GradientPairInt{3, 4});
    Histogram h_all = stale, h_odd = stale, h_subset = stale, h_empty = stale;
    const std::vector<std::uint32_t> none;
    const auto span = [](const std::vector<std::uint32_t>& v) {
      return RowSpan{v.data(), v.data() + v.size()};
    };
    const GradientPairInt sum =
        builder.Build(gpair, quantiser, {span(all), span(none), span(odd), span(sparse_subset)},
                      {&h_all, &h_empty, &h_odd, &h_subset});
    EXPECT_TRUE(h_empty == Histogram(cuts.TotalBins())) << nthread;
    EXPECT_TRUE(h_all == NaiveHistogram(dm, cuts, quantised, all)) << nthread;
    EXPECT_TRUE(h_odd == NaiveHistogram(dm, cuts, quantised, odd)) << nthread;
    EXPECT_TRUE(h_subset == NaiveHistogram(dm, cuts, quantised, sparse_subset)) << nthread;
    GradientPairInt want = NaiveSum(quantised, all);
    want += NaiveSum(quantised, odd);
    want += NaiveSum(quantised, sparse_subset);
    EXPECT_TRUE(sum == want) << nthread;
    // The root (all rows in order): column by column on sparse data, else Build.
    Histogram h_root = stale;
    const GradientPairInt root_sum = builder.BuildRoot(gpair, quantiser, span(all), &h_root);
    EXPECT_TRUE(h_root == NaiveHistogram(dm, cuts, quantised, all)) << nthread;
    EXPECT_TRUE(root_sum == NaiveSum(quantised, all)) << nthread;
  }
}

TEST(Histogram, DenseBuilderEqualsNaiveSum) {
  const data::DMatrix dm = testing::MakeSynthetic(
      {.rows = 3000, .features = 10, .missing = 0.0, .distinct_values = 300});
  ExpectBuilderMatches(dm, 10, BinnedMatrix::Layout::kDense8);
}

TEST(Histogram, SparseBuilderEqualsNaiveSum) {
  // 160 features x 256 bins: a histogram larger than L2, as on Fashion-MNIST.
  const data::DMatrix dm = testing::MakeSynthetic(
      {.rows = 3000, .features = 160, .missing = 0.5, .distinct_values = 400});
  const HistogramCuts cuts = BuildCuts(dm, 160, 256, 1, rabit::DefaultComm());
  ASSERT_GT(cuts.TotalBins(), 32768u);
  ExpectBuilderMatches(dm, 160, BinnedMatrix::Layout::kSparse);
  // Half empty: the CSR kernel, not one slot per (row, feature).
  const BinnedMatrix m = BinnedMatrix::Build(dm, cuts, 1);
  EXPECT_EQ(m.RowSlots8(), nullptr);
  EXPECT_EQ(m.RowSlots16(), nullptr);
}

// Nearly full sparse data (the ranking set's shape) is accumulated from one slot per (row,
// feature) with a missing code: uint8 slots when every feature has < 255 bins, else uint16.
TEST(Histogram, NearlyFullSparseBuilderEqualsNaiveSum) {
  for (const int distinct : {100, 400}) {
    const data::DMatrix dm = testing::MakeSynthetic(
        {.rows = 3000, .features = 12, .missing = 0.05, .distinct_values = distinct});
    ASSERT_LT(dm.NumNonZero(), dm.NumRows() * 12);
    const HistogramCuts cuts = BuildCuts(dm, 12, 256, 1, rabit::DefaultComm());
    const BinnedMatrix m = BinnedMatrix::Build(dm, cuts, 1);
    EXPECT_EQ(m.RowSlots8() != nullptr, distinct == 100) << distinct;
    EXPECT_EQ(m.RowSlots16() != nullptr, distinct == 400) << distinct;
    ExpectBuilderMatches(dm, 12, BinnedMatrix::Layout::kSparse);
  }
}

// Sparse shares are cut by stored entries: rows 0..999 hold every feature, rows 1000..3999
// one each, so equal row counts would give the first thread nearly all the work.
TEST(Histogram, SparseSharesHoldEqualEntries) {
  data::DMatrix dm;
  dm.row_ptr = {0};
  for (std::uint32_t r = 0; r < 4000; ++r) {
    const std::uint32_t features = r < 1000 ? 40 : 1;
    for (std::uint32_t f = 0; f < features; ++f) {
      dm.index.push_back(f);
      dm.value.push_back(static_cast<float>((r + f) % 7));
    }
    dm.row_ptr.push_back(dm.index.size());
    dm.label.push_back(0.0f);
  }
  const HistogramCuts cuts = BuildCuts(dm, 40, 256, 1, rabit::DefaultComm());
  const BinnedMatrix m = BinnedMatrix::Build(dm, cuts, 1);
  ASSERT_EQ(m.layout(), BinnedMatrix::Layout::kSparse);
  std::vector<std::uint32_t> evens, odds;
  for (std::uint32_t r = 0; r < 4000; ++r) (r % 2 ? odds : evens).push_back(r);
  const std::vector<RowSpan> rows = {{evens.data(), evens.data() + evens.size()},
                                     {odds.data(), odds.data() + odds.size()}};
  const std::vector<std::size_t> prefix = {0, 2000, 4000};
  const Context ctx{.nthread = 2};
  HistogramBuilder builder(&m, cuts.TotalBins(), ctx);
  for (int threads : {2, 3}) {
    const std::vector<std::size_t> b = builder.ShareBounds(rows, prefix, threads);
    ASSERT_EQ(b.size(), std::size_t(threads) + 1);
    EXPECT_EQ(b.front(), 0u);
    EXPECT_EQ(b.back(), 4000u);
    // Entries per position of the concatenation: evens then odds.
    std::vector<std::uint64_t> cost;
    for (const auto* list : {&evens, &odds}) {
      for (std::uint32_t r : *list) cost.push_back(dm.row_ptr[r + 1] - dm.row_ptr[r]);
    }
    const std::uint64_t total = std::accumulate(cost.begin(), cost.end(), std::uint64_t(0));
    for (int t = 0; t < threads; ++t) {
      ASSERT_LE(b[t], b[t + 1]);
      const std::uint64_t share =
          std::accumulate(cost.begin() + b[t], cost.begin() + b[t + 1], std::uint64_t(0));
      EXPECT_NEAR(double(share), double(total) / threads, 41.0) << threads << " " << t;
    }
  }
}

// Quantise rounds as std::llrint does (to nearest, ties to even: x.5 values are where a
// truncating or away-from-zero conversion would differ).
TEST(GradientQuantiser, RoundsLikeLlrint) {
  const GradientQuantiser q(2.0, 4.0);  // grad * 2, hess * 4: 0.25 steps hit exact halves
  std::vector<GradientPair> gpair;
  for (int i = -40; i <= 40; ++i) gpair.push_back({i * 0.25f, (i + 40) * 0.125f});
  std::mt19937 rng(3);
  std::normal_distribution<float> normal(0.0f, 1e3f);
  for (int i = 0; i < 50000; ++i) gpair.push_back({normal(rng), std::fabs(normal(rng))});
  for (const GradientPair& g : gpair) {
    const GradientPairInt want = {std::llrint(double(g.grad) * 2.0),
                                  std::llrint(double(g.hess) * 4.0)};
    ASSERT_TRUE(q.Quantise(g) == want) << g.grad << " " << g.hess;
  }
}

}  // namespace
}  // namespace treering::booster
