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
  int in_fd = -1;    // write end of the child's stdin, with ChildSetup::keep_stdin_open
};

struct ChildSetup {
  // Non-empty: pins the child (and what it starts) to these CPUs; failing that it runs
  // unpinned, with a warning on its stderr.
  std::vector<int> cpus;
  // Non-empty: the child's stdin is a pipe holding these bytes, then end of file.
  std::string stdin_data;
  // With stdin_data: keep the pipe's write end (Child::in_fd) instead of closing it, so the
  // child sees end of file only when we close it or die.
  bool keep_stdin_open = false;
  // Non-zero: the kernel sends this signal to the child when the thread that spawned it dies
  // (PR_SET_PDEATHSIG), so a SIGKILLed launcher leaves no worker behind. Spawn from a thread
  // that lives as long as the launcher (treering-submit: its main thread).
  int parent_death_signal = 0;
};

// The child's environment is ours plus `env` (which wins on equal names).
Result<Child> SpawnChild(const std::vector<std::string>& argv, const EnvList& env,
                         const ChildSetup& setup = {});
// Sends `sig` to the child's whole process group.
void SignalGroup(pid_t pid, int sig);

}  // namespace treering::launch
