// External memory's training matrix: the cuts made one spilled column at a time (the same
// per-feature sketch as BuildCuts on the whole matrix, so the same cuts), the dense bins
// written to page files under the cache prefix and mapped read-only, and a resident cap kept
// by handing mapped pages back to the kernel (they stay in the page cache and fault back in
// when read again). docs/data.md, "External memory".
#pragma once

#include <cstdint>

#include "base/status.h"
#include "booster/tree/sketch/binned_matrix.h"
#include "booster/tree/sketch/hist_cuts.h"
#include "booster/tree_param.h"
#include "data/dmatrix.h"
#include "rabit/comm.h"

namespace treering::booster {

// True on every rank when any rank's training matrix is external; an error when some rank
// holding rows loaded its part in memory (sparse): the ranks must sketch alike.
Result<bool> ExternalTraining(const data::DMatrix& train, rabit::Comm& comm);

// BuildCuts of the spilled columns, column by column (collective: every rank calls it, a rank
// without rows too).
Result<HistogramCuts> BuildCutsFromColumns(const data::DMatrix& train, std::uint32_t num_feature,
                                           int max_bin, int nthread, rabit::Comm& comm);

// Bins the spilled columns into page files, removes the columns, maps the pages and starts
// the cap's keeper (param.max_memory MiB; 0: none).
Result<BinnedMatrix> BuildPagedMatrix(const data::DMatrix& train, const HistogramCuts& cuts,
                                      const TreeParam& param, int nthread);

// The streamed in-memory load's matrix (data::ExternalColumns::temporary()): the same bins as
// BuildPagedMatrix, written into the ordinary owned arrays (as BinnedMatrix::Build's) instead of
// page files. The caller removes the columns afterwards (dropping the DMatrix's `external`).
Result<BinnedMatrix> BuildBinnedFromColumns(const data::DMatrix& train, const HistogramCuts& cuts,
                                            int nthread);

}  // namespace treering::booster
