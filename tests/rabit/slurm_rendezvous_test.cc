// The Slurm rendezvous's reader side (rabit/src/slurm_rendezvous.h), without Slurm: a task
// other than 0 takes rank and world from SLURM_PROCID / SLURM_NTASKS and the tracker from the
// rendezvous file, refuses a file others could have written or read, and times out naming the
// directory. Task 0's side runs under a real Slurm in tests/cluster (slurm_jobs).
#include "slurm_rendezvous.h"

#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include <gtest/gtest.h>

namespace {

using rabit::engine::EngineParams;
using rabit::engine::JoinSlurmRendezvous;

class SlurmRendezvousTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() /
           ("treering-rdv-test-" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir_);
    ::setenv("TREERING_RENDEZVOUS_DIR", dir_.c_str(), 1);
    ::setenv("SLURM_JOB_ID", "77", 1);
    ::setenv("SLURM_STEP_ID", "3", 1);
    ::setenv("SLURM_PROCID", "2", 1);
    ::setenv("SLURM_NTASKS", "4", 1);
    ::setenv("SLURM_RESTART_COUNT", "1", 1);
  }
  void TearDown() override {
    for (const char* v : {"TREERING_RENDEZVOUS_DIR", "SLURM_JOB_ID", "SLURM_STEP_ID",
                          "SLURM_PROCID", "SLURM_NTASKS", "SLURM_RESTART_COUNT"}) {
      ::unsetenv(v);
    }
    std::filesystem::remove_all(dir_);
  }
  std::string File() const { return (dir_ / "job77.3.r1").string(); }
  void Write(const std::string& text, mode_t mode) const {
    std::ofstream(File()) << text;
    ::chmod(File().c_str(), mode);
  }
  static EngineParams Quick() {
    EngineParams p;
    p.bootstrap_timeout_seconds = 0.2;
    return p;
  }
  std::filesystem::path dir_;
};

TEST_F(SlurmRendezvousTest, TaskTakesRankWorldAndTrackerFromTheFile) {
  Write("treering-slurm-rendezvous 1\n10.1.2.3 20123\nsecret-token\n", 0600);
  EngineParams p = Quick();
  ASSERT_TRUE(JoinSlurmRendezvous(&p).ok());
  EXPECT_EQ(p.tracker_uri, "10.1.2.3");
  EXPECT_EQ(p.tracker_port, 20123);
  EXPECT_EQ(p.job_token, "secret-token");
  EXPECT_EQ(p.task_id, "2");
  EXPECT_EQ(p.world_size, 4);
}

TEST_F(SlurmRendezvousTest, RefusesAFileOthersCanRead) {
  Write("treering-slurm-rendezvous 1\n10.1.2.3 20123\nsecret-token\n", 0644);
  EngineParams p = Quick();
  const auto s = JoinSlurmRendezvous(&p);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("refusing"), std::string::npos) << s.message();
  EXPECT_TRUE(p.tracker_uri.empty());
}

TEST_F(SlurmRendezvousTest, RefusesAFileThatIsNotARendezvous) {
  Write("hello\n", 0600);
  EngineParams p = Quick();
  const auto s = JoinSlurmRendezvous(&p);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("not a rendezvous file"), std::string::npos) << s.message();
}

TEST_F(SlurmRendezvousTest, NoFileTimesOutNamingTheDirectoryVariable) {
  EngineParams p = Quick();
  const auto s = JoinSlurmRendezvous(&p);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("job77.3.r1"), std::string::npos) << s.message();
  EXPECT_NE(s.message().find("TREERING_RENDEZVOUS_DIR"), std::string::npos) << s.message();
}

TEST_F(SlurmRendezvousTest, NotAStepOrATrackerGivenLeavesParamsAlone) {
  EngineParams given = Quick();
  given.tracker_uri = "10.9.9.9";
  EXPECT_TRUE(JoinSlurmRendezvous(&given).ok());
  EXPECT_EQ(given.tracker_uri, "10.9.9.9");
  EXPECT_TRUE(given.task_id.empty());
  ::unsetenv("SLURM_STEP_ID");  // a batch script's own shell: a world of one
  EngineParams batch = Quick();
  EXPECT_TRUE(JoinSlurmRendezvous(&batch).ok());
  EXPECT_TRUE(batch.tracker_uri.empty());
}

}  // namespace
