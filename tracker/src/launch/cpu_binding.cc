#include "cpu_binding.h"

#include <sched.h>

namespace treering::launch {

std::vector<int> AllowedCpus() {
  cpu_set_t set;
  CPU_ZERO(&set);
  std::vector<int> cpus;
  if (::sched_getaffinity(0, sizeof(set), &set) != 0) return cpus;
  for (int c = 0; c < CPU_SETSIZE; ++c) {
    if (CPU_ISSET(c, &set)) cpus.push_back(c);
  }
  return cpus;
}

std::vector<std::vector<int>> CpuShares(const std::vector<int>& allowed, int workers) {
  const int cpus = static_cast<int>(allowed.size());
  if (workers < 2 || workers > cpus) return {};
  const int share = cpus / workers;
  std::vector<std::vector<int>> shares(workers);
  for (int w = 0; w < workers; ++w) {
    shares[w].assign(allowed.begin() + w * share, allowed.begin() + (w + 1) * share);
  }
  return shares;
}

}  // namespace treering::launch
