// SearchKeys (global_select.h).
#include "booster/tree/sketch/global_select.h"

#include <algorithm>

#include "base/parallel_for.h"

namespace treering::booster {

// Narrows every query's key range down to one key: the smallest x with #(<= x) > q. Each
// round counts one key per unfinished query and finds the held keys on either side of it (two
// allreduces); the range's ends then sit on held keys, so a range holding few distinct values
// closes in a few rounds. Every rank takes the same steps.
void SearchKeys(const std::vector<SortedKeys>& cols, int nthread, rabit::Comm& comm,
                std::vector<KeySearch>* queries) {
  std::vector<std::uint32_t> counts(2 * queries->size());
  // This rank's #(< lo) and #(<= hi) of each query: its keys inside the range, where the next
  // counts are searched (a few hundred keys in cache instead of the whole column).
  std::vector<std::uint32_t> local_lo(queries->size()), local_hi(queries->size());
  ParallelFor(queries->size(), nthread, [&](std::size_t i) {
    const KeySearch& qr = (*queries)[i];
    counts[2 * i] = local_lo[i] = cols[qr.feature].Less(qr.lo);
    counts[2 * i + 1] = local_hi[i] = cols[qr.feature].LessEq(qr.hi);
  });
  comm.Allreduce<rabit::op::Sum>(counts.data(), counts.size());
  for (std::size_t i = 0; i < queries->size(); ++i) {
    (*queries)[i].less_lo = counts[2 * i];
    (*queries)[i].less_eq_hi = counts[2 * i + 1];
  }
  std::vector<std::uint32_t> active, guesses, neighbours, local;
  for (;;) {
    active.clear();
    for (std::uint32_t i = 0; i < queries->size(); ++i) {
      if ((*queries)[i].lo < (*queries)[i].hi) active.push_back(i);
    }
    if (active.empty()) return;  // the same on every rank: the sums are
    counts.assign(active.size(), 0);
    guesses.resize(active.size());
    neighbours.resize(2 * active.size());
    local.resize(active.size());
    ParallelFor(active.size(), nthread, [&](std::size_t a) {
      const std::uint32_t i = active[a];
      const KeySearch& qr = (*queries)[i];
      const SortedKeys& c = cols[qr.feature];
      guesses[a] = qr.Guess();
      // lo <= guess < hi, so #(<= guess) lies between this rank's counts at the ends.
      counts[a] = local[a] = static_cast<std::uint32_t>(
          std::upper_bound(c.keys + local_lo[i], c.keys + local_hi[i], guesses[a]) - c.keys);
      neighbours[2 * a] = ~(counts[a] > 0 ? c.keys[counts[a] - 1] : kNoKey);
      neighbours[2 * a + 1] = counts[a] < c.n ? c.keys[counts[a]] : kNoKeyAbove;
    });
    comm.Allreduce<rabit::op::Sum>(counts.data(), counts.size());
    comm.Allreduce<rabit::op::Min>(neighbours.data(), neighbours.size());
    for (std::size_t a = 0; a < active.size(); ++a) {
      KeySearch& qr = (*queries)[active[a]];
      const std::uint32_t before = qr.hi - qr.lo;
      // The range's ends move to keys some rank holds: the largest key <= the guess when the
      // answer is at most the guess, else the smallest key above it.
      // No rank holds a key between the guess and the new end, so this rank's count there
      // is its count at the guess.
      if (counts[a] > qr.q) {
        qr.hi = ~neighbours[2 * a];
        qr.less_eq_hi = counts[a];
        local_hi[active[a]] = local[a];
      } else {
        qr.lo = neighbours[2 * a + 1];
        qr.less_lo = counts[a];
        local_lo[active[a]] = local[a];
      }
      qr.bisect = !qr.bisect && qr.hi - qr.lo > before / 2;
    }
  }
}

}  // namespace treering::booster
