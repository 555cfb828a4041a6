// The order of a query group's documents by a descending key, ties in their original order:
// what XGBoost 1.7's ranking code gets from std::stable_sort. Ranking objectives and metrics
// sort every group of every round (rank1000: ~1100 groups of 10-200 documents, twice a round
// for the gradient, once or twice for each metric); std::stable_sort of the records allocates
// a buffer per call and merges 16-byte records with a float comparison, and those sorts were
// ~9 % of a rank:ndcg run's perf samples (docs/learner.md, "Ranking sorts"). Here each document
// becomes one 64-bit integer, (key descending, position ascending), sorted by std::sort: the
// same permutation, one integer comparison each. A NaN key has no place in that order (nor a
// consistent one in the stable sort's), so a group holding one keeps std::stable_sort.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <utility>
#include <vector>

namespace treering::booster {

// Ascending order of these integers = descending order of `key`, then ascending `position`.
// -0 and +0 compare equal as floats, so both take +0's bits. Also the radix sort key of the
// AUC metrics' DescendingOrder (metric_auc.cc).
inline std::uint64_t DescendingSortKey(float key, std::uint32_t position) {
  std::uint32_t bits = 0;
  if (key != 0.0f) std::memcpy(&bits, &key, sizeof bits);
  const std::uint32_t ascending = (bits & 0x80000000u) != 0 ? ~bits : bits | 0x80000000u;
  return (std::uint64_t{~ascending} << 32) | position;
}

// Positions 0..n-1 ordered by key_at(position) descending, ties by position: the permutation
// std::stable_sort with `>` makes of records laid out in position order. `keys` is scratch.
template <typename KeyAt>
void GroupDescendingOrder(std::size_t n, KeyAt key_at, std::vector<std::uint64_t>* keys,
                          std::vector<std::size_t>* order) {
  order->resize(n);
  // The integer keys hold a position in 32 bits; a longer group (or a NaN) takes the stable
  // sort itself.
  bool stable_sort = n > std::numeric_limits<std::uint32_t>::max();
  keys->resize(stable_sort ? 0 : n);
  for (std::size_t i = 0; i < n && !stable_sort; ++i) {
    const float k = key_at(i);
    stable_sort = std::isnan(k);
    (*keys)[i] = DescendingSortKey(k, static_cast<std::uint32_t>(i));
  }
  if (stable_sort) {
    for (std::size_t i = 0; i < n; ++i) (*order)[i] = i;
    std::stable_sort(order->begin(), order->end(),
                     [&](std::size_t a, std::size_t b) { return key_at(a) > key_at(b); });
    return;
  }
  std::sort(keys->begin(), keys->end());
  for (std::size_t i = 0; i < n; ++i) (*order)[i] = static_cast<std::uint32_t>((*keys)[i]);
}

// rec = (label_at(i), i) for i in 0..n-1, sorted by label descending, ties by i: XGBoost's
// stable sort of a group's labels. Relevances are integers below 31 in practice (the ranking
// objectives bound them to [0, 31)), so a counting sort does it in one pass; a group with a
// fractional label takes the stable sort.
template <typename LabelAt>
void LabelDescendingOrder(std::size_t n, LabelAt label_at,
                          std::vector<std::pair<float, unsigned>>* rec) {
  constexpr unsigned kLabels = 31;
  unsigned start[kLabels + 1] = {};
  bool integral = true;
  for (std::size_t i = 0; i < n && integral; ++i) {
    const float y = label_at(i);
    integral = y >= 0.0f && y < static_cast<float>(kLabels) &&
               static_cast<float>(static_cast<unsigned>(y)) == y;
    if (integral) ++start[static_cast<unsigned>(y)];
  }
  rec->resize(n);
  if (!integral) {
    for (unsigned i = 0; i < n; ++i) (*rec)[i] = {label_at(i), i};
    std::stable_sort(rec->begin(), rec->end(),
                     [](const auto& a, const auto& b) { return a.first > b.first; });
    return;
  }
  unsigned next = 0;  // start[b]: where label b's run begins, the highest label first
  for (unsigned b = kLabels; b-- > 0;) {
    const unsigned count = start[b];
    start[b] = next;
    next += count;
  }
  for (unsigned i = 0; i < n; ++i) {
    const float y = label_at(i);
    (*rec)[start[static_cast<unsigned>(y)]++] = {y, i};
  }
}

}  // namespace treering::booster
