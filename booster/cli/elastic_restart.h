// Elastic jobs (rabit_elastic, docs/fault-tolerance.md "Elastic jobs"): when the tracker drops a
// lost worker, every survivor's running collective throws rabit::WorldChanged; rabit already
// has the new rank and world and holds the last committed checkpoint for the next
// LoadCheckPoint. The program then runs its setup again for its new shard of the rows (the
// cuts do not depend on the sharding, docs/distributed.md) and continues from that round, so
// the final model is the one an uninterrupted run writes.
#pragma once

#include <functional>

#include "base/status.h"

namespace treering::cli {

// Runs `train` (setup + rounds + output) and runs it again after each world change, saying so
// on stderr (every rank: which rank of which world it now is).
Status RepeatWhileWorldChanges(const std::function<Status()>& train);

}  // namespace treering::cli
