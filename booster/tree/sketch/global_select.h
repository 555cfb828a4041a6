// The key at a given global position of a column whose values are spread over the ranks: a
// search over the 32-bit sort keys (OrderedBits) in rounds of allreduced counts, so every rank
// finds the same key without gathering the values. Used by the exact global sketch prune
// (global_prune.h) and the global leaf quantiles of reg:absoluteerror (leaf_refresh.cc).
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "rabit/comm.h"

namespace treering::booster {

constexpr std::uint32_t kNoKey = 0;         // below every float's key (-inf is 0x007fffff)
constexpr std::uint32_t kNoKeyAbove = ~0u;  // above every float's key (+inf is 0xff800000)

// One rank's sorted keys (OrderedBits) of one column.
struct SortedKeys {
  const std::uint32_t* keys = nullptr;
  std::uint32_t n = 0;
  std::uint32_t Less(std::uint32_t key) const {
    return static_cast<std::uint32_t>(std::lower_bound(keys, keys + n, key) - keys);
  }
  std::uint32_t LessEq(std::uint32_t key) const {
    return static_cast<std::uint32_t>(std::upper_bound(keys, keys + n, key) - keys);
  }
};

// One search: the key at global position q (0-based, in the order of all ranks' keys) of
// column `feature`, known to lie in [lo, hi] (e.g. the column's global smallest and largest).
struct KeySearch {
  std::uint32_t feature = 0;
  std::uint32_t q = 0;
  std::uint32_t lo = 0, hi = 0;  // the answer's key lies in [lo, hi]
  std::uint32_t less_lo = 0;     // #(< lo) over all ranks
  std::uint32_t less_eq_hi = 0;  // #(<= hi)
  bool bisect = false;           // the last guess did not halve the range: bisect next
  // The next key to count: where q falls between the counts at the ends if the keys were
  // evenly spread (values are locally smooth in key order, so this usually lands within a few
  // keys), or the middle after a guess that did not halve the range (so at most twice
  // bisection's 32 rounds).
  std::uint32_t Guess() const {
    if (bisect || less_eq_hi <= less_lo) return lo + (hi - lo) / 2;
    const double t = (q - less_lo + 0.5) / static_cast<double>(less_eq_hi - less_lo);
    const auto step = static_cast<std::uint32_t>(t * static_cast<double>(hi - lo));
    return lo + std::min(step, hi - lo - 1);
  }
};

// Narrows every query's key range down to one key: the smallest x of its column with
// #(<= x) > q over all ranks (then less_lo = #(< x), less_eq_hi = #(<= x)). Needs
// #(< lo) <= q < #(<= hi) on entry. A collective: every rank passes the same queries.
void SearchKeys(const std::vector<SortedKeys>& cols, int nthread, rabit::Comm& comm,
                std::vector<KeySearch>* queries);

}  // namespace treering::booster
