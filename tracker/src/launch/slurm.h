// `treering-submit --cluster slurm`. Inside an allocation (SLURM_JOB_ID set: salloc, or an
// sbatch script) the tracker runs here and every worker is a one-task `srun` step on its node
// of the allocation, so the supervisor relays its output with its rank's prefix and restarts
// it as a new one-task step on the same node. Outside an allocation the job is submitted with
// `sbatch --wait`; its script runs this same treering-submit command inside the allocation, and
// this process relays the job's output files as they grow and exits with the job's status.
// Slurm's own refusals (a bad partition, no allocation, srun refused) are one line naming the
// command and Slurm's message, exit 2.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "base/status.h"
#include "launch.h"

namespace treering::launch {

// sbatch options passed through when treering-submit submits the job (outside an allocation).
struct SlurmBatchOptions {
  int nodes = 0;                   // --nodes (0: Slurm's choice)
  int ntasks_per_node = 0;         // --ntasks-per-node
  std::string time;                // --time
  std::string partition;           // --partition
  std::string account;             // --account
  std::vector<std::string> extra;  // --sbatch-arg, each one sbatch argument (--requeue, ...)
};

// The allocation this process runs in: its nodes (expanded), tasks per node, and addresses.
struct SlurmAllocation {
  std::string job_id;
  std::vector<std::string> nodes;
  std::vector<int> tasks_per_node;  // SLURM_TASKS_PER_NODE, one entry per node
  int ntasks = 0;
};

bool InSlurmAllocation();
// `2(x3),1` -> {2, 2, 2, 1}; an error names the text.
Result<std::vector<int>> ParseTasksPerNode(const std::string& text);
// The allocation from the environment (scontrol expands the node list).
Result<SlurmAllocation> ReadSlurmAllocation();
// The node of each rank 0..n-1: block placement over the allocation's task slots, as srun's
// default distribution (rank i past the slots wraps around).
std::vector<std::string> RankNodes(const SlurmAllocation& a, int n);
// One step of a task per node (`srun ... true`): srun's refusal (the allocation ended, a node
// down) is then one line with Slurm's message before any worker starts.
Status ProbeSlurmSteps(const SlurmAllocation& a);
// This machine's address that reaches the allocation's first node (by its Slurm NodeAddr).
Result<std::string> SlurmTrackerAddress(const SlurmAllocation& a);
// One `srun --overlap -N1 -n1 -w NODE ... COMMAND` task per worker, restartable.
Result<std::vector<Task>> SlurmTasks(const SubmitOptions& o, const EnvList& env,
                                     const SlurmAllocation& a);

// Outside an allocation: `sbatch --wait` of a script running `self_argv` (this treering-submit
// with its own arguments) inside the allocation. Lines of the job's stdout / stderr go to
// `emit` as they come. Returns the process's exit code: the job's, or 2 for Slurm's refusal.
int SubmitSlurmBatch(const SubmitOptions& o, const SlurmBatchOptions& b,
                     const std::vector<std::string>& self_argv,
                     const std::function<void(const std::string&, bool to_stderr)>& emit);

// Runs argv (no shell), waits at most timeout_s; stdout, stderr and the exit code (-1: killed
// at the timeout or not started).
struct CommandResult {
  int code = -1;
  std::string out, err;
};
CommandResult RunCommand(const std::vector<std::string>& argv, double timeout_s);
// "sbatch: error: Invalid partition name specified" -> "Invalid partition name specified": the
// last line of Slurm's stderr that says error, without the program's prefix.
std::string SlurmMessage(const std::string& err);

}  // namespace treering::launch
