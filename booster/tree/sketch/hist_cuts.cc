// Cut construction: exact local summaries -> XGBoost's prune to max_bin * 8 entries ->
// gather and combine over ranks -> prune to max_bin + 1 -> cut points (XGBoost MakeCuts).
#include "booster/tree/sketch/hist_cuts.h"

#include <atomic>
#include <cmath>
#include <memory>

#include "base/parallel_for.h"
#include "booster/tree/sketch/global_prune.h"
#include "booster/tree/sketch/quantile_summary.h"
#include "booster/tree/sketch/radix_sort.h"
#include "booster/work_split.h"

namespace treering::booster {
namespace {

constexpr std::uint32_t kSketchFactor = 8;  // XGBoost's WQSketch::kFactor
// Bound the memory of the column copies (and the walks over the rows: one per block). A
// weighted block holds values, weights and a sort order per entry, so it stays smaller.
// 4M keys (16 MiB; at least one column per thread): the whole of higgs1m's 28M keys in one
// block was 112 MiB on top of the loaded floats, the process's peak (docs/data.md, "Memory").
// Extra walks over the rows cost ~10 ms each on higgs1m.
constexpr std::size_t kBlockEntries = 4u << 20;
constexpr std::size_t kWeightedBlockEntries = 8u << 20;

// Sorts (value, weight) pairs by value; equal values keep row order, so their weights are
// added in a fixed order.
void SortByValue(std::vector<float>* values, std::vector<float>* weights) {
  const std::vector<float>& v = *values;
  std::vector<std::uint32_t> order(v.size());
  for (std::uint32_t k = 0; k < order.size(); ++k) order[k] = k;
  std::sort(order.begin(), order.end(), [&](std::uint32_t a, std::uint32_t b) {
    return v[a] < v[b] || (v[a] == v[b] && a < b);
  });
  std::vector<float> sorted_values(v.size()), sorted_weights(v.size());
  for (std::size_t k = 0; k < order.size(); ++k) {
    sorted_values[k] = v[order[k]];
    sorted_weights[k] = (*weights)[order[k]];
  }
  values->swap(sorted_values);
  weights->swap(sorted_weights);
}

// Rows hold every feature (in order): feature f of row r is value[r * num_feature + f]. A row
// holds at most n_feat entries (indices strictly increase and are < n_feat), so a total of
// rows * n_feat means every row holds all of them.
bool IsDense(const data::DMatrix& dm, std::uint32_t n_feat) {
  return n_feat > 0 && dm.NumNonZero() == dm.NumRows() * std::size_t(n_feat);
}

std::vector<std::uint64_t> LocalColumnSizes(const data::DMatrix& dm, std::uint32_t n_feat) {
  if (IsDense(dm, n_feat)) return std::vector<std::uint64_t>(n_feat, dm.NumRows());
  std::vector<std::uint64_t> sizes(n_feat, 0);
  for (std::uint32_t f : dm.index) ++sizes[f];
  return sizes;
}

// Weighted exact summaries of features [f0, f1), pruned to limits[f]: the block's
// (value, weight) pairs are copied out column by column and sorted by value.
void SummariseWeightedBlock(const data::DMatrix& dm, std::uint32_t f0, std::uint32_t f1,
                            const std::vector<std::uint64_t>& local_sizes,
                            const std::vector<std::uint32_t>& limits, int nthread,
                            std::vector<Summary>* out) {
  std::vector<std::vector<float>> values(f1 - f0), weights(f1 - f0);
  for (std::uint32_t f = f0; f < f1; ++f) {
    values[f - f0].reserve(local_sizes[f]);
    weights[f - f0].reserve(local_sizes[f]);
  }
  for (std::size_t row = 0; row < dm.NumRows(); ++row) {
    // Indices are sorted within a row: jump to the block's first feature.
    const auto row_end = dm.index.begin() + dm.row_ptr[row + 1];
    auto it = std::lower_bound(dm.index.begin() + dm.row_ptr[row], row_end, f0);
    for (; it != row_end && *it < f1; ++it) {
      values[*it - f0].push_back(dm.value[it - dm.index.begin()]);
      weights[*it - f0].push_back(dm.weight[row]);
    }
  }
  ParallelForDynamic(f1 - f0, nthread, [&](std::uint32_t i) {
    SortByValue(&values[i], &weights[i]);
    const Summary exact = MakeExactSummary(values[i], weights[i]);
    (*out)[f0 + i] = Prune(exact, std::max<std::uint32_t>(limits[f0 + i], 1));
    std::vector<float>().swap(values[i]);
    std::vector<float>().swap(weights[i]);
  });
}

// The sort keys (OrderedBits) of features [f0, f1), one column after another from
// column_begin[f - f0]. Dense rows are split over the threads (each writes its rows of every
// column); sparse rows are walked once on one thread.
void GatherKeys(const data::DMatrix& dm, std::uint32_t n_feat, std::uint32_t f0, std::uint32_t f1,
                const std::vector<std::uint64_t>& column_begin, int nthread, std::uint32_t* keys) {
  if (IsDense(dm, n_feat)) {
    ParallelForBlocks(static_cast<std::int64_t>(dm.NumRows()), nthread,
                      [&](int, std::int64_t begin, std::int64_t end) {
                        for (std::int64_t row = begin; row < end; ++row) {
                          const float* v = dm.value.data() + std::size_t(row) * n_feat;
                          for (std::uint32_t f = f0; f < f1; ++f) {
                            keys[column_begin[f - f0] + row] = OrderedBits(v[f]);
                          }
                        }
                      });
    return;
  }
  std::vector<std::uint64_t> fill(column_begin.begin(), column_begin.end() - 1);
  for (std::size_t row = 0; row < dm.NumRows(); ++row) {
    // Indices are sorted within a row: jump to the block's first feature.
    const auto row_end = dm.index.begin() + dm.row_ptr[row + 1];
    auto it = std::lower_bound(dm.index.begin() + dm.row_ptr[row], row_end, f0);
    for (; it != row_end && *it < f1; ++it) {
      keys[fill[*it - f0]++] = OrderedBits(dm.value[it - dm.index.begin()]);
    }
  }
}

// Unweighted summaries of features [f0, f1), pruned to limits[f]: every column's keys are
// gathered in one walk over the rows, then each column is radix sorted and pruned straight
// from the sorted keys. Columns go to whichever thread is free; each thread owns one scratch
// column for the sort.
void SummariseBlock(const data::DMatrix& dm, std::uint32_t n_feat, std::uint32_t f0,
                    std::uint32_t f1, const std::vector<std::uint64_t>& local_sizes,
                    const std::vector<std::uint32_t>& limits, int nthread,
                    std::vector<Summary>* out) {
  std::vector<std::uint64_t> column_begin(f1 - f0 + 1, 0);
  std::uint64_t longest = 0;
  for (std::uint32_t f = f0; f < f1; ++f) {
    column_begin[f - f0 + 1] = column_begin[f - f0] + local_sizes[f];
    longest = std::max(longest, local_sizes[f]);
  }
  // Not zero-filled: every key is written by the gather before it is read.
  std::unique_ptr<std::uint32_t[]> keys(new std::uint32_t[column_begin.back()]);
  GatherKeys(dm, n_feat, f0, f1, column_begin, ThreadsFor(column_begin.back(), nthread),
             keys.get());
  const int threads = std::min<int>(ResolveThreads(nthread), f1 - f0);
  std::atomic<std::uint32_t> next_column{f0};
  ParallelForBlocks(threads, threads, [&](int, std::int64_t, std::int64_t) {
    std::unique_ptr<std::uint32_t[]> scratch(new std::uint32_t[longest]);
    for (std::uint32_t f = next_column++; f < f1; f = next_column++) {
      const std::uint64_t n = local_sizes[f];
      const std::uint32_t* sorted =
          RadixSortKeys(keys.get() + column_begin[f - f0], n, scratch.get());
      (*out)[f] = PruneSortedKeys(sorted, n, std::max<std::uint32_t>(limits[f], 1));
    }
  });
}

std::vector<Summary> LocalSummaries(const data::DMatrix& dm, std::uint32_t n_feat,
                                    const std::vector<std::uint64_t>& local_sizes,
                                    const std::vector<std::uint32_t>& limits, int nthread) {
  const bool weighted = !dm.weight.empty();
  // A multiple of the thread count in full columns per block, so no thread idles while the
  // last column of a block sorts (dense data; sparse columns vary in length anyway).
  const std::size_t round = std::max<std::size_t>(1, ResolveThreads(nthread) * dm.NumRows());
  const std::size_t block_entries =
      weighted ? kWeightedBlockEntries : std::max<std::size_t>(1, kBlockEntries / round) * round;
  std::vector<Summary> summaries(n_feat);
  std::uint32_t f0 = 0;
  while (f0 < n_feat) {
    std::uint32_t f1 = f0;
    std::size_t entries = 0;
    while (f1 < n_feat && (f1 == f0 || entries + local_sizes[f1] <= block_entries)) {
      entries += local_sizes[f1++];
    }
    if (weighted) {
      SummariseWeightedBlock(dm, f0, f1, local_sizes, limits, nthread, &summaries);
    } else {
      SummariseBlock(dm, n_feat, f0, f1, local_sizes, limits, nthread, &summaries);
    }
    f0 = f1;
  }
  return summaries;
}

// Whether this rank pruned its summary of a column: a pruned summary lacks entries, so its
// weights add up to less than the column's (unweighted counts: exact integers below 2^24).
bool PrunedLocally(const Summary& s) {
  double sum = 0;
  for (const SummaryEntry& e : s) sum += e.wmin;
  return !s.empty() && sum != static_cast<double>(s.back().rmax);
}

// Every rank's pruned summaries, combined per feature in rank order (identical on all ranks),
// then pruned once. Combining exact summaries is exact, so when no rank had to prune its own
// column the merged summary is the single-node exact summary. Where some rank pruned, the
// combined summary only bounds the global ranks; GlobalPrune (global_prune.h) then finds the
// entries one process's prune picks from the exact summary, so the cuts (hence the trees) do
// not depend on the number of ranks or the sharding.
void MergeOverRanks(std::vector<Summary>* summaries, const std::vector<std::uint64_t>& local_sizes,
                    const std::vector<std::uint64_t>& column_sizes,
                    const std::vector<std::uint32_t>& limits, bool weighted,
                    const KeyGather& gather, int nthread, rabit::Comm& comm) {
  if (!comm.IsDistributed()) return;
  std::vector<std::uint64_t> sizes;
  std::vector<SummaryEntry> flat;
  // flags[f]: bit 0 this rank pruned feature f; flags.back(): this rank's rows carry weights.
  std::vector<std::uint8_t> flags(summaries->size() + 1, 0);
  for (std::size_t f = 0; f < summaries->size(); ++f) {
    const Summary& s = (*summaries)[f];
    sizes.push_back(s.size());
    flat.insert(flat.end(), s.begin(), s.end());
    flags[f] = PrunedLocally(s) ? 1 : 0;
  }
  flags.back() = weighted ? 1 : 0;
  comm.Allreduce<rabit::op::Max>(flags.data(), flags.size());
  const auto all_sizes = comm.AllgatherV(sizes);
  const auto all_entries = comm.AllgatherV(flat);
  const std::size_t n_feat = summaries->size();
  std::size_t offset = 0;
  std::vector<Summary> merged(n_feat);
  std::vector<bool> neg_zero(n_feat, false);  // one process's zero entry is -0 if any row's is
  for (int rank = 0; rank < comm.WorldSize(); ++rank) {
    for (std::size_t f = 0; f < n_feat; ++f) {
      const std::uint64_t n = all_sizes[rank * n_feat + f];
      Summary part(all_entries.begin() + offset, all_entries.begin() + offset + n);
      offset += n;
      for (const SummaryEntry& e : part) {
        if (e.value == 0 && std::signbit(e.value)) neg_zero[f] = true;
      }
      merged[f] = Combine(merged[f], part);
    }
  }
  std::vector<bool> select(n_feat, false);
  bool any_selected = false;
  for (std::size_t f = 0; f < n_feat; ++f) {
    select[f] = flags[f] != 0 && GlobalPruneApplies(flags.back() != 0, column_sizes[f]);
    any_selected = any_selected || select[f];
  }
  std::vector<Summary> exact(n_feat);
  if (any_selected) {
    GlobalPrune(select, local_sizes, column_sizes, limits, merged, gather, nthread, comm, &exact);
  }
  for (std::size_t f = 0; f < n_feat; ++f) {
    if (select[f]) {
      merged[f].swap(exact[f]);
      continue;
    }
    // Exact unweighted parts: one process's zero entry is -0 when any row's is (its sorted keys
    // put -0 first); weighted, it is the first row's zero, as the rank-order combine keeps.
    if (flags[f] == 0 && flags.back() == 0 && neg_zero[f]) {
      for (SummaryEntry& e : merged[f]) {
        if (e.value == 0) e.value = -0.0f;
      }
    }
    merged[f] = Prune(merged[f], limits[f]);
  }
  summaries->swap(merged);
}

void AddFeatureCuts(const Summary& reduced, std::uint32_t num_cuts, int max_bin,
                    HistogramCuts* cuts) {
  const std::uint32_t max_num_bins = std::min<std::uint32_t>(num_cuts, max_bin);
  const Summary final_summary = Prune(reduced, max_num_bins + 1);
  const std::size_t required = std::min<std::size_t>(final_summary.size(), max_num_bins);
  const std::size_t first = cuts->values.size();
  for (std::size_t i = 1; i < required; ++i) {
    const float cut = final_summary[i].value;
    if (cuts->values.size() == first || cut > cuts->values.back()) cuts->values.push_back(cut);
  }
  float min_val = 1e-5f;
  if (!final_summary.empty()) {
    const float mval = final_summary.front().value;
    min_val = mval - (std::fabs(mval) + 1e-5f);
  }
  const float top = final_summary.empty() ? min_val : final_summary.back().value;
  cuts->values.push_back(top + (std::fabs(top) + 1e-5f));
  cuts->min_vals.push_back(min_val);
  cuts->ptrs.push_back(static_cast<std::uint32_t>(cuts->values.size()));
}

}  // namespace

HistogramCuts BuildCuts(const data::DMatrix& dm, std::uint32_t num_feature, int max_bin,
                        int nthread, rabit::Comm& comm) {
  const std::vector<std::uint64_t> local_sizes = LocalColumnSizes(dm, num_feature);
  std::vector<std::uint64_t> column_sizes = local_sizes;
  comm.Allreduce<rabit::op::Sum>(column_sizes.data(), column_sizes.size());
  std::vector<std::uint32_t> num_cuts(num_feature);
  for (std::uint32_t f = 0; f < num_feature; ++f) {
    num_cuts[f] = static_cast<std::uint32_t>(
        std::min<std::uint64_t>(column_sizes[f], std::uint64_t(max_bin) * kSketchFactor));
  }
  std::vector<Summary> summaries = LocalSummaries(dm, num_feature, local_sizes, num_cuts, nthread);
  const KeyGather gather = [&](std::uint32_t f0, std::uint32_t f1,
                               const std::vector<std::uint64_t>& column_begin,
                               std::uint32_t* keys) {
    GatherKeys(dm, num_feature, f0, f1, column_begin, ThreadsFor(column_begin.back(), nthread),
               keys);
  };
  MergeOverRanks(&summaries, local_sizes, column_sizes, num_cuts, !dm.weight.empty(), gather,
                 nthread, comm);
  HistogramCuts cuts;
  for (std::uint32_t f = 0; f < num_feature; ++f) {
    AddFeatureCuts(summaries[f], num_cuts[f], max_bin, &cuts);
  }
  return cuts;
}

}  // namespace treering::booster
