// Sparse layout: which child each row of a level's splits goes to. A row's value of the split
// feature would need a search in its CSR row (a few cache misses per row: measured slower than
// walking the column, which is sequential), so one of two column reads is used.
//
// Mostly full data (ranking: 49 of 50 features per row; categorical bench: 95 %): a
// column-major copy of every row's local bin (bin_columns8_ / bin_columns_, 1 or 2 bytes per
// cell, at most the 6 bytes per entry the CSC copy already takes) makes a decision one read,
// prefetched, as for dense data. The walk below cost 15 % of the ranking bench and 46 % of the
// categorical one.
//
// Sparser data: the level's splits are grouped by feature, so a column is walked once per
// level however many nodes split on it (it was once per split), and the rows are cut into one
// slice per thread. A thread then owns its slice's goes_left_ entries and writes every entry
// of the column without asking first whether the row belongs to a split on this feature (that
// branch went either way at random): a row of another split keeps its value through a select.
#include <algorithm>
#include <type_traits>

#include "base/parallel_for.h"
#include "booster/tree/grow/tree_grower.h"
#include "booster/work_split.h"

namespace treering::booster {

namespace {

// Cells of bin_columns_ per stored entry, at most: 3 costs no more memory than the CSC copy.
constexpr std::size_t kBinColumnCellsPerEntry = 3;

// Per split k, its feature's local bin -> goes left, in one flat array; one extra all-zero
// table for "no split on this feature" is as long as the widest feature. With `missing_first`
// every table starts with the split's default direction (bin_columns_ stores bin + 1).
struct DecisionTables {
  std::vector<std::uint8_t> flat;
  std::vector<std::uint32_t> offset;   // per split, and the extra one last
  std::vector<std::uint32_t> feature;  // per split, and kNoFeature last
  static constexpr std::uint32_t kNoFeature = ~0u;
};

DecisionTables MakeTables(const HistogramCuts& cuts, const std::vector<ExpandEntry>& applied,
                          const std::vector<std::vector<std::uint8_t>>& categorical,
                          bool missing_first) {
  DecisionTables t;
  std::uint32_t widest = 0;
  for (std::size_t k = 0; k < applied.size(); ++k) {
    const SplitCandidate& s = applied[k].split;
    const std::uint32_t bins = cuts.FeatureBins(s.feature);
    widest = std::max(widest, bins + 1);
    t.offset.push_back(static_cast<std::uint32_t>(t.flat.size()));
    t.feature.push_back(s.feature);
    if (missing_first) t.flat.push_back(s.default_left);
    if (!categorical.empty()) {
      t.flat.insert(t.flat.end(), categorical[k].begin(), categorical[k].end());
      continue;
    }
    for (std::uint32_t b = 0; b < bins; ++b) t.flat.push_back(static_cast<int>(b) <= s.split_bin);
  }
  t.offset.push_back(static_cast<std::uint32_t>(t.flat.size()));
  t.feature.push_back(DecisionTables::kNoFeature);
  t.flat.resize(t.flat.size() + widest, 0);
  return t;
}

}  // namespace

bool TreeGrower::BuildBinColumns() {
  if (bin_columns_state_ != BinColumns::kUnknown) return bin_columns_state_ == BinColumns::kBuilt;
  const std::size_t rows = matrix_.NumRows(), features = matrix_.NumFeatures();
  std::size_t entries = 0, widest = 0;
  for (std::uint32_t f = 0; f < features; ++f) {
    entries += matrix_.FeatureColumn(f).size;
    widest = std::max<std::size_t>(widest, cuts_.FeatureBins(f));
  }
  if (rows * features > entries * kBinColumnCellsPerEntry || widest >= 0xFFFF) {
    bin_columns_state_ = BinColumns::kTooSparse;
    return false;
  }
  const auto fill = [&](auto* cells) {
    using Cell = std::remove_pointer_t<decltype(cells)>;
    ParallelFor(features, ThreadsFor(rows * features, ctx_.Threads()), [&](std::size_t f) {
      Cell* out = cells + f * rows;
      std::fill(out, out + rows, Cell{0});
      const BinnedMatrix::Column col = matrix_.FeatureColumn(static_cast<std::uint32_t>(f));
      col.WithBins([&](const auto* bins) {
        for (std::size_t i = 0; i < col.size; ++i) {
          out[col.rows[i]] = static_cast<Cell>(bins[i] + 1);
        }
      });
    });
  };
  if (widest <= 0xFF) {
    bin_columns8_.resize(rows * features);
    fill(bin_columns8_.data());
  } else {
    bin_columns_.resize(rows * features);
    fill(bin_columns_.data());
  }
  bin_columns_state_ = BinColumns::kBuilt;
  return true;
}

void TreeGrower::PartitionByBinColumns(const std::vector<RowPartition::SplitTask>& tasks,
                                       const Batch& applied,
                                       const std::vector<std::vector<std::uint8_t>>& tables) {
  const DecisionTables t = MakeTables(cuts_, applied, tables, true);
  const std::size_t rows = matrix_.NumRows();
  const auto split = [&](const auto* cells) {
    using Cell = std::remove_cv_t<std::remove_pointer_t<decltype(cells)>>;
    struct BinColumnGoesLeft {
      const Cell* column;
      const std::uint8_t* table;  // [0] = default direction, then per local bin
      bool operator()(std::uint32_t row) const { return table[column[row]] != 0; }
      void Prefetch(std::uint32_t row) const { __builtin_prefetch(column + row); }
    };
    partition_.Split(
        tasks,
        [&](std::size_t k) {
          return BinColumnGoesLeft{cells + applied[k].split.feature * rows,
                                   t.flat.data() + t.offset[k]};
        },
        ctx_.Threads());
  };
  if (!bin_columns8_.empty()) {
    split(bin_columns8_.data());
  } else {
    split(bin_columns_.data());
  }
}

void TreeGrower::DecideByColumns(const Batch& applied,
                                 const std::vector<std::vector<std::uint8_t>>& tables) {
  const std::size_t num_rows = matrix_.NumRows();
  const auto none = static_cast<std::uint32_t>(applied.size());
  // Rows of nodes not split now point at the extra table (a stale index could be any split).
  row_task_.assign(num_rows, none);
  goes_left_.resize(num_rows);
  std::vector<std::uint32_t> features;
  for (std::size_t k = 0; k < applied.size(); ++k) {
    const RowSpan rows = partition_.Rows(applied[k].node);
    for (const std::uint32_t* r = rows.begin; r != rows.end; ++r) {
      row_task_[*r] = static_cast<std::uint32_t>(k);
      goes_left_[*r] = applied[k].split.default_left;
    }
    features.push_back(applied[k].split.feature);
  }
  std::sort(features.begin(), features.end());
  features.erase(std::unique(features.begin(), features.end()), features.end());
  std::size_t work = 0;
  for (const std::uint32_t f : features) work += matrix_.FeatureColumn(f).size;
  const DecisionTables t = MakeTables(cuts_, applied, tables, false);
  const int slices = ThreadsFor(work, ctx_.Threads());
  ParallelFor(slices, slices, [&](int slice) {
    const auto lo = static_cast<std::uint32_t>(num_rows * slice / slices);
    const auto hi = static_cast<std::uint32_t>(num_rows * (slice + 1) / slices);
    const std::uint32_t* task = row_task_.data();
    const std::uint32_t* task_feature = t.feature.data();
    const std::uint32_t* offset = t.offset.data();
    const std::uint8_t* flat = t.flat.data();
    std::uint8_t* goes_left = goes_left_.data();
    for (const std::uint32_t f : features) {
      const BinnedMatrix::Column col = matrix_.FeatureColumn(f);
      const std::uint32_t* begin = std::lower_bound(col.rows, col.rows + col.size, lo);
      const std::uint32_t* end = std::lower_bound(begin, col.rows + col.size, hi);
      col.WithBins([&](const auto* col_bins) {
        const auto* bins = col_bins + (begin - col.rows);
        for (const std::uint32_t* r = begin; r != end; ++r, ++bins) {
          const std::uint32_t row = *r;
          const std::uint32_t k = task[row];
          const bool mine = task_feature[k] == f;
          const std::uint8_t left = flat[offset[mine ? k : none] + *bins];
          goes_left[row] = mine ? left : goes_left[row];
        }
      });
    }
  });
}

}  // namespace treering::booster
