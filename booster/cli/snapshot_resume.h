// Resuming a requeued job (Slurm: `scontrol requeue`, a preemption with --requeue, a node lost):
// the new run finds the last snapshot rank 0 wrote (model_dir/NNNN.model: save_period, or a
// snapshot asked for by SIGUSR1) and continues from the round after it, numbered as the first
// run numbered it, so the final model is byte-identical to an uninterrupted run's. It applies
// when SLURM_RESTART_COUNT > 0 (Slurm sets it in a requeued job) or TREERING_RESUME=1.
// SIGUSR1 (sbatch --signal=USR1@60: a minute before the time limit or a preemption's kill)
// makes rank 0 write a snapshot after the round it is in, whatever save_period says.
#pragma once

#include "base/status.h"
#include "booster/learner.h"
#include "cli_options.h"

namespace treering::cli {

// Every rank, before rabit::LoadCheckPoint (a collective: rank 0 broadcasts the snapshot it
// found). Loads the snapshot into the learner and returns its rounds; 0 when there is none or
// the job was not requeued. Rank 0 says which file it resumed from on stderr.
// True when this run is a requeued job's (SLURM_RESTART_COUNT > 0) or TREERING_RESUME=1.
bool ResumeWanted();

Result<int> ResumeFromSnapshot(const CliOptions& o, int rounds_planned, booster::Learner* learner);

// SIGUSR1 sets a flag instead of ending the process (installed by ResumeFromSnapshot).
// True once after each SIGUSR1.
bool TakeSnapshotRequest();

}  // namespace treering::cli
