// The AVX2 dense-row bin search (booster/tree/sketch/dense_bin_search_avx2.cc) against the scalar
// HistogramCuts::SearchBin: random cut sets of 1 to 300 cuts per feature (runs of equal cuts
// included), rows of 1 to 40 features (the eight-wide groups, several groups at once, and the
// last group's lanes past the last feature, which must write nothing), values on cuts, between
// them, beyond both ends, +-0, +-inf and NaN. And the dense bin index BinnedMatrix::Build writes
// with it: every row's bins are SearchBin's, and the column-major copy (written in tiles of 64 rows
// by two threads) holds the same bins.
#include "booster/tree/sketch/dense_bin_search.h"

#include <cmath>
#include <limits>
#include <random>
#include <vector>

#include <gtest/gtest.h>

#include "booster/tree/sketch/binned_matrix.h"
#include "booster/tree/sketch/hist_cuts.h"
#include "rabit/comm.h"
#include "synthetic_data.h"

namespace treering::booster {
namespace {

HistogramCuts RandomCuts(std::mt19937_64& rng, std::uint32_t nf) {
  HistogramCuts cuts;
  std::uniform_real_distribution<float> unit(-100.0f, 100.0f);
  for (std::uint32_t f = 0; f < nf; ++f) {
    const std::uint32_t n = rng() % 4 == 0 ? 1 + rng() % 3 : 1 + rng() % 300;
    std::vector<float> v(n);
    for (float& x : v) x = rng() % 8 == 0 ? std::round(unit(rng)) : unit(rng);
    std::sort(v.begin(), v.end());
    cuts.values.insert(cuts.values.end(), v.begin(), v.end());
    cuts.ptrs.push_back(cuts.ptrs.back() + n);
    cuts.min_vals.push_back(v.front() - 1.0f);
  }
  return cuts;
}

float RandomValue(std::mt19937_64& rng, const HistogramCuts& cuts, std::uint32_t f) {
  const std::uint32_t n = cuts.FeatureBins(f);
  const float* c = cuts.values.data() + cuts.ptrs[f];
  switch (rng() % 10) {
    case 0:
      return c[rng() % n];  // on a cut
    case 1:
      return std::numeric_limits<float>::quiet_NaN();
    case 2:
      return rng() % 2 ? std::numeric_limits<float>::infinity()
                       : -std::numeric_limits<float>::infinity();
    case 3:
      return rng() % 2 ? 0.0f : -0.0f;
    case 4:
      return c[0] - 1.0f;
    case 5:
      return c[n - 1] + 1.0f;
    default:
      return std::uniform_real_distribution<float>(-110.0f, 110.0f)(rng);
  }
}

TEST(DenseBinSearch, Avx2FindsTheScalarBins) {
  std::mt19937_64 rng(19);
  HistogramCuts probe = RandomCuts(rng, 8);
  if (!DenseBinSearchAvx2::For(probe)) GTEST_SKIP() << "this CPU has no AVX2: nothing to compare";
  for (std::uint32_t nf = 1; nf <= 40; ++nf) {
    for (int trial = 0; trial < 20; ++trial) {
      const HistogramCuts cuts = RandomCuts(rng, nf);
      const std::optional<DenseBinSearchAvx2> search = DenseBinSearchAvx2::For(cuts);
      ASSERT_TRUE(search);
      for (int r = 0; r < 50; ++r) {
        std::vector<float> row(nf);
        for (std::uint32_t f = 0; f < nf; ++f) row[f] = RandomValue(rng, cuts, f);
        std::vector<std::uint32_t> bins(nf + 8, 999999);
        search->Row(row.data(), bins.data());
        for (std::uint32_t k = nf; k < nf + 8; ++k) ASSERT_EQ(bins[k], 999999u) << nf;
        for (std::uint32_t f = 0; f < nf; ++f) {
          ASSERT_EQ(bins[f], cuts.SearchBin(f, row[f]) - cuts.ptrs[f])
              << "feature " << f << " of " << nf << ", value " << row[f] << ", "
              << cuts.FeatureBins(f) << " cuts";
        }
      }
    }
  }
}

TEST(DenseBinSearch, AFeatureWithoutCutsFallsBackToScalar) {
  HistogramCuts cuts;
  cuts.values = {1.0f};
  cuts.ptrs = {0, 1, 1};
  cuts.min_vals = {0.0f, 0.0f};
  EXPECT_FALSE(DenseBinSearchAvx2::For(cuts));
}

// Rows not a multiple of the 64-row tile, split over two threads; 29 features (three groups of
// eight and a tail); uint8 bins with their column copy, then uint16 bins.
TEST(DenseBinSearch, BinIndexRowsAndColumnsHoldTheSearchedBins) {
  booster::testing::SyntheticSpec spec;
  spec.rows = 1001;
  spec.features = 29;
  spec.missing = 0.0;
  spec.distinct_values = 400;
  const data::DMatrix dm = booster::testing::MakeSynthetic(spec);
  for (int max_bin : {256, 512}) {
    const HistogramCuts cuts = BuildCuts(dm, spec.features, max_bin, 2, rabit::DefaultComm());
    const BinnedMatrix m = BinnedMatrix::Build(dm, cuts, 2);
    const bool wide = max_bin > 256;
    ASSERT_EQ(m.layout(), wide ? BinnedMatrix::Layout::kDense16 : BinnedMatrix::Layout::kDense8);
    for (std::size_t r = 0; r < spec.rows; ++r) {
      for (std::uint32_t f = 0; f < spec.features; ++f) {
        const std::uint32_t want =
            cuts.SearchBin(f, dm.value[r * spec.features + f]) - cuts.ptrs[f];
        const std::size_t at = r * spec.features + f;
        ASSERT_EQ(wide ? m.Dense16()[at] : m.Dense8()[at], want) << "row " << r << " feature " << f;
        if (!wide) {
          ASSERT_EQ(m.Dense8Column(f)[r], want) << "column copy, row " << r << " feature " << f;
        }
      }
    }
  }
}

}  // namespace
}  // namespace treering::booster
