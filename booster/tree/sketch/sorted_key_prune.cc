// PruneSortedKeys: XGBoost's Prune of the exact summary of a sorted column, read straight from
// the sorted keys. An entry of that summary is a run of equal values: rmin = the count before
// the run, rmax = rmin + the run's length, accumulated in float as MakeExactSummary does.
//
// Prune walks the entries once, in order, looking at two neighbours (src[i], src[i + 1]) per
// evenly spaced target rank. Below 2^24 values every rank is an exact float, so an entry's
// rmin is its run's start position; a target rank then says where in the keys to look, and
// the walk jumps there instead of reading every run (max_size look-ups, not n). From 2^24 on
// ranks round, and the runs are read one by one with the same float additions.
#include <algorithm>
#include <cstdint>

#include "booster/tree/sketch/quantile_summary.h"
#include "booster/tree/sketch/radix_sort.h"

namespace treering::booster {
namespace {

constexpr std::size_t kFloatExact = std::size_t{1} << 24;
const std::uint32_t kNegZero = OrderedBits(-0.0f);
const std::uint32_t kPosZero = OrderedBits(0.0f);

// The weight MakeExactSummary gives a run of `count` equal values: 1.0f added `count` times,
// which stops growing at 2^24 (2^24 + 1 rounds back to 2^24).
float RunWeight(std::size_t count) {
  return static_cast<float>(count < kFloatExact ? count : kFloatExact);
}

// Runs of equal values in sorted keys. -0 and +0 are one value (float ==), as in
// MakeExactSummary: their keys differ and sit side by side, -0 first.
class SortedRuns {
 public:
  SortedRuns(const std::uint32_t* keys, std::size_t n) : keys_(keys), n_(n) {}
  std::size_t size() const { return n_; }
  // Whether keys[a] and keys[b] (a < b) hold the same float.
  bool Same(std::size_t a, std::size_t b) const {
    return keys_[a] == keys_[b] || (keys_[a] == kNegZero && keys_[b] == kPosZero);
  }
  std::size_t End(std::size_t start) const {
    std::size_t e = start + 1;
    while (e < n_ && Same(start, e)) ++e;
    return e;
  }
  std::size_t Start(std::size_t pos) const {
    std::size_t s = pos;
    while (s > 0 && Same(s - 1, pos)) --s;
    return s;
  }
  float Value(std::size_t start) const { return FromOrderedBits(keys_[start]); }
  std::size_t CountRuns() const {
    if (n_ == 0) return 0;
    std::size_t runs = 1;
    for (std::size_t i = 1; i < n_; ++i) runs += keys_[i] != keys_[i - 1];
    // One run when both zeros are present (they are neighbours in sorted order).
    const std::uint32_t* pos = std::lower_bound(keys_, keys_ + n_, kPosZero);
    if (pos != keys_ && pos != keys_ + n_ && *pos == kPosZero && pos[-1] == kNegZero) --runs;
    return runs;
  }

 private:
  const std::uint32_t* keys_;
  std::size_t n_;
};

// One summary entry and where its run lies in the keys.
struct Run {
  SummaryEntry entry;
  std::size_t start = 0, end = 0;
};

// The run starting at `start`, whose rmin is `rank` (the rmax of the run before).
Run RunAt(const SortedRuns& runs, std::size_t start, float rank) {
  Run r;
  r.start = start;
  r.end = runs.End(start);
  const float w = RunWeight(r.end - start);
  r.entry = {rank, rank + w, w, runs.Value(start)};
  return r;
}

Summary AllRuns(const SortedRuns& runs, std::size_t count) {
  Summary out;
  out.reserve(count);
  float rank = 0;
  for (std::size_t start = 0; start < runs.size();) {
    const Run r = RunAt(runs, start, rank);
    out.push_back(r.entry);
    rank = r.entry.rmax;
    start = r.end;
  }
  return out;
}

// The last run, with its float rmin as MakeExactSummary accumulates it.
Run LastRun(const SortedRuns& runs, bool exact_ranks) {
  const std::size_t start = runs.Start(runs.size() - 1);
  if (exact_ranks) return RunAt(runs, start, static_cast<float>(start));
  float rank = 0;
  for (std::size_t s = 0; s < start;) {
    const Run r = RunAt(runs, s, rank);
    rank = r.entry.rmax;
    s = r.end;
  }
  return RunAt(runs, start, rank);
}

}  // namespace

Summary PruneSortedKeys(const std::uint32_t* sorted_keys, std::size_t n, std::size_t max_size) {
  const SortedRuns runs(sorted_keys, n);
  const std::size_t size = runs.CountRuns();
  if (size <= max_size) return AllRuns(runs, size);
  const bool exact_ranks = n < kFloatExact;
  const Run front = RunAt(runs, 0, 0.0f);
  const Run back = LastRun(runs, exact_ranks);
  // Prune (quantile_summary.cc) from here on, with src[i] = cur and src[i + 1] = next;
  // entries are told apart by their run's start.
  const float begin = front.entry.rmax;
  const float range = back.entry.rmin - front.entry.rmax;
  const std::size_t steps = max_size - 1;
  Summary out{front.entry};
  Run cur = RunAt(runs, front.end, front.entry.rmax);
  Run next = cur.start == back.start ? Run{} : RunAt(runs, cur.end, cur.entry.rmax);
  std::size_t last = front.start;
  for (std::size_t k = 1; k < steps; ++k) {
    const float dx2 = 2 * ((k * range) / steps + begin);
    // Every entry ending at or before position dx2 / 2 - 1 has rmin + rmax < dx2, so the walk
    // below would pass it: start at the run holding that position if it lies ahead.
    const auto q = static_cast<std::size_t>(dx2 / 2);
    if (exact_ranks && cur.start != back.start && q >= next.end + 1 && q - 1 < n) {
      const std::size_t s = runs.Start(q - 1);
      const std::size_t before = runs.Start(s - 1);
      cur = RunAt(runs, before, static_cast<float>(before));
      next = RunAt(runs, s, static_cast<float>(s));
    }
    while (cur.start != back.start && dx2 >= next.entry.rmax + next.entry.rmin) {
      cur = next;
      if (cur.start != back.start) next = RunAt(runs, cur.end, cur.entry.rmax);
    }
    if (cur.start == back.start) break;
    if (dx2 < cur.entry.RMinNext() + next.entry.RMaxPrev()) {
      if (cur.start != last) {
        out.push_back(cur.entry);
        last = cur.start;
      }
    } else if (next.start != last) {
      out.push_back(next.entry);
      last = next.start;
    }
  }
  if (last != back.start) out.push_back(back.entry);
  return out;
}

}  // namespace treering::booster
