// GlobalPrune (global_prune.h). With integer ranks below 2^24, the exact summary's entry of a
// distinct value v is {rmin = #(< v), rmax = #(<= v), wmin = #(== v), v}, where # counts the
// values of every rank. Prune's k-th step stops at the last entry i whose rmin + rmax <= dx2
// (or entry 1) and then takes i or i + 1. With q = floor(dx2 / 2), every entry after the one
// holding global position q has rmin + rmax >= 2q + 3 > dx2 and the entry before it has
// rmin + rmax <= 2q - 1 <= dx2, so i is that entry R or its predecessor P, and the walk needs
// only P, R and R's successor S. Here:
//   1. the smallest and largest value (front and back entries) and their counts;
//   2. per distinct target q, the value at global position q: a search over the 32-bit keys
//      for the smallest key x with #(<= x) > q, started between the combined rank summaries'
//      bounds, guessing by interpolation (a few rounds, each one allreduce of one count per
//      unfinished target);
//   3. P, R and S with their counts (three allreduces);
// then PruneWalk on front, back and those entries, the same walk one process runs.
#include "booster/tree/sketch/global_prune.h"

#include <algorithm>
#include <cstring>
#include <memory>

#include "base/parallel_for.h"
#include "booster/tree/sketch/global_select.h"
#include "booster/tree/sketch/radix_sort.h"

