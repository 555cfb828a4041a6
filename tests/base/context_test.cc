// The Context (base/context.h): the one thread-count rule with each caller's grain, and the one
// table of nthread / seed / verbosity.
#include "base/context.h"

#include <gtest/gtest.h>

#include "base/parallel_for.h"

namespace treering {
namespace {

// The learners' grain: inline below 2^14 operations, every thread from there on (as
// booster/work_split.h's rule did before it moved here).
TEST(ThreadsFor, BoosterGrainIsAllOrNothing) {
  EXPECT_EQ(ThreadsFor(0, 8, kBoosterGrain), 1);
  EXPECT_EQ(ThreadsFor(16383, 8, kBoosterGrain), 1);
  EXPECT_EQ(ThreadsFor(16384, 8, kBoosterGrain), 8);
  EXPECT_EQ(ThreadsFor(16384, 4096, kBoosterGrain), 4096);
  EXPECT_EQ(ThreadsFor(std::uint64_t{1} << 40, 3, kBoosterGrain), 3);
}

// The loader's grain: 256 KiB of text per thread (data/src/chunk_plan.h's old rule).
TEST(ThreadsFor, PerThreadGrainCapsByWork) {
  const WorkGrain parse{0, 256 * 1024};
  EXPECT_EQ(ThreadsFor(0, 8, parse), 1);
  EXPECT_EQ(ThreadsFor(256 * 1024 - 1, 8, parse), 1);
  EXPECT_EQ(ThreadsFor(3 * 256 * 1024 + 5, 8, parse), 3);
  EXPECT_EQ(ThreadsFor(100ull * 256 * 1024, 8, parse), 8);
  // The MLP's products: 16 rows per thread (booster/mlp/src/layer_kernels.cc's old rule).
  const WorkGrain rows{0, 16};
  EXPECT_EQ(ThreadsFor(15, 4, rows), 1);
  EXPECT_EQ(ThreadsFor(47, 4, rows), 2);
  EXPECT_EQ(ThreadsFor(64, 4, rows), 4);
  EXPECT_EQ(ThreadsFor(6400, 4, rows), 4);
}

// threads <= 0 is every core, never 0 threads.
TEST(ThreadsFor, ZeroThreadsMeansAllCores) {
  EXPECT_EQ(ThreadsFor(1 << 20, 0, kBoosterGrain), DefaultThreads());
  EXPECT_EQ(ThreadsFor(1, 0, kBoosterGrain), 1);
  Context ctx;
  EXPECT_EQ(ctx.Threads(), DefaultThreads());
  EXPECT_EQ(ctx.ThreadsFor(1 << 20, kBoosterGrain), DefaultThreads());
  ctx.nthread = 3;
  EXPECT_EQ(ctx.Threads(), 3);
  EXPECT_EQ(ctx.ThreadsFor(1 << 20, kBoosterGrain), 3);
  EXPECT_EQ(ResolveThreads(0), DefaultThreads());
}

TEST(Context, TableParsesEachKeyOnceWithOneRange) {
  Context ctx;
  EXPECT_TRUE(Context::Table().Set(&ctx, "nthread", "4096").ok());
  EXPECT_EQ(ctx.nthread, 4096);
  const Status bad = Context::Table().Set(&ctx, "nthread", "4097");
  EXPECT_EQ(bad.message(),
            "parameter nthread: bad value '4097', allowed: an integer in [-4096, 4096]");
  EXPECT_EQ(bad.key(), "nthread");
  // scikit-learn's n_jobs (XGBoost's alias), where -1 means every core.
  ASSERT_TRUE(Context::Table().Set(&ctx, "n_jobs", "-1").ok());
  EXPECT_EQ(ctx.nthread, -1);
  EXPECT_EQ(ctx.Threads(), DefaultThreads());
  EXPECT_TRUE(Context::Table().Set(&ctx, "random_state", "-5").ok());
  EXPECT_EQ(ctx.seed, -5);
  EXPECT_FALSE(Context::Table().Set(&ctx, "verbosity", "4").ok());
  int rows = 0;
  for (const ParamDoc& d : Context::Table().Docs()) rows += d.key == "nthread";
  EXPECT_EQ(rows, 1);
}

TEST(Context, MemoryBudgetDefaultsToTheMachine) {
  Context ctx;
  EXPECT_GT(ctx.MemoryBudget(), 0u);
  ctx.memory_budget = 1 << 20;
  EXPECT_EQ(ctx.MemoryBudget(), 1u << 20);
}

}  // namespace
}  // namespace treering
