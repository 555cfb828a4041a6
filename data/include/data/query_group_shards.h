// Query groups of a loaded matrix, and shards that hold whole groups: the distributed step after
// data::Load for ranking data (query_groups.h reads the groups from the files). Ranking
// objectives and metrics need every group on one rank, but data::Load cuts parts at byte
// offsets. After the
// load, the rows a rank holds at its start that continue the previous rank's last group move
// to the rank where that group starts (one allgather of those rows), so every group lives on
// the rank that reads its first row. Groups come from FILE.group (wins when both exist) or
// qid:N; a qid whose rows are not contiguous in the input is an error naming FILE:LINE.
#pragma once

#include <string>

#include "base/status.h"
#include "data/dmatrix.h"
#include "rabit/comm.h"

namespace treering::data {

// Sets matrix->group_ptr (left empty when the input has neither qid nor FILE.group). With
// `sharded`, every rank of `comm` calls it for the same URI. `key` names the config key.
Status AttachQueryGroups(const std::string& key, const std::string& uri, bool sharded,
                         rabit::Comm& comm, DMatrix* matrix);

}  // namespace treering::data
