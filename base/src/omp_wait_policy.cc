// How idle OpenMP threads of a treering program wait (issue 33 goal 4).
//
// libgomp's default, with OMP_WAIT_POLICY unset, is to spin GOMP_SPINCOUNT = 300000 times
// (pause instructions: milliseconds on current cores) before sleeping on a futex, every time a
// thread waits at a barrier or for the next parallel loop. Alone on the cores that buys a fast
// hand-off; beside busy co-tenants the spinning thread burns the time slice that the thread
// still holding work needs: higgs1m training took 3.2x its quiet time on 2 cores with 2 busy
// processes (fair share is 1.5x). OMP_WAIT_POLICY=passive (no spin) took 2.1x there, but every
// hand-off then pays a futex wake. A short budget keeps the quick hand-offs of a quiet machine
// (a round's loops follow each other within microseconds) and gives the core away soon when
// the next loop does not come (docs/benchmarks.md, "Sharing the machine").
//
// libgomp reads the variables once, in its ELF constructor, before main(). An executable's
// .preinit_array runs earlier but before libc has set up `environ` (libc's own initializer
// then resets it, dropping a setenv made there), and a constructor library would depend on
// the loader's order of initializers; so the program sets the variable and executes itself
// again, once (about the start-up time of the binary, 10-40 ms, against seconds of training).
#include "base/omp_wait_policy.h"

#include <unistd.h>

#include <cstdlib>

namespace treering {

void ApplyOmpWaitPolicy(char** argv) {
  if (std::getenv("OMP_WAIT_POLICY") != nullptr || std::getenv("GOMP_SPINCOUNT") != nullptr) {
    return;
  }
  if (setenv("GOMP_SPINCOUNT", kOmpSpinCount, /*overwrite=*/0) != 0) return;
  // The binary's own path, not /proc/self/exe: the kernel names the process after the file
  // executed, and `top`, `pgrep treering` and `pkill treering` would see "exe".
  char self[4096];
  const ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
  if (n > 0) {
    self[n] = '\0';
    execv(self, argv);
  }
  execv("/proc/self/exe", argv);
  // The exec failed (no /proc): run on with libgomp's defaults, and say so to no one: the
  // policy changes speed only, never results.
}

}  // namespace treering
