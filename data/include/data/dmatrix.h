// DMatrix: rows of a sparse data set in CSR form, as the loaders produce them and the learners
// consume them. A feature absent from a row is a *missing* value (not zero), as in XGBoost.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace treering::data {

class ExternalColumns;  // data/external_columns.h

// The most features a data set may have: feature indices are 0 .. kMaxFeatures - 1, checked
// by the parsers (FILE:LINE:COL). The histogram learner keeps ~128 bytes of state per feature
// on every worker whatever the number of rows, so 2^26 features already cost ~8 GiB there;
// the largest public LibSVM sets (kdd2012: 54,686,452 features) fit. docs/data.md, "Feature
// limit".
inline constexpr std::uint64_t kMaxFeatures = std::uint64_t{1} << 26;

struct DMatrix {
  // Row i's entries are index[row_ptr[i] .. row_ptr[i+1]) / value[...], indices strictly
  // increasing within a row. row_ptr has NumRows()+1 entries and starts at 0.
  std::vector<std::uint64_t> row_ptr{0};
  std::vector<std::uint32_t> index;
  std::vector<float> value;
  std::vector<float> label;        // one per row, or rows x label_columns (row-major)
  std::vector<float> weight;       // one per row, or empty when no row carried a weight (all 1)
  std::vector<std::uint64_t> qid;  // one per row, or empty when no row carried qid:N
  // Query groups for ranking, as XGBoost's group_ptr_: group g is rows [group_ptr[g],
  // group_ptr[g + 1]). Empty = no groups (filled from qid or FILE.group, docs/learner.md).
  std::vector<std::uint64_t> group_ptr;
  // 1 + the largest feature index seen locally (0 for no entries). Distributed loaders agree
  // on a global count with an allreduce(max) before training.
  std::uint64_t num_col = 0;

  // XGBoost's MetaInfo beyond labels, weights and groups: set through the C API (files carry
  // none of them). Each is empty when unset.
  std::vector<float> base_margin;  // rows x output groups, row-major: the starting margin
  std::vector<float> label_lower_bound, label_upper_bound;  // one per row (survival:aft)
  std::vector<float> feature_weights;      // one per feature: column sampling's probabilities
  std::vector<std::string> feature_names;  // one per feature
  std::vector<std::string> feature_types;  // one per feature: q, c, int, float or i

  // True when every row holds features 0 .. num_col-1 in order and `index` is left empty, to
  // save its 4 bytes per entry (Load with LoadOptions::omit_dense_index). Code that reads
  // `index` must call RestoreDenseIndex first; the histogram learner's training path does not
  // (docs/data.md, "Memory").
  bool implicit_index = false;
  // Set by an owner that frees `value` right after the histogram bins are built (the tree
  // learner's training setup, booster/tree/learner/train_memory.h): the binner hands each
  // binned block's value pages back to the kernel as it goes (they read as zeros after), so
  // the values and the bins are never resident together.
  bool values_disposable = false;
  // External memory (a `#cacheprefix` URI): the values live in column files, `value` is
  // empty and implicit_index is set. Shared so that copies of the matrix keep the files.
  std::shared_ptr<ExternalColumns> external;

  // Labels per row: > 1 for multi-target regression (XGBoost's 2-D labels, set through the C
  // API's array interface; files carry one label per row).
  std::size_t label_columns = 1;

  std::size_t NumRows() const { return row_ptr.size() - 1; }
  std::size_t NumNonZero() const { return value.size(); }
  float Weight(std::size_t row) const { return weight.empty() ? 1.0f : weight[row]; }
  // Bytes held by the CSR arrays, labels, weights and qids (the load-memory yardstick).
  std::size_t Bytes() const {
    return row_ptr.size() * sizeof(std::uint64_t) + index.size() * sizeof(std::uint32_t) +
           value.size() * sizeof(float) + label.size() * sizeof(float) +
           weight.size() * sizeof(float) + qid.size() * sizeof(std::uint64_t) +
           (base_margin.size() + label_lower_bound.size() + label_upper_bound.size() +
            feature_weights.size()) *
               sizeof(float);
  }
};

// Writes the feature ids of a matrix loaded with implicit_index (each row 0 .. num_col-1) and
// clears the flag; does nothing to other matrices.
void RestoreDenseIndex(DMatrix* dm);

}  // namespace treering::data
