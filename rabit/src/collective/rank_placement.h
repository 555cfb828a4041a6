// Which ranks share a machine's cores: each rank's machine (the running kernel's boot id, so
// ranks in network namespaces or containers of one kernel count as one machine, as they share
// its cores) and that machine's online cores, gathered once at start with the tree (op #0,
// Communicator::LearnTree). The cost model charges the recursive algorithms, whose every step
// needs all ranks running at once, for ranks that must wait for a core (allreduce_cost.h).
//
// Determinism: every rank computes RanksBeyondCores from the same gathered list, so all agree;
// the placement of a job does not change between its runs or across a restart on the same
// machines, so neither does the choice (no timing is measured).
#pragma once

#include <cstdint>
#include <vector>

#include "transport/wire_format.h"

namespace rabit::collective {

// One rank's entry of the op #0 Allgather: its tree parent, its machine and that machine's
// cores (16 bytes on the wire, transport/wire_format.h).
using transport::RankPlacement;

// This process's entry.
RankPlacement LocalPlacement(int parent);

// Over all machines: the ranks placed on it beyond its cores (0 when none is oversubscribed).
int RanksBeyondCores(const std::vector<RankPlacement>& ranks);

}  // namespace rabit::collective