namespace treering::booster {
namespace {

constexpr std::uint64_t kFloatExact = std::uint64_t{1} << 24;
// Global values per block of features sorted at once (bounds the key copies' memory).
constexpr std::uint64_t kBlockValues = 32u << 20;
const std::uint32_t kNegZero = OrderedBits(-0.0f);
const std::uint32_t kPosZero = OrderedBits(0.0f);

// Equal floats have one key: -0 and +0 are one value of the exact summary.
std::uint32_t CanonicalKey(float v) {
  const std::uint32_t k = OrderedBits(v);
  return k == kNegZero ? kPosZero : k;
}

// What one process's exact summary holds for a key: counts before and up to it.
struct KeyEntry {
  std::uint32_t key = 0;
  std::uint32_t less = 0, less_eq = 0;
};

SummaryEntry MakeEntry(const KeyEntry& e, bool neg_zero) {
  const float value = e.key == kPosZero && neg_zero ? -0.0f : FromOrderedBits(e.key);
  return {static_cast<float>(e.less), static_cast<float>(e.less_eq),
          static_cast<float>(e.less_eq - e.less), value};
}

// Narrows each query's key range with `bounds` (entries whose rmin <= #(< v) and whose
// rmax >= #(<= v)): the answer is above a v with rmax <= q and at most a v with rmin > q.
void Narrow(const Summary& bounds, std::vector<KeySearch>::iterator first,
            std::vector<KeySearch>::iterator last) {
  std::size_t below = 0;  // bounds[below - 1] is the last entry with rmax <= q so far
  std::size_t above = 0;  // first entry with rmin > q
  for (auto it = first; it != last; ++it) {
    const float q = static_cast<float>(it->q);
    while (below < bounds.size() && bounds[below].rmax <= q) ++below;
    while (above < bounds.size() && bounds[above].rmin <= q) ++above;
    std::uint32_t lo = it->lo, hi = it->hi;
    if (below > 0) lo = std::max(lo, CanonicalKey(bounds[below - 1].value) + 1);
    if (above < bounds.size()) hi = std::min(hi, CanonicalKey(bounds[above].value));
    if (lo <= hi) it->lo = lo, it->hi = hi;
  }
}

// Global counts of each query's key and of its neighbouring keys over all ranks: out[3i] is
// the predecessor P, out[3i + 1] the key R, out[3i + 2] the successor S (key kNoKey /
// kNoKeyAbove when there is none).
std::vector<KeyEntry> Probe(const std::vector<SortedKeys>& cols,
                            const std::vector<KeySearch>& queries, int nthread, rabit::Comm& comm) {
  const std::size_t nq = queries.size();
  std::vector<std::uint32_t> counts(2 * nq), neighbours(2 * nq);
  ParallelFor(nq, nthread, [&](std::size_t i) {
    const SortedKeys& c = cols[queries[i].feature];
    const std::uint32_t x = queries[i].lo;
    const std::uint32_t less = c.Less(x), less_eq = c.LessEq(x);
    counts[2 * i] = less;
    counts[2 * i + 1] = less_eq;
    neighbours[2 * i] = ~(less > 0 ? c.keys[less - 1] : kNoKey);  // Min of ~key = Max of key
    neighbours[2 * i + 1] = less_eq < c.n ? c.keys[less_eq] : kNoKeyAbove;
  });
  comm.Allreduce<rabit::op::Sum>(counts.data(), counts.size());
  comm.Allreduce<rabit::op::Min>(neighbours.data(), neighbours.size());
  std::vector<std::uint32_t> outer(2 * nq);  // #(< P) and #(<= S)
  ParallelFor(nq, nthread, [&](std::size_t i) {
    const SortedKeys& c = cols[queries[i].feature];
    const std::uint32_t p = ~neighbours[2 * i], s = neighbours[2 * i + 1];
    outer[2 * i] = p != kNoKey ? c.Less(p) : 0;
    outer[2 * i + 1] = s != kNoKeyAbove ? c.LessEq(s) : 0;
  });
  comm.Allreduce<rabit::op::Sum>(outer.data(), outer.size());
  std::vector<KeyEntry> out(3 * nq);
  for (std::size_t i = 0; i < nq; ++i) {
    const std::uint32_t less = counts[2 * i], less_eq = counts[2 * i + 1];
    out[3 * i] = {~neighbours[2 * i], outer[2 * i], less};
    out[3 * i + 1] = {queries[i].lo, less, less_eq};
    out[3 * i + 2] = {neighbours[2 * i + 1], less_eq, outer[2 * i + 1]};
  }
  return out;
}

// The selected features [begin, end) of one block, with their sorted local keys.
void PruneBlock(const std::vector<std::uint32_t>& features, const std::vector<SortedKeys>& cols,
                const std::vector<bool>& local_neg_zero,
                const std::vector<std::uint64_t>& global_sizes,
                const std::vector<std::uint32_t>& limits, const std::vector<Summary>& bounds,
                int nthread, rabit::Comm& comm, std::vector<Summary>* summaries) {
  const std::size_t nf = features.size();
  // 1. Smallest and largest key, whether any rank holds -0; then the ends' counts.
  std::vector<std::uint32_t> ends(3 * nf);
  for (std::size_t i = 0; i < nf; ++i) {
    const SortedKeys& c = cols[i];
    ends[3 * i] = c.n > 0 ? c.keys[0] : kNoKeyAbove;
    ends[3 * i + 1] = ~(c.n > 0 ? c.keys[c.n - 1] : kNoKey);
    ends[3 * i + 2] = local_neg_zero[i] ? 0 : 1;
  }
  comm.Allreduce<rabit::op::Min>(ends.data(), ends.size());
  std::vector<std::uint32_t> end_counts(2 * nf);
  for (std::size_t i = 0; i < nf; ++i) {
    end_counts[2 * i] = cols[i].LessEq(ends[3 * i]);
    end_counts[2 * i + 1] = cols[i].Less(~ends[3 * i + 1]);
  }
  comm.Allreduce<rabit::op::Sum>(end_counts.data(), end_counts.size());
  // 2. Prune's targets: the distinct global positions it looks at, and where their keys lie.
  std::vector<SummaryEntry> fronts(nf), backs(nf);
  std::vector<KeySearch> queries;
  std::vector<std::size_t> first_query(nf + 1, 0);
  for (std::size_t i = 0; i < nf; ++i) {
    const std::uint32_t f = features[i];
    const auto n = static_cast<std::uint32_t>(global_sizes[f]);
    const bool neg_zero = ends[3 * i + 2] == 0;
    fronts[i] = MakeEntry({ends[3 * i], 0, end_counts[2 * i]}, neg_zero);
    backs[i] = MakeEntry({~ends[3 * i + 1], end_counts[2 * i + 1], n}, neg_zero);
    const float begin = fronts[i].rmax, range = backs[i].rmin - fronts[i].rmax;
    const std::size_t steps = std::max<std::uint32_t>(limits[f], 1) - 1;
    first_query[i] = queries.size();
    KeySearch qr;
    qr.feature = static_cast<std::uint32_t>(i);
    qr.lo = ends[3 * i];
    qr.hi = ~ends[3 * i + 1];
    queries.push_back(qr);  // position 0: the front's successor, Prune's entry 1
    for (std::size_t k = 1; k < steps; ++k) {
      const float half = PruneTarget(begin, range, k, steps) / 2;
      qr.q = std::min<std::uint32_t>(n - 1, static_cast<std::uint32_t>(half));
      if (qr.q != queries.back().q) queries.push_back(qr);
    }
    Narrow(bounds[f], queries.begin() + first_query[i], queries.end());
  }
  first_query[nf] = queries.size();
  SearchKeys(cols, nthread, comm, &queries);
  // 3. P, R, S of every target; front, back and those make the part of the exact summary
  // that Prune's walk reads.
  const std::vector<KeyEntry> found = Probe(cols, queries, nthread, comm);
  for (std::size_t i = 0; i < nf; ++i) {
    const bool neg_zero = ends[3 * i + 2] == 0;
    const auto n = static_cast<std::uint32_t>(global_sizes[features[i]]);
    std::vector<KeyEntry> part;
    part.push_back({ends[3 * i], 0, end_counts[2 * i]});
    part.push_back({~ends[3 * i + 1], end_counts[2 * i + 1], n});
    for (std::size_t j = 3 * first_query[i]; j < 3 * first_query[i + 1]; ++j) {
      if (found[j].key != kNoKey && found[j].key != kNoKeyAbove) part.push_back(found[j]);
    }
    std::sort(part.begin(), part.end(),
              [](const KeyEntry& a, const KeyEntry& b) { return a.key < b.key; });
    part.erase(std::unique(part.begin(), part.end(),
                           [](const KeyEntry& a, const KeyEntry& b) { return a.key == b.key; }),
               part.end());
    Summary src;
    src.reserve(part.size());
    for (const KeyEntry& e : part) src.push_back(MakeEntry(e, neg_zero));
    const std::uint32_t f = features[i];
    (*summaries)[f] = PruneWalk(src, std::max<std::uint32_t>(limits[f], 1));
  }
}

}  // namespace

bool GlobalPruneApplies(bool weighted, std::uint64_t global_size) {
  return !weighted && global_size < kFloatExact;
}

void GlobalPrune(const std::vector<bool>& select, const std::vector<std::uint64_t>& local_sizes,
                 const std::vector<std::uint64_t>& global_sizes,
                 const std::vector<std::uint32_t>& limits, const std::vector<Summary>& bounds,
                 const KeyGather& gather, int nthread, rabit::Comm& comm,
                 std::vector<Summary>* summaries) {
  const auto n_feat = static_cast<std::uint32_t>(select.size());
  std::uint32_t f0 = 0;
  while (f0 < n_feat) {
    if (!select[f0]) {
      ++f0;
      continue;
    }
    // A run of selected features, cut by global size (the same blocks on every rank).
    std::uint32_t f1 = f0;
    std::uint64_t values = 0;
    while (f1 < n_feat && select[f1] && (f1 == f0 || values + global_sizes[f1] <= kBlockValues)) {
      values += global_sizes[f1++];
    }
    std::vector<std::uint64_t> column_begin(f1 - f0 + 1, 0);
    for (std::uint32_t f = f0; f < f1; ++f) {
      column_begin[f - f0 + 1] = column_begin[f - f0] + local_sizes[f];
    }
    std::unique_ptr<std::uint32_t[]> keys(new std::uint32_t[column_begin.back() + 1]);
    gather(f0, f1, column_begin, keys.get());
    std::vector<SortedKeys> cols(f1 - f0);
    std::vector<bool> neg_zero(f1 - f0);
    std::vector<std::uint8_t> neg_zero_bytes(f1 - f0, 0);
    ParallelForDynamic(f1 - f0, nthread, [&](std::uint32_t i) {
      std::uint32_t* col = keys.get() + column_begin[i];
      const std::uint64_t n = local_sizes[f0 + i];
      for (std::uint64_t k = 0; k < n; ++k) {
        if (col[k] == kNegZero) col[k] = kPosZero, neg_zero_bytes[i] = 1;
      }
      std::unique_ptr<std::uint32_t[]> scratch(new std::uint32_t[n + 1]);
      const std::uint32_t* sorted = RadixSortKeys(col, n, scratch.get());
      if (sorted != col) std::memcpy(col, sorted, n * sizeof(std::uint32_t));
      cols[i] = {col, static_cast<std::uint32_t>(n)};
    });
    std::vector<std::uint32_t> features;
    for (std::uint32_t f = f0; f < f1; ++f) {
      features.push_back(f);
      neg_zero[f - f0] = neg_zero_bytes[f - f0] != 0;
    }
    PruneBlock(features, cols, neg_zero, global_sizes, limits, bounds, nthread, comm, summaries);
    f0 = f1;
  }
}

}  // namespace treering::booster
