// Weighted quantile summary (XGBoost's WQSummary): sorted distinct values with rank bounds.
// treering builds the exact summary of a feature's local values, then uses XGBoost's Prune
// and Combine so that cuts follow XGBoost's rules and merge across ranks the same way.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace treering::booster {

struct SummaryEntry {
  float rmin = 0;  // weight of values strictly smaller than `value` (lower bound)
  float rmax = 0;  // weight of values <= `value` (upper bound)
  float wmin = 0;  // weight of `value` itself
  float value = 0;
  float RMinNext() const { return rmin + wmin; }
  float RMaxPrev() const { return rmax - wmin; }
};

using Summary = std::vector<SummaryEntry>;

// Exact summary of (value, weight) pairs sorted by value; equal values are merged.
Summary MakeExactSummary(const std::vector<float>& sorted_values,
                         const std::vector<float>& sorted_weights);
// The same with every weight 1 (no weights vector: the unweighted sketch's common case).
Summary MakeExactSummary(const std::vector<float>& sorted_values);
// Prune(MakeExactSummary(values), max_size) where sorted_keys are the values' OrderedBits
// (radix_sort.h) in ascending order, without building the exact summary: that summary of a
// column of 10M distinct values is 160 MB, its pruned form a few KB. Same entries, bit for bit.
Summary PruneSortedKeys(const std::uint32_t* sorted_keys, std::size_t n, std::size_t max_size);
// XGBoost's SetPrune: keeps first and last, picks entries nearest to evenly spaced ranks.
Summary Prune(const Summary& src, std::size_t max_size);
// Prune's walk without its "already small enough" return, for a src that is only part of the
// summary being pruned: its first and last entries and, for every target rank, the entries
// the walk stops at and their successors (global_prune.cc). The walk then picks the same
// entries from the part as from the whole summary.
Summary PruneWalk(const Summary& src, std::size_t max_size);
// Prune's k-th target, twice the rank it looks for: 2 * (k * range / steps + begin), in float.
float PruneTarget(float begin, float range, std::size_t k, std::size_t steps);
// XGBoost's SetCombine: merges two summaries of disjoint row sets (rank bounds add up).
Summary Combine(const Summary& a, const Summary& b);

}  // namespace treering::booster
