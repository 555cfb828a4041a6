#include "engines/robust/consensus.h"

#include <algorithm>

namespace rabit::engine {
namespace {

bool Loaded(const RankState& s) { return s.phase == Phase::kOp || s.phase == Phase::kCommit; }

bool Before(const RankState& a, const RankState& b) {
  return a.version != b.version ? a.version < b.version : a.seq < b.seq;
}

std::string R(int rank) { return "rank " + std::to_string(rank); }

Action Fail(std::string error) {
  Action a;
  a.kind = ActionKind::kFail;
  a.error = std::move(error);
  return a;
}

// Some rank is still running its setup collectives (a restarted worker, or everyone).
Action DecideBootstrap(const std::vector<RankState>& states) {
  const int n = static_cast<int>(states.size());
  std::uint64_t need = UINT64_MAX;
  int asker = -1;
  for (int r = 0; r < n; ++r) {
    if (states[r].phase == Phase::kBootstrap && states[r].seq < need) {
      need = states[r].seq;
      asker = r;
    }
  }
  const bool all_here = std::all_of(states.begin(), states.end(), [&](const RankState& s) {
    return s.phase == Phase::kBootstrap && s.seq == need;
  });
  Action a;
  a.seq = need;
  if (all_here) return a;  // kRun
  for (int r = 0; r < n; ++r) {
    if (states[r].bootstrap_done > need) {
      a.kind = ActionKind::kServeBootstrap;
      a.holder = r;
      return a;
    }
  }
  return Fail(R(asker) + " runs setup collective #" + std::to_string(need) +
              " (before LoadCheckPoint) but no rank holds its result: the ranks' setup "
              "collectives differ, or every rank that ran it was lost");
}

Action DecideLoad(const std::vector<RankState>& states) {
  const int n = static_cast<int>(states.size());
  int holder = -1;
  for (int r = 0; r < n; ++r) {
    if (Loaded(states[r]) && (holder < 0 || states[r].version < states[holder].version)) holder = r;
  }
  Action a;
  if (holder < 0) {
    a.kind = ActionKind::kFreshStart;
    return a;
  }
  a.kind = ActionKind::kServeCheckpoint;
  a.holder = holder;
  a.version = states[holder].version;
  if (states[holder].has_local == 0) return a;
  for (int r = 0; r < n; ++r) {
    if (states[r].phase == Phase::kLoad && LocalReplicaHolder(states, r, a.version) < 0) {
      return Fail("the local checkpoint (version " + std::to_string(a.version) + ") of " + R(r) +
                  " is lost: every rank holding a replica of it was restarted too (raise "
                  "rabit_local_replica)");
    }
  }
  return a;
}

Action DecideOps(const std::vector<RankState>& states) {
  const int n = static_cast<int>(states.size());
  int laggard = 0;
  for (int r = 1; r < n; ++r) {
    if (Before(states[r], states[laggard])) laggard = r;
  }
  const RankState& low = states[laggard];
  Action a;
  a.version = low.version;
  a.seq = low.seq;
  const bool all_here = std::all_of(states.begin(), states.end(), [&](const RankState& s) {
    return s.version == low.version && s.seq == low.seq;
  });
  if (all_here) return a;  // kRun (a phase mismatch shows as an op header mismatch)
  int ahead = -1;
  for (int r = 0; r < n && ahead < 0; ++r) {
    if (states[r].version > low.version) ahead = r;
  }
  if (ahead >= 0) {
    const bool all_commit = std::all_of(states.begin(), states.end(), [&](const RankState& s) {
      return s.version != low.version || s.phase == Phase::kCommit;
    });
    if (all_commit) {
      a.kind = ActionKind::kFinishCommit;
      return a;
    }
    // A restarted rank replaying the older version (it loaded the oldest checkpoint): served by
    // a rank pending that version's commit barrier, which still caches all of its results.
  }
  for (int r = 0; r < n; ++r) {
    if (states[r].version == low.version && states[r].seq > low.seq) {
      a.kind = ActionKind::kServeResult;
      a.holder = r;
      return a;
    }
  }
  if (ahead >= 0) {
    return Fail(R(laggard) + " is at collective #" + std::to_string(low.seq) + " of version " +
                std::to_string(low.version) + " while " + R(ahead) + " already committed " +
                "version " + std::to_string(states[ahead].version) +
                " and no rank holds that collective's result: the ranks called different "
                "collectives");
  }
  return Fail("internal: no holder for version " + std::to_string(low.version) + " collective #" +
              std::to_string(low.seq));
}

}  // namespace

Action Decide(const std::vector<RankState>& states) {
  const bool any_bootstrap = std::any_of(states.begin(), states.end(), [](const RankState& s) {
    return s.phase == Phase::kBootstrap;
  });
  if (any_bootstrap) return DecideBootstrap(states);
  const bool any_load = std::any_of(states.begin(), states.end(),
                                    [](const RankState& s) { return s.phase == Phase::kLoad; });
  if (any_load) return DecideLoad(states);
  return DecideOps(states);
}

bool IsRequester(const Action& action, const std::vector<RankState>& states, int rank) {
  const RankState& s = states[rank];
  switch (action.kind) {
    case ActionKind::kServeBootstrap:
      return s.phase == Phase::kBootstrap && s.seq == action.seq;
    case ActionKind::kServeResult:
      return Loaded(s) && s.version == action.version && s.seq == action.seq;
    case ActionKind::kServeCheckpoint:
    case ActionKind::kFreshStart:
      return s.phase == Phase::kLoad;
    case ActionKind::kFinishCommit:
      return s.phase == Phase::kCommit && s.version == action.version;
    case ActionKind::kRun:
    case ActionKind::kFail:
      return true;
  }
  return false;
}

int LocalReplicaHolder(const std::vector<RankState>& states, int loader, std::uint32_t version) {
  const int n = static_cast<int>(states.size());
  for (int d = 1; d < n; ++d) {
    const int h = (loader + d) % n;
    const RankState& s = states[h];
    if (Loaded(s) && s.version == version && s.has_local != 0 &&
        s.local_replicas >= static_cast<std::uint32_t>(d)) {
      return h;
    }
  }
  return -1;
}

}  // namespace rabit::engine
