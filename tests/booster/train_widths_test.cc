// Widths of the training structures (docs/learner.md, "Bytes per row"): the grower's bin
// columns take one byte per cell when every feature has <= 255 bins and two otherwise, the
// CSC copy's local bins one byte up to 256 bins, a
// derived sibling histogram lives in its parent's buffer (a full tree holds two histograms per
// parent of its deepest built level, not three), and a sparse row's bins are found without its
// feature ids. Each is checked against the leaves prediction reaches by walking the values.
#include <algorithm>
#include <random>

#include <gtest/gtest.h>

#include "booster/tree/grow/tree_grower.h"
#include "booster/tree/hist/gradient_quantiser.h"
#include "booster/tree/predict/leaf_index.h"
#include "booster/tree/sketch/binned_matrix.h"
#include "booster/tree/sketch/hist_cuts.h"
#include "booster/tree/split/column_sampler.h"
#include "booster/tree/sync/exact_syncs.h"
#include "rabit/rabit.h"
#include "synthetic_data.h"

namespace treering::booster {
namespace {

struct Grown {
  std::size_t cell_bytes = 0;
  std::size_t histogram_buffers = 0;
  std::size_t leaves = 0;
};

// Grows one tree of depth `depth` on `dm` (sparse layout), checks that every row of every
// leaf's partition range reaches that leaf by prediction, and reports the grower's widths.
Grown GrowAndCheck(const data::DMatrix& dm, std::uint32_t features, int max_bin, int depth,
                   int nthread) {
  TreeParam param;
  param.max_depth = depth;
  param.min_child_weight = 0.0f;
  const HistogramCuts cuts = BuildCuts(dm, features, max_bin, 1, rabit::DefaultComm());
  const BinnedMatrix binned = BinnedMatrix::Build(dm, cuts, nthread);
  EXPECT_EQ(binned.layout(), BinnedMatrix::Layout::kSparse);
  ColumnSampler sampler(features, 1.0f, 1.0f, 1.0f, 3);
  const Context ctx{.nthread = nthread};
  LocalSync sync(ctx);
  TreeGrower grower(param, cuts, binned, &sampler, ctx, &sync);
  std::mt19937 rng(5);
  std::normal_distribution<float> noise(0.0f, 0.3f);
  std::vector<GradientPair> gpair(dm.NumRows());
  for (std::size_t r = 0; r < gpair.size(); ++r) gpair[r] = {dm.label[r] + noise(rng), 1.0f};
  const GradientQuantiser q = GradientQuantiser::ForGradients(gpair, 1, rabit::DefaultComm());
  GBTreeModel model;
  model.num_feature = features;
  model.trees.push_back(grower.Grow(gpair, q));
  model.tree_info.push_back(0);
  std::vector<float> leaf;
  PredictLeafIndices(model, dm, 1, 1, &leaf);
  const RegTree& tree = model.trees.front();
  Grown g{grower.BinColumnCellBytes(), grower.HistogramBuffers(), 0};
  for (int node = 0; node < static_cast<int>(tree.left.size()); ++node) {
    if (tree.left[node] >= 0) continue;
    ++g.leaves;
    const RowSpan rows = grower.Partition().Rows(node);
    for (const std::uint32_t* r = rows.begin; r != rows.end; ++r) {
      EXPECT_EQ(static_cast<int>(leaf[*r]), node) << "row " << *r;
    }
  }
  return g;
}

data::DMatrix MostlyFull(int distinct_values) {
  testing::SyntheticSpec spec;
  spec.rows = 20000;
  spec.features = 8;
  spec.missing = 0.1;  // bin columns, not the column walk
  spec.distinct_values = distinct_values;
  spec.task = testing::Task::kRegression;
  return testing::MakeSynthetic(spec);
}

TEST(TrainWidths, BinColumnsTakeOneByteUpTo255Bins) {
  const data::DMatrix narrow = MostlyFull(200);  // <= 200 bins per feature
  const data::DMatrix wide = MostlyFull(400);    // up to 400 bins with max_bin 512
  for (int nthread : {1, 2}) {
    SCOPED_TRACE("nthread " + std::to_string(nthread));
    EXPECT_EQ(GrowAndCheck(narrow, 8, 256, 7, nthread).cell_bytes, 1u);
    EXPECT_EQ(GrowAndCheck(wide, 8, 512, 7, nthread).cell_bytes, 2u);
  }
}

// The CSC copy's local bins: one byte up to 256 bins per feature, two above; the same bins.
TEST(TrainWidths, ColumnBinsTakeOneByteUpTo256Bins) {
  for (int distinct : {200, 400}) {
    SCOPED_TRACE("distinct values " + std::to_string(distinct));
    const data::DMatrix dm = MostlyFull(distinct);
    const HistogramCuts cuts = BuildCuts(dm, 8, 512, 1, rabit::DefaultComm());
    const BinnedMatrix binned = BinnedMatrix::Build(dm, cuts, 2);
    std::uint32_t widest = 0;
    for (std::uint32_t f = 0; f < 8; ++f) widest = std::max(widest, cuts.FeatureBins(f));
    ASSERT_EQ(widest <= 256, distinct == 200) << widest;
    std::size_t entries = 0;
    for (std::uint32_t f = 0; f < 8; ++f) {
      const BinnedMatrix::Column col = binned.FeatureColumn(f);
      EXPECT_EQ(col.bins8 != nullptr, distinct == 200);
      EXPECT_EQ(col.bins16 != nullptr, distinct != 200);
      col.WithBins([&](const auto* bins) {
        for (std::size_t i = 0; i < col.size; ++i) {
          ASSERT_EQ(static_cast<int>(bins[i]), binned.LocalBin(col.rows[i], f));
        }
      });
      entries += col.size;
    }
    EXPECT_EQ(entries, dm.NumNonZero());
  }
}

TEST(TrainWidths, DerivedSiblingsReuseTheParentsBuffers) {
  // A full tree of depth 4 (min_child_weight 0, 20000 rows): histograms are built for nodes of
  // depth <= 3, and the deepest level's 4 parents leave 8 children holding one buffer each;
  // with a separate buffer per derived sibling the parents' 4 would be alive too (12).
  const Grown g = GrowAndCheck(MostlyFull(200), 8, 256, 4, 2);
  EXPECT_EQ(g.leaves, 16u);
  EXPECT_EQ(g.histogram_buffers, 8u);
}

TEST(TrainWidths, SparseBinsWithoutFeatureIds) {
  data::DMatrix dm = MostlyFull(40);
  const HistogramCuts cuts = BuildCuts(dm, 8, 256, 1, rabit::DefaultComm());
  const BinnedMatrix binned = BinnedMatrix::Build(dm, cuts, 2);
  std::vector<int> expected;
  for (std::size_t row = 0; row < dm.NumRows(); ++row) {
    for (std::uint32_t f = 0; f < 8; ++f) expected.push_back(binned.LocalBin(row, f));
  }
  // What the training setup does once the bins exist (train_memory.h): the ids and values go.
  const data::DMatrix kept = dm;
  std::vector<std::uint32_t>().swap(dm.index);
  std::vector<float>().swap(dm.value);
  std::size_t k = 0, missing = 0;
  for (std::size_t row = 0; row < dm.NumRows(); ++row) {
    for (std::uint32_t f = 0; f < 8; ++f, ++k) {
      ASSERT_EQ(binned.LocalBin(row, f), expected[k]) << "row " << row << " feature " << f;
      missing += expected[k] < 0;
    }
  }
  // The expectation itself: the bin of each stored value, -1 where the row lacks the feature.
  for (std::size_t row = 0; row < kept.NumRows(); ++row) {
    for (std::uint64_t j = kept.row_ptr[row]; j < kept.row_ptr[row + 1]; ++j) {
      const std::uint32_t f = kept.index[j];
      EXPECT_EQ(expected[row * 8 + f],
                static_cast<int>(cuts.SearchBin(f, kept.value[j]) - cuts.ptrs[f]));
    }
  }
  EXPECT_EQ(missing, dm.NumRows() * 8 - kept.NumNonZero());
}

}  // namespace
}  // namespace treering::booster
