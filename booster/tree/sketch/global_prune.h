// The single-process sketch of a feature, computed by N ranks that each hold part of its values.
//
// One process prunes the exact summary of a column (every distinct value with its rank bounds)
// to max_bin * 8 entries. Ranks that prune their own parts first and combine the pruned parts
// get a different (equally accurate) summary, so the cuts and the trees would depend on how the
// rows are sharded. Prune only looks at a few entries of the exact summary: the first, the last
// and, per target rank, the entry its walk stops at and that entry's successor. GlobalPrune
// finds exactly those entries over all ranks (a value's global rank is a sum of per-rank
// counts: allreduces of counts over each rank's sorted keys) and runs Prune's walk on them, so
// every rank gets the single-process summary bit for bit, whatever the sharding.
//
// Unweighted data only, and columns of fewer than 2^24 values (there float ranks are exact
// integers; from 2^24 on one process's float ranks round in its order of additions).
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "booster/tree/sketch/quantile_summary.h"
#include "rabit/comm.h"

namespace treering::booster {

// Writes this rank's sort keys (OrderedBits) of features [f0, f1), column after column from
// column_begin[f - f0] (column_begin has f1 - f0 + 1 entries).
using KeyGather =
    std::function<void(std::uint32_t f0, std::uint32_t f1,
                       const std::vector<std::uint64_t>& column_begin, std::uint32_t* keys)>;

// Whether GlobalPrune can give feature f the single-process summary (unweighted, < 2^24 values).
bool GlobalPruneApplies(bool weighted, std::uint64_t global_size);

// For every f with select[f] (the same on every rank): (*summaries)[f] = Prune(the exact
// summary of feature f over every rank's rows, limits[f]). `bounds[f]` is any summary whose
// entries bound the global ranks of their values (the ranks' pruned summaries combined); it
// only narrows the searches. A collective: every rank calls it with the same select.
void GlobalPrune(const std::vector<bool>& select, const std::vector<std::uint64_t>& local_sizes,
                 const std::vector<std::uint64_t>& global_sizes,
                 const std::vector<std::uint32_t>& limits, const std::vector<Summary>& bounds,
                 const KeyGather& gather, int nthread, rabit::Comm& comm,
                 std::vector<Summary>* summaries);

}  // namespace treering::booster
