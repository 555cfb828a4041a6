// The one place treering enters OpenMP. Every parallel loop in data/ and booster/ goes through
// ParallelFor so that (a) exceptions thrown inside a worker thread reach the caller instead of
// calling std::terminate, and (b) thread counts are chosen in one place (base/context.h: the
// Context's Threads() and the one ThreadsFor rule). A CI grep
// (scripts/check-style.sh) keeps `#pragma omp` out of every other file.
#pragma once

#include <omp.h>

#include <algorithm>
#include <cstdint>
#include <exception>
#include <mutex>

#include "base/context.h"

namespace treering {

// nthread <= 0 means all cores (DefaultThreads(), base/context.h).
inline int ResolveThreads(int nthread) { return nthread > 0 ? nthread : DefaultThreads(); }

namespace detail {

// The loop behind ParallelFor and ParallelForDynamic: fn(i) for i in [0, n), inline when one
// thread (or one index) suffices; the first exception thrown by any fn(i) is rethrown after
// the loop ends.
template <typename Index, typename Fn>
void ParallelLoop(Index n, int nthread, bool dynamic, Fn&& fn) {
  if (n <= 0) return;
  nthread = ResolveThreads(nthread);
  if (nthread == 1 || n == 1) {
    for (Index i = 0; i < n; ++i) fn(i);
    return;
  }
  std::exception_ptr error;
  std::mutex error_mutex;
  const auto guarded = [&](std::int64_t i) {
    try {
      fn(static_cast<Index>(i));
    } catch (...) {
      std::lock_guard<std::mutex> lock(error_mutex);
      if (!error) error = std::current_exception();
    }
  };
  const std::int64_t count = static_cast<std::int64_t>(n);
  if (dynamic) {
#pragma omp parallel for num_threads(nthread) schedule(dynamic, 1)
    for (std::int64_t i = 0; i < count; ++i) guarded(i);
  } else {
#pragma omp parallel for num_threads(nthread) schedule(static)
    for (std::int64_t i = 0; i < count; ++i) guarded(i);
  }
  if (error) std::rethrow_exception(error);
}

}  // namespace detail

// Runs fn(i) for i in [0, n) on `nthread` threads with a static schedule (deterministic
// assignment of indices to threads, which keeps per-thread partial results reproducible).
// The first exception thrown by any fn(i) is rethrown here after the loop ends.
template <typename Index, typename Fn>
void ParallelFor(Index n, int nthread, Fn&& fn) {
  detail::ParallelLoop(n, nthread, false, fn);
}

// Like ParallelFor, but iterations go to whichever thread is free (dynamic schedule): for
// independent iterations of uneven cost whose results do not depend on the thread that ran
// them.
template <typename Index, typename Fn>
void ParallelForDynamic(Index n, int nthread, Fn&& fn) {
  detail::ParallelLoop(n, nthread, true, fn);
}

// Like ParallelFor but hands each thread one contiguous block [begin, end) and its thread id,
// for loops that keep per-thread buffers (histograms, parse outputs).
template <typename Fn>
void ParallelForBlocks(std::int64_t n, int nthread, Fn&& fn) {
  if (n <= 0) return;
  nthread = static_cast<int>(std::min<std::int64_t>(ResolveThreads(nthread), n));
  ParallelFor(nthread, nthread, [&](int tid) {
    const std::int64_t begin = n * tid / nthread;
    const std::int64_t end = n * (tid + 1) / nthread;
    fn(tid, begin, end);
  });
}

}  // namespace treering
