// The Slurm rendezvous: `srun PROGRAM` forms a job without a launcher, as torchrun's does. When
// a process is a task of an srun step (SLURM_STEP_ID, SLURM_PROCID, SLURM_NTASKS > 1) and no
// tracker is given (DMLC_TRACKER_URI / rabit_tracker_uri unset, not under mpirun), the task
// with SLURM_PROCID=0 starts the tracker in this process, on its node (the step's first node),
// at a port derived from the job and step ids, and writes the rendezvous file; every other task
// waits for that file and reads the tracker's address and the job token from it. Rank =
// SLURM_PROCID, world = SLURM_NTASKS.
//
// The file: `<dir>/job<JOB>.<STEP>.r<SLURM_RESTART_COUNT>`, dir = TREERING_RENDEZVOUS_DIR or
// else $HOME/.treering/slurm (made 0700). It must be a directory every node of the job sees
// (the home directory is shared on almost every Slurm cluster; the job runs there anyway). It is
// safe because only the job's user can read or write it: the directory is the user's, the file
// is written 0600 under a temporary name and renamed into place (readers never see half of it),
// and a reader refuses a file not owned by its own uid or readable by others. A requeued job
// (same job id, step ids from 0 again) gets a new name through SLURM_RESTART_COUNT. Task 0
// removes it when its tracker ends.
#pragma once

#include "base/status.h"
#include "engine_params.h"

namespace rabit::engine {

// Fills p's tracker address, port, token, task id and world size from the Slurm step when the
// rendezvous applies (see above); leaves p alone otherwise. Task 0's tracker runs on a thread
// until FinishSlurmRendezvous. Errors name the file or variable.
treering::Status JoinSlurmRendezvous(EngineParams* p);

// Task 0, after its engine shut down: waits (bounded) until the tracker saw every rank's
// Shutdown, stops it and removes the file; its Status is the job's (a rank that failed). Every
// other process: Ok at once.
treering::Status FinishSlurmRendezvous();

}  // namespace rabit::engine
