// --cluster slurm's pure pieces (tracker/src/launch/slurm.h): SLURM_TASKS_PER_NODE, the node of
// each rank (srun's block distribution), and Slurm's message out of its stderr.
#include <gtest/gtest.h>

#include "slurm.h"

namespace treering::launch {
namespace {

TEST(SlurmLaunch, TasksPerNodeExpandsRepeats) {
  auto c = ParseTasksPerNode("2(x3),1");
  ASSERT_TRUE(c.ok());
  EXPECT_EQ(c.value(), (std::vector<int>{2, 2, 2, 1}));
  EXPECT_EQ(ParseTasksPerNode("4").value(), std::vector<int>{4});
  for (const char* bad : {"", "x", "2(x)", "2(y3)", "0", "2(x3", "-1"}) {
    EXPECT_FALSE(ParseTasksPerNode(bad).ok()) << bad;
  }
}

TEST(SlurmLaunch, RanksFillEachNodesSlotsInOrder) {
  SlurmAllocation a;
  a.nodes = {"n1", "n2", "n3"};
  a.tasks_per_node = {2, 1, 1};
  EXPECT_EQ(RankNodes(a, 4), (std::vector<std::string>{"n1", "n1", "n2", "n3"}));
  EXPECT_EQ(RankNodes(a, 5), (std::vector<std::string>{"n1", "n1", "n2", "n3", "n1"}));
}

TEST(SlurmLaunch, SlurmMessageIsTheErrorWithoutThePrefix) {
  EXPECT_EQ(SlurmMessage("sbatch: error: Batch job submission failed: Invalid partition name "
                         "specified\n"),
            "Batch job submission failed: Invalid partition name specified");
  EXPECT_EQ(SlurmMessage("srun: warning: x\nsrun: error: Unable to create step\n"),
            "Unable to create step");
  EXPECT_EQ(SlurmMessage("slurm_load_jobs error: Invalid job id specified\n"),
            "slurm_load_jobs error: Invalid job id specified");
  EXPECT_EQ(SlurmMessage(""), "no message");
}

}  // namespace
}  // namespace treering::launch
