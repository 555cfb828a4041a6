// GroupDescendingOrder (booster/common/src/rank_order.h) against std::stable_sort, the order
// XGBoost's ranking code uses: the same permutation on groups full of ties (tree outputs are
// piecewise constant, so equal predictions are the common case), signed zeros, infinities,
// and NaN keys (which take the stable sort itself); LabelDescendingOrder likewise.
#include "rank_order.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

namespace treering::booster {
namespace {

struct Doc {
  float key;
  unsigned id;  // the position as filled
};

std::vector<unsigned> Ids(const std::vector<Doc>& docs) {
  std::vector<unsigned> ids;
  for (const Doc& d : docs) ids.push_back(d.id);
  return ids;
}

std::vector<unsigned> StableOrder(std::vector<Doc> docs) {
  std::stable_sort(docs.begin(), docs.end(),
                   [](const Doc& a, const Doc& b) { return a.key > b.key; });
  return Ids(docs);
}

std::vector<unsigned> FastOrder(const std::vector<Doc>& docs) {
  std::vector<std::uint64_t> keys;
  std::vector<std::size_t> order;
  GroupDescendingOrder(
      docs.size(), [&](std::size_t i) { return docs[i].key; }, &keys, &order);
  std::vector<unsigned> ids;
  for (const std::size_t i : order) ids.push_back(docs[i].id);
  return ids;
}

TEST(RankOrder, EqualsStableSortOnGroupsWithTies) {
  std::mt19937 rng(17);
  for (int trial = 0; trial < 2000; ++trial) {
    const unsigned n = std::uniform_int_distribution<unsigned>(0, 300)(rng);
    const int distinct = std::uniform_int_distribution<int>(1, 12)(rng);  // few values: ties
    std::vector<Doc> docs;
    for (unsigned i = 0; i < n; ++i) {
      const float key =
          0.25f * static_cast<float>(std::uniform_int_distribution<int>(-distinct, distinct)(rng));
      docs.push_back({key == 0.0f && (i % 2) ? -0.0f : key, i});  // -0 ties with +0, as in >
      if (i % 37 == 5) docs.back().key = (i % 2) ? INFINITY : -INFINITY;
      if (i % 53 == 7) docs.back().key = std::numeric_limits<float>::denorm_min() * float(i % 3);
    }
    ASSERT_EQ(FastOrder(docs), StableOrder(docs)) << "trial " << trial << ", n " << n;
  }
}

TEST(RankOrder, NaNKeysKeepTheStableSortsOrder) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  std::vector<Doc> docs;
  for (unsigned i = 0; i < 100; ++i) docs.push_back({i % 7 == 3 ? nan : float(i % 5), i});
  EXPECT_EQ(FastOrder(docs), StableOrder(docs));
}

// LabelDescendingOrder against std::stable_sort of (label, position): the counting sort on
// integer relevances (ties everywhere) and the fallback on a group with a fractional label.
std::vector<std::pair<float, unsigned>> StableByLabel(const std::vector<float>& labels) {
  std::vector<std::pair<float, unsigned>> rec;
  for (unsigned i = 0; i < labels.size(); ++i) rec.push_back({labels[i], i});
  std::stable_sort(rec.begin(), rec.end(),
                   [](const auto& a, const auto& b) { return a.first > b.first; });
  return rec;
}

TEST(RankOrder, LabelOrderEqualsStableSortForIntegerAndFractionalLabels) {
  std::mt19937 rng(29);
  std::vector<std::pair<float, unsigned>> rec;
  for (int trial = 0; trial < 1000; ++trial) {
    const unsigned n = std::uniform_int_distribution<unsigned>(0, 250)(rng);
    const int top = trial % 3 == 0 ? 30 : 4;  // MSLR's 0-4, and the whole allowed range
    std::vector<float> labels;
    for (unsigned i = 0; i < n; ++i) {
      labels.push_back(static_cast<float>(std::uniform_int_distribution<int>(0, top)(rng)));
    }
    if (trial % 5 == 1 && n > 0) labels[n / 2] += 0.5f;  // one fractional label
    LabelDescendingOrder(
        labels.size(), [&](std::size_t i) { return labels[i]; }, &rec);
    ASSERT_EQ(rec, StableByLabel(labels)) << "trial " << trial << ", n " << n;
  }
}

}  // namespace
}  // namespace treering::booster
