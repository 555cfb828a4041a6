// Cut construction: exact local summaries -> XGBoost's prune to max_bin * 8 entries ->
// gather and combine over ranks -> prune to max_bin + 1 -> cut points (XGBoost MakeCuts).
#include "booster/hist_cuts.h"

#include <cmath>

#include "base/parallel_for.h"
#include "booster/quantile_summary.h"
#include "booster/radix_sort.h"

namespace treering::booster {
namespace {

constexpr std::uint32_t kSketchFactor = 8;       // XGBoost's WQSketch::kFactor
constexpr std::size_t kBlockEntries = 8u << 20;  // bounds the memory of the column copies

std::vector<std::uint64_t> GlobalColumnSizes(const data::DMatrix& dm, std::uint32_t n_feat,
                                             rabit::Comm& comm) {
  std::vector<std::uint64_t> sizes(n_feat, 0);
  for (std::uint32_t f : dm.index) ++sizes[f];
  comm.Allreduce<rabit::op::Sum>(sizes.data(), sizes.size());
  return sizes;
}

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

// Exact summaries of features [f0, f1): the block's values are copied out column by column,
// sorted and merged into (value, weight) entries. Without sample weights only the values are
// sorted (half the memory and a plain sort); with weights the pairs are sorted by value.
// Each summary is pruned to limits[f] entries at once, so only the block's exact summaries
// exist at any time (an exact summary of 1M distinct values takes 16 MB).
void SummariseBlock(const data::DMatrix& dm, std::uint32_t f0, std::uint32_t f1,
                    const std::vector<std::uint64_t>& local_sizes,
                    const std::vector<std::uint32_t>& limits, int nthread,
                    std::vector<Summary>* out) {
  const bool weighted = !dm.weight.empty();
  std::vector<std::vector<float>> values(f1 - f0), weights(weighted ? f1 - f0 : 0);
  for (std::uint32_t f = f0; f < f1; ++f) {
    values[f - f0].reserve(local_sizes[f]);
    if (weighted) weights[f - f0].reserve(local_sizes[f]);
  }
  for (std::size_t row = 0; row < dm.NumRows(); ++row) {
    // Indices are sorted within a row: jump to the block's first feature.
    const auto row_end = dm.index.begin() + dm.row_ptr[row + 1];
    auto it = std::lower_bound(dm.index.begin() + dm.row_ptr[row], row_end, f0);
    for (; it != row_end && *it < f1; ++it) {
      const std::size_t j = it - dm.index.begin();
      values[*it - f0].push_back(dm.value[j]);
      if (weighted) weights[*it - f0].push_back(dm.weight[row]);
    }
  }
  ParallelFor(f1 - f0, nthread, [&](std::uint32_t i) {
    Summary exact;
    if (weighted) {
      SortByValue(&values[i], &weights[i]);
      exact = MakeExactSummary(values[i], weights[i]);
      std::vector<float>().swap(weights[i]);
    } else {
      RadixSortFloats(&values[i]);
      exact = MakeExactSummary(values[i]);
    }
    (*out)[f0 + i] = Prune(exact, std::max<std::uint32_t>(limits[f0 + i], 1));
    std::vector<float>().swap(values[i]);
  });
}

std::vector<Summary> LocalSummaries(const data::DMatrix& dm, std::uint32_t n_feat,
                                    const std::vector<std::uint32_t>& limits, int nthread) {
  std::vector<std::uint64_t> local_sizes(n_feat, 0);
  for (std::uint32_t f : dm.index) ++local_sizes[f];
  std::vector<Summary> summaries(n_feat);
  std::uint32_t f0 = 0;
  while (f0 < n_feat) {
    std::uint32_t f1 = f0;
    std::size_t entries = 0;
    while (f1 < n_feat && (f1 == f0 || entries + local_sizes[f1] <= kBlockEntries)) {
      entries += local_sizes[f1++];
    }
    SummariseBlock(dm, f0, f1, local_sizes, limits, nthread, &summaries);
    f0 = f1;
  }
  return summaries;
}

// Every rank's pruned summaries, combined per feature in rank order (identical on all ranks),
// then pruned once. Combining exact summaries is exact, so when no rank had to prune its own
// column the merged summary is the single-node exact summary and the cuts (hence the trees)
// do not depend on the number of ranks; pruning after each rank would lose that.
void MergeOverRanks(std::vector<Summary>* summaries, const std::vector<std::uint32_t>& limits,
                    rabit::Comm& comm) {
  if (!comm.IsDistributed()) return;
  std::vector<std::uint64_t> sizes;
  std::vector<SummaryEntry> flat;
  for (const auto& s : *summaries) {
    sizes.push_back(s.size());
    flat.insert(flat.end(), s.begin(), s.end());
  }
  const auto all_sizes = comm.AllgatherV(sizes);
  const auto all_entries = comm.AllgatherV(flat);
  const std::size_t n_feat = summaries->size();
  std::size_t offset = 0;
  std::vector<Summary> merged(n_feat);
  for (int rank = 0; rank < comm.WorldSize(); ++rank) {
    for (std::size_t f = 0; f < n_feat; ++f) {
      const std::uint64_t n = all_sizes[rank * n_feat + f];
      Summary part(all_entries.begin() + offset, all_entries.begin() + offset + n);
      offset += n;
      merged[f] = Combine(merged[f], part);
    }
  }
  for (std::size_t f = 0; f < n_feat; ++f) merged[f] = Prune(merged[f], limits[f]);
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
  const auto column_sizes = GlobalColumnSizes(dm, num_feature, comm);
  std::vector<std::uint32_t> num_cuts(num_feature);
  for (std::uint32_t f = 0; f < num_feature; ++f) {
    num_cuts[f] = static_cast<std::uint32_t>(
        std::min<std::uint64_t>(column_sizes[f], std::uint64_t(max_bin) * kSketchFactor));
  }
  std::vector<Summary> summaries = LocalSummaries(dm, num_feature, num_cuts, nthread);
  MergeOverRanks(&summaries, num_cuts, comm);
  HistogramCuts cuts;
  for (std::uint32_t f = 0; f < num_feature; ++f) {
    AddFeatureCuts(summaries[f], num_cuts[f], max_bin, &cuts);
  }
  return cuts;
}

}  // namespace treering::booster
