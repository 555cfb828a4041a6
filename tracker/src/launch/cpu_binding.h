// CPU binding of local workers, as mpirun binds ranks by default (--bind-to core): a worker that
// stays on its own core keeps its cache and answers its peers without waiting for the scheduler
// (unbound, Linux puts two ranks that wake each other on one core and a small allreduce waits
// for the scheduler; docs/benchmarks.md, "Measurements behind code comments"). OpenMP inside a
// bound worker sizes its default team
// to the worker's share, so workers never fight over cores.
#pragma once

#include <vector>

namespace treering::launch {

// The CPUs this process may run on (sched_getaffinity: respects taskset and cpusets).
std::vector<int> AllowedCpus();

// Equal contiguous shares of `allowed` for `workers` workers (the remainder stays unused), or no
// shares at all (no binding) for a single worker or when there are more workers than CPUs.
std::vector<std::vector<int>> CpuShares(const std::vector<int>& allowed, int workers);

}  // namespace treering::launch
