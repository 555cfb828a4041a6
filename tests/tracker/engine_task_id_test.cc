// Under `treering-submit --cluster mpi` workers get no DMLC_TASK_ID: the engine takes Open MPI's
// OMPI_COMM_WORLD_RANK as its task id, so ranks (and data parts) follow the MPI rank, unless a
// task id is given explicitly.
#include <cstdlib>

#include <gtest/gtest.h>

#include "engine_params.h"

namespace rabit::engine {
namespace {

struct ScopedEnv {
  ScopedEnv(const char* name, const char* value) : name(name) { setenv(name, value, 1); }
  ~ScopedEnv() { unsetenv(name); }
  const char* name;
};

TEST(EngineTaskId, OpenMpiRankIsTheTaskIdWhenNoneIsGiven) {
  ScopedEnv rank("OMPI_COMM_WORLD_RANK", "3");
  auto p = ReadEngineParams({});
  ASSERT_TRUE(p.ok()) << p.status().message();
  EXPECT_EQ(p->task_id, "3");
}

TEST(EngineTaskId, ExplicitTaskIdWins) {
  ScopedEnv rank("OMPI_COMM_WORLD_RANK", "3");
  {
    ScopedEnv task("DMLC_TASK_ID", "7");
    EXPECT_EQ(ReadEngineParams({})->task_id, "7");
  }
  EXPECT_EQ(ReadEngineParams({{"rabit_task_id", "5"}})->task_id, "5");
}

TEST(EngineTaskId, NoMpiNoTaskId) {
  unsetenv("OMPI_COMM_WORLD_RANK");
  unsetenv("DMLC_TASK_ID");
  EXPECT_EQ(ReadEngineParams({})->task_id, "");
}

}  // namespace
}  // namespace rabit::engine
