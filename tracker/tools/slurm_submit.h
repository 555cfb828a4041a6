// `treering-submit --cluster slurm`'s options and start (launch/slurm.h does the work): outside
// an allocation the job is submitted with sbatch and this process only relays it; inside one the
// tracker runs here, on the address that reaches the allocation's first node, and --num-workers
// defaults to the allocation's task count.
#pragma once

#include <functional>
#include <string>

#include <CLI/CLI.hpp>

#include "../src/launch/launch.h"
#include "../src/launch/slurm.h"

namespace treering::launch {

void AddSlurmOptions(CLI::App& app, SlurmBatchOptions* b);

// For --cluster slurm: an exit code when the job ran (through sbatch) or Slurm refused it (2);
// -1 when this process is inside the allocation and runs the job itself, with *alloc read,
// o.num_workers defaulted and o.host_ip chosen (unless --host-ip).
int PrepareSlurmJob(SubmitOptions& o, const SlurmBatchOptions& b, int argc, char** argv,
                    const std::function<void(const std::string&, bool)>& emit,
                    SlurmAllocation* alloc);

}  // namespace treering::launch
