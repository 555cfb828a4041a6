// Starting a worker process: fork + execvp in its own process group (so a signal reaches the
// worker and everything it started), stdout and stderr captured through pipes.
#pragma once

#include <sys/types.h>

#include <string>
#include <vector>

#include "launch.h"

namespace treering::launch {

struct Child {
  pid_t pid = -1;
  int out_fd = -1;  // read ends, non-blocking
  int err_fd = -1;
  int exit_fd = -1;  // a pidfd: readable once the child exited (-1 if the kernel lacks it)
};

// The child's environment is ours plus `env` (which wins on equal names). A non-empty `cpus`
// pins the child (and what it starts) to those CPUs; failing that it runs unpinned, with a
// warning on its stderr.
Result<Child> SpawnChild(const std::vector<std::string>& argv, const EnvList& env,
                         const std::vector<int>& cpus = {});
// Sends `sig` to the child's whole process group.
void SignalGroup(pid_t pid, int sig);

}  // namespace treering::launch
