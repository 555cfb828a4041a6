// Consensus: what every rank does next after a re-link (Rabit's ActionSummary + RecoverExec,
// simplified). Each rank contributes a fixed-size RankState; one Allgather gives every rank
// every state, and Decide() -- a pure function -- turns them into the same Action on every
// rank. So there is no custom reducer and no routing sweep: the lowest-rank holder of whatever
// the laggards need broadcasts it along the tree, everyone else relays.
//
// Positions: before the first LoadCheckPoint a rank is in the *bootstrap* phase (setup
// collectives, cached for good); then it is at collective `seq` of `version` (the number of
// checkpoints committed). The checkpoint barrier is itself the last collective of a version.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "transport/wire_format.h"

namespace rabit::engine {

// Where each rank stands: Phase and the 32-byte RankState are rank-to-rank formats, so they live
// with the others in transport/wire_format.h.
using transport::Phase;
using transport::RankState;

enum class ActionKind {
  kRun,              // everyone is at the same collective: run it for real
  kServeBootstrap,   // `holder` sends setup result #seq to the ranks pending it
  kServeResult,      // `holder` sends result (version, seq) to the ranks pending it
  kServeCheckpoint,  // `holder` sends checkpoint `version` to the ranks in LoadCheckPoint
  kFinishCommit,     // someone committed `version`+1: ranks pending that barrier finish it
  kFreshStart,       // every rank is in LoadCheckPoint: no checkpoint exists, start at 0
  kFail,             // nobody holds what is needed, or the ranks diverged: `error`
};

struct Action {
  ActionKind kind = ActionKind::kRun;
  int holder = -1;
  std::uint32_t version = 0;
  std::uint64_t seq = 0;
  std::string error;
};

// The same answer on every rank for the same states.
Action Decide(const std::vector<RankState>& states);

// True when `rank` receives (and then finishes its pending call) under `action`.
bool IsRequester(const Action& action, const std::vector<RankState>& states, int rank);

// Lowest rank after `loader` on the ring (loader+1, loader+2, ...) that holds its local state,
// or -1.
int LocalReplicaHolder(const std::vector<RankState>& states, int loader, std::uint32_t version);

}  // namespace rabit::engine
