#include "base/context.h"

#include <omp.h>

#include <algorithm>

#include "base/memory_budget.h"

namespace treering {
namespace {

// XGBoost takes any nthread; an upper bound stops a typo (nthread=40000) from starting tens of
// thousands of threads. 4096 is more cores than any machine we target.
constexpr int kMaxThreads = 4096;

}  // namespace

int DefaultThreads() { return std::max(1, omp_get_max_threads()); }

int ThreadsFor(std::uint64_t work, int threads, WorkGrain grain) {
  if (threads <= 0) threads = DefaultThreads();
  if (work < grain.min_total) return 1;
  const std::uint64_t useful =
      std::max<std::uint64_t>(1, work / std::max<std::uint64_t>(1, grain.per_thread));
  return static_cast<int>(std::min<std::uint64_t>(useful, static_cast<std::uint64_t>(threads)));
}

int Context::Threads() const { return nthread > 0 ? nthread : DefaultThreads(); }

int Context::ThreadsFor(std::uint64_t work, WorkGrain grain) const {
  return treering::ThreadsFor(work, Threads(), grain);
}

std::uint64_t Context::MemoryBudget() const {
  return memory_budget > 0 ? memory_budget : AvailableMemoryBytes();
}

const ParamTable<Context>& Context::Table() {
  using C = Context;
  static const ParamTable<C> kTable({
      // Negative values mean all cores too: scikit-learn's n_jobs=-1, which XGBoost accepts.
      IntField("nthread", &C::nthread, -kMaxThreads, kMaxThreads,
               "threads for loading, training and prediction; 0 or negative = all cores")
          .Alias("n_jobs"),
      IntField("seed", &C::seed, -2147483648LL, 2147483647LL,
               "random seed: row/column sampling (trees, rank 0's value is broadcast), initial "
               "weights and row order (mlp)")
          .Alias("random_state"),
      IntField("verbosity", &C::verbosity, 0, 3,
               "0: metric lines only; 1: + timing summary and \"Writing ...\" lines; 2-3: + "
               "progress"),
  });
  return kTable;
}

}  // namespace treering
