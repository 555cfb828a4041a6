// --cluster slurm's options and the choice between submitting (sbatch) and running here.
#include "slurm_submit.h"

#include <unistd.h>

#include <climits>
#include <cstdio>

namespace treering::launch {
namespace {

// This executable's path, so the job script runs the same treering-submit on the node.
std::string SelfPath(const char* argv0) {
  char buf[PATH_MAX];
  const ssize_t n = ::readlink("/proc/self/exe", buf, sizeof(buf) - 1);
  return n > 0 ? std::string(buf, static_cast<std::size_t>(n)) : std::string(argv0);
}

}  // namespace

void AddSlurmOptions(CLI::App& app, SlurmBatchOptions* b) {
  app.add_option("--nodes", b->nodes, "slurm, outside an allocation: sbatch --nodes")
      ->check(CLI::PositiveNumber);
  app.add_option("--ntasks-per-node", b->ntasks_per_node,
                 "slurm, outside an allocation: sbatch --ntasks-per-node")
      ->check(CLI::PositiveNumber);
  app.add_option("--time", b->time, "slurm, outside an allocation: sbatch --time");
  app.add_option("--partition", b->partition, "slurm, outside an allocation: sbatch --partition");
  app.add_option("--account", b->account, "slurm, outside an allocation: sbatch --account");
  app.add_option("--sbatch-arg", b->extra,
                 "slurm, outside an allocation: one more sbatch argument (repeatable), e.g. "
                 "--sbatch-arg=--requeue --sbatch-arg=--signal=USR1@60")
      ->allow_extra_args(false);
}

int PrepareSlurmJob(SubmitOptions& o, const SlurmBatchOptions& b, int argc, char** argv,
                    const std::function<void(const std::string&, bool)>& emit,
                    SlurmAllocation* alloc) {
  if (!InSlurmAllocation()) {
    std::vector<std::string> self{SelfPath(argv[0])};
    for (int i = 1; i < argc; ++i) self.emplace_back(argv[i]);
    return SubmitSlurmBatch(o, b, self, emit);
  }
  auto a = ReadSlurmAllocation();
  if (!a.ok()) {
    std::fprintf(stderr, "treering-submit: %s\n", a.status().message().c_str());
    return 2;
  }
  *alloc = a.value();
  if (Status s = ProbeSlurmSteps(*alloc); !s.ok()) {
    std::fprintf(stderr, "treering-submit: %s\n", s.message().c_str());
    return 2;
  }
  if (o.num_workers == 0) o.num_workers = alloc->ntasks;
  if (!o.host_ip_given) {
    auto ip = SlurmTrackerAddress(*alloc);
    if (!ip.ok()) {
      std::fprintf(stderr, "treering-submit: %s (give --host-ip)\n", ip.status().message().c_str());
      return 2;
    }
    o.host_ip = ip.value();
    emit("[submit] slurm job " + alloc->job_id + ": " + std::to_string(o.num_workers) +
             " workers on " + std::to_string(alloc->nodes.size()) + " node(s); tracker " +
             o.host_ip + ", the route to " + alloc->nodes.front(),
         true);
  }
  return -1;
}

}  // namespace treering::launch
