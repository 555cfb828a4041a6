// Context: what every part of one job shares about the process it runs in — threads, the
// random seed, verbosity and the memory budget — as XGBoost 1.7's Context (nthread, seed,
// Threads()). The driver makes one from the config and passes it down by `const Context&`;
// nothing below the driver parses these keys again or keeps a copy of nthread of its own.
//
// The collective is not part of it: base sits below rabit (root CMakeLists.txt), so a learner
// receives its Context and its rabit::Comm side by side (docs/driver.md).
//
// Thread counts come from one rule, ThreadsFor: a loop asks for threads for its amount of work
// and a WorkGrain that says how much work a thread must get to be worth starting.
#pragma once

#include <cstdint>

#include "base/param_table.h"

namespace treering {

// How much work a thread must get before ThreadsFor starts it. Two knobs, because the three
// rules this one replaced differed in shape, and a loop that splits float sums by thread must
// keep its old thread counts for its models to stay byte-identical:
//   min_total   below this much work the loop runs on the calling thread, above it on all
//               threads (the learners' objectives, metrics and tree passes: kBoosterGrain);
//   per_thread  each thread gets at least this much work (the loader's 256 KiB of text, the
//               MLP's 16 rows of a product).
struct WorkGrain {
  std::uint64_t min_total = 0;
  std::uint64_t per_thread = 1;
};

// The grain of the learners' loops over rows, gradients and histogram bins: starting an OpenMP
// region costs microseconds (far more on a loaded machine, where idle workers spin), so a loop
// over fewer than 2^14 elementary operations runs inline, and any more use every thread.
inline constexpr WorkGrain kBoosterGrain{1 << 14, 1};

// The one rule: 1 thread when work < grain.min_total, else work / grain.per_thread threads, at
// least 1 and at most `threads` (threads <= 0: all cores, as DefaultThreads()).
int ThreadsFor(std::uint64_t work, int threads, WorkGrain grain);

// Threads OpenMP would use: omp_get_max_threads() (OMP_NUM_THREADS, else the cores).
int DefaultThreads();

struct Context {
  int nthread = 0;    // key nthread; 0 = all cores (Threads())
  int seed = 0;       // key seed (alias random_state): tree sampling, MLP weights and row order
  int verbosity = 1;  // key verbosity: 0 metric lines only .. 3 debug
  // Bytes a job may plan to allocate (up-front "needs ~X MiB" checks); 0 = what the machine
  // has when asked (AvailableMemoryBytes()). Not a key: tests and library users set it.
  std::uint64_t memory_budget = 0;

  // The thread count every loop starts from: nthread, or all cores when nthread is 0.
  int Threads() const;
  // ThreadsFor(work, Threads(), grain).
  int ThreadsFor(std::uint64_t work, WorkGrain grain) const;
  // memory_budget, or the machine's available memory when it is 0.
  std::uint64_t MemoryBudget() const;

  // nthread, seed / random_state, verbosity: the only place these keys are parsed. Errors are
  // the learners' wording, "parameter nthread: bad value '5000', allowed: an integer in
  // [0, 4096]", whichever command or program hands the key over.
  static const ParamTable<Context>& Table();
};

}  // namespace treering
