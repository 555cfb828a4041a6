// treering-submit's pure parts: host files, shell quoting (checked by a real shell), and the
// argv / environment each cluster type builds.
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <fstream>

#include <gtest/gtest.h>

#include "cpu_binding.h"
#include "launch.h"

namespace treering::launch {
namespace {

// The job token is an HMAC key: 256 bits from the CSPRNG, always 64 hex digits (the old one was
// four unpadded 32-bit words: 128 bits at most, and of varying length).
TEST(RandomTokenTest, Is256BitsOfHexAndFreshEachTime) {
  const std::string a = launch::RandomToken();
  const std::string b = launch::RandomToken();
  ASSERT_EQ(a.size(), 64u) << a;
  EXPECT_EQ(a.find_first_not_of("0123456789abcdef"), std::string::npos) << a;
  EXPECT_NE(a, b);
}

TEST(HostFileTest, PortsSlotsCommentsAndIpv6) {
  auto hosts = ParseHostFile("# cluster\nnode-a slots=2\n\n  node-b:2222  # ssh port\n::1\n");
  ASSERT_TRUE(hosts.ok()) << hosts.status().message();
  ASSERT_EQ(hosts->size(), 4u);
  EXPECT_EQ((*hosts)[0].name, "node-a");
  EXPECT_EQ((*hosts)[1].name, "node-a");
  EXPECT_EQ((*hosts)[1].port, 22);
  EXPECT_EQ((*hosts)[2].name, "node-b");
  EXPECT_EQ((*hosts)[2].port, 2222);
  EXPECT_EQ((*hosts)[3].name, "::1");
}

TEST(HostFileTest, ErrorsNameTheLine) {
  EXPECT_NE(ParseHostFile("a\nb slots=0\n").status().message().find("line 2"), std::string::npos);
  EXPECT_NE(ParseHostFile("a:99999\n").status().message().find("bad port"), std::string::npos);
  EXPECT_NE(ParseHostFile("a cpus=4\n").status().message().find("unknown field"),
            std::string::npos);
  EXPECT_EQ(ParseHostFile("# nothing\n").status().code(), StatusCode::kInvalidInput);
  EXPECT_EQ(ReadHostFile("/nonexistent/hosts").status().code(), StatusCode::kInvalidInput);
}

TEST(ShellQuoteTest, RealShellGetsTheExactString) {
  const std::string nasty = "it's $HOME `x` \"q\" \\ ;|&";
  FILE* p = ::popen(("printf %s " + ShellQuote(nasty)).c_str(), "r");
  ASSERT_NE(p, nullptr);
  char buf[256] = {};
  const std::size_t n = std::fread(buf, 1, sizeof(buf) - 1, p);
  ::pclose(p);
  EXPECT_EQ(std::string(buf, n), nasty);
}

SubmitOptions Opts(const std::string& cluster) {
  SubmitOptions o;
  o.cluster = cluster;
  o.num_workers = 3;
  o.command = {"worker", "a b"};
  o.env = {{"K", "V"}};
  return o;
}

std::string EnvValue(const EnvList& env, const std::string& key) {
  for (const auto& [k, v] : env) {
    if (k == key) return v;
  }
  return "<unset>";
}

TEST(BuildTasksTest, LocalGivesTaskIdsAndRestarts) {
  SubmitOptions o = Opts("local");
  o.local_num_attempt = 2;
  const EnvList env = JobEnv(o, 9091, "tok");
  EXPECT_EQ(EnvValue(env, "DMLC_TRACKER_PORT"), "9091");
  EXPECT_EQ(EnvValue(env, "TREERING_JOB_TOKEN"), "tok");
  EXPECT_EQ(EnvValue(env, "DMLC_NUM_WORKER"), "3");
  EXPECT_EQ(EnvValue(env, "K"), "V");
  auto tasks = BuildTasks(o, env);
  ASSERT_TRUE(tasks.ok());
  ASSERT_EQ(tasks->size(), 3u);
  EXPECT_EQ((*tasks)[2].label, "[rank 2] ");
  EXPECT_EQ(EnvValue((*tasks)[2].env, "DMLC_TASK_ID"), "2");
  EXPECT_EQ((*tasks)[2].max_restarts, 2);
  EXPECT_TRUE((*tasks)[2].append_attempt);
  EXPECT_EQ((*tasks)[0].argv, o.command);
}

// mpirun's default placement: equal contiguous shares of the allowed CPUs, none when a single
// worker (it may use every core) or more workers than CPUs (pinning would stack them).
TEST(CpuSharesTest, EqualContiguousSharesOrNone) {
  const std::vector<int> cpus = {0, 1, 2, 3, 4, 5, 6, 7};
  EXPECT_EQ(CpuShares(cpus, 2), (std::vector<std::vector<int>>{{0, 1, 2, 3}, {4, 5, 6, 7}}));
  EXPECT_EQ(CpuShares(cpus, 3), (std::vector<std::vector<int>>{{0, 1}, {2, 3}, {4, 5}}));
  EXPECT_EQ(CpuShares({2, 5}, 2), (std::vector<std::vector<int>>{{2}, {5}}));  // taskset holes
  EXPECT_TRUE(CpuShares(cpus, 1).empty());
  EXPECT_TRUE(CpuShares(cpus, 9).empty());
  EXPECT_TRUE(CpuShares({}, 2).empty());
}

// Pinned local workers get their CPUs (kept for restarts: the Task carries them) and no rabit
// variable (the algorithms come from rabit's link model, not from the launcher); --bind-to
// none, or more workers than CPUs, get no CPUs.
TEST(BuildTasksTest, LocalWorkersArePinnedWhenTheyFit) {
  const int cpus = static_cast<int>(AllowedCpus().size());
  ASSERT_GE(cpus, 1);
  SubmitOptions o = Opts("local");
  o.num_workers = std::max(2, cpus);
  auto tasks = BuildTasks(o, JobEnv(o, 9091, "tok"));
  ASSERT_TRUE(tasks.ok());
  if (cpus >= 2) {
    EXPECT_EQ((*tasks)[1].cpus, CpuShares(AllowedCpus(), o.num_workers)[1]);
  }
  for (const auto& kv : (*tasks)[1].env) {
    EXPECT_NE(kv.first, "TREERING_REDUCE_PAIR_MAXCOUNT") << "the launcher sets no rabit knobs";
    EXPECT_NE(kv.first, "TREERING_PINNED") << "the launcher sets no rabit knobs";
  }
  o.bind_to = "none";
  tasks = BuildTasks(o, JobEnv(o, 9091, "tok"));
  ASSERT_TRUE(tasks.ok());
  EXPECT_TRUE((*tasks)[1].cpus.empty());
  o.bind_to = "core";
  o.num_workers = cpus + 1;
  tasks = BuildTasks(o, JobEnv(o, 9091, "tok"));
  ASSERT_TRUE(tasks.ok());
  EXPECT_TRUE((*tasks)[0].cpus.empty());
}

TEST(BuildTasksTest, MpiWithAnUnreadableHostFileNamesIt) {
  SubmitOptions o = Opts("mpi");
  o.host_file = "/nonexistent/treering_hosts";
  auto tasks = BuildTasks(o, JobEnv(o, 9091, "tok"));
  ASSERT_FALSE(tasks.ok());
  EXPECT_NE(tasks.status().message().find("/nonexistent/treering_hosts"), std::string::npos)
      << tasks.status().message();
}

TEST(BuildTasksTest, MpiIsOneMpirunWithEnvFlags) {
  SubmitOptions o = Opts("mpi");
  // The launcher reads the host file before mpirun does (IPv6 addresses are refused there).
  o.host_file = ::testing::TempDir() + "/treering_mpi_hosts";
  std::ofstream(o.host_file) << "n1 slots=3\n";
  auto tasks = BuildTasks(o, JobEnv(o, 9091, "tok"));
  ASSERT_TRUE(tasks.ok()) << tasks.status().message();
  ASSERT_EQ(tasks->size(), 1u);
  std::vector<std::string> expected{"mpirun",          "-n",         "3",
                                    "--oversubscribe", "--hostfile", o.host_file};
  if (::geteuid() == 0) expected.push_back("--allow-run-as-root");
  const auto& argv = (*tasks)[0].argv;
  ASSERT_GE(argv.size(), expected.size());
  EXPECT_TRUE(std::equal(expected.begin(), expected.end(), argv.begin()));
  // `-x NAME` exports mpirun's own value: names on the command line, values in its environment.
  auto port = std::find(argv.begin(), argv.end(), "DMLC_TRACKER_PORT");
  ASSERT_NE(port, argv.end());
  EXPECT_EQ(*(port - 1), "-x");
  EXPECT_NE(std::find(argv.begin(), argv.end(), "TREERING_JOB_TOKEN"), argv.end());
  const EnvList& env = (*tasks)[0].env;
  EXPECT_NE(std::find(env.begin(), env.end(),
                      std::pair<std::string, std::string>("DMLC_TRACKER_PORT", "9091")),
            env.end());
  EXPECT_EQ(std::find(argv.begin(), argv.end(), "DMLC_TASK_ID"), argv.end());
  EXPECT_EQ(argv.back(), "a b");
  EXPECT_EQ((*tasks)[0].parent_death_signal, SIGTERM);
}

// The job token is a secret: no launched command line may carry it (other users read
// /proc/PID/cmdline). mpirun gets it through its environment, ssh's remote shell from stdin.
TEST(BuildTasksTest, TheTokenIsOnNoCommandLine) {
  const std::string token = "s3cret-token-4242";
  for (const char* cluster : {"local", "mpi", "ssh"}) {
    const std::string path = ::testing::TempDir() + "/treering_hosts_token";
    std::ofstream(path) << "n1\n";
    SubmitOptions o = Opts(cluster);
    o.host_file = path;
    auto tasks = BuildTasks(o, JobEnv(o, 9091, token));
    ASSERT_TRUE(tasks.ok()) << cluster << ": " << tasks.status().message();
    for (const Task& t : *tasks) {
      for (const std::string& arg : t.argv) {
        EXPECT_EQ(arg.find(token), std::string::npos) << cluster << " argv: " << arg;
      }
    }
    const Task& first = tasks->front();
    if (std::string(cluster) == "ssh") {
      EXPECT_EQ(first.stdin_data, token + "\n");
      EXPECT_EQ(
          first.argv.back().rfind("read -r TREERING_JOB_TOKEN && export TREERING_JOB_TOKEN", 0), 0u)
          << first.argv.back();
    } else {
      const auto has_token = std::find(first.env.begin(), first.env.end(),
                                       std::pair<std::string, std::string>(kTokenVariable, token));
      EXPECT_NE(has_token, first.env.end()) << cluster;
    }
  }
}

// --serve-data's bearer token is as secret as the job token: over ssh it also arrives on stdin,
// second line, and is on no command line.
TEST(BuildTasksTest, TheDataTokenIsOnNoCommandLine) {
  const std::string token = "job-token-4242", data_token = "data-token-7373";
  const std::string path = ::testing::TempDir() + "/treering_hosts_data_token";
  std::ofstream(path) << "n1\n";
  for (const char* cluster : {"local", "mpi", "ssh"}) {
    SubmitOptions o = Opts(cluster);
    o.host_file = path;
    EnvList env = JobEnv(o, 9091, token);
    env.emplace_back(kDataTokenVariable, data_token);
    auto tasks = BuildTasks(o, env);
    ASSERT_TRUE(tasks.ok()) << cluster << ": " << tasks.status().message();
    for (const Task& t : *tasks) {
      for (const std::string& arg : t.argv) {
        EXPECT_EQ(arg.find(data_token), std::string::npos) << cluster << " argv: " << arg;
      }
    }
    if (std::string(cluster) == "ssh") {
      const Task& first = tasks->front();
      EXPECT_EQ(first.stdin_data, token + "\n" + data_token + "\n");
      EXPECT_NE(first.argv.back().find("read -r TREERING_DATA_TOKEN && export TREERING_DATA_TOKEN"),
                std::string::npos)
          << first.argv.back();
    }
  }
}

TEST(LegacyWorkerTest, XgboostCliIsDetectedByItsProgramName) {
  EXPECT_TRUE(IsLegacyWorker({"xgboost", "train.conf"}));
  EXPECT_TRUE(IsLegacyWorker({"/usr/bin/xgboost", "train.conf"}));
  EXPECT_FALSE(IsLegacyWorker({"treering", "train.conf"}));
  EXPECT_FALSE(IsLegacyWorker({"/opt/xgboost/bin/treering"}));
  EXPECT_FALSE(IsLegacyWorker({"xgboost-wrapper.sh"}));
  EXPECT_FALSE(IsLegacyWorker({}));
}

TEST(BuildTasksTest, SshRoundRobinsOverHosts) {
  const std::string path = ::testing::TempDir() + "/treering_hosts";
  std::ofstream(path) << "n1:2200\nn2\n";
  SubmitOptions o = Opts("ssh");
  o.host_file = path;
  o.ssh_command = "myssh -o X=1";
  auto tasks = BuildTasks(o, JobEnv(o, 9091, "tok"));
  ASSERT_TRUE(tasks.ok()) << tasks.status().message();
  ASSERT_EQ(tasks->size(), 3u);
  const auto& t2 = (*tasks)[2].argv;  // task 2 -> hosts[2 % 2] = n1
  ASSERT_EQ(t2.size(), 7u);
  EXPECT_EQ(std::vector<std::string>(t2.begin(), t2.begin() + 6),
            (std::vector<std::string>{"myssh", "-o", "X=1", "-p", "2200", "n1"}));
  EXPECT_NE(t2[6].find("export"), std::string::npos);
  EXPECT_NE(t2[6].find("DMLC_TASK_ID='2'"), std::string::npos);
  EXPECT_NE(t2[6].find("$s 'worker' 'a b' </dev/null &"), std::string::npos) << t2[6];
  EXPECT_EQ((*tasks)[1].argv[4], "22");
}

TEST(BuildTasksTest, BadClusterAndEmptyCommandAreInvalidInput) {
  SubmitOptions o = Opts("yarn");
  EXPECT_EQ(BuildTasks(o, {}).status().code(), StatusCode::kInvalidInput);
  o = Opts("local");
  o.command.clear();
  EXPECT_EQ(BuildTasks(o, {}).status().code(), StatusCode::kInvalidInput);
  o = Opts("ssh");
  EXPECT_NE(BuildTasks(o, {}).status().message().find("--host-file"), std::string::npos);
}

}  // namespace
}  // namespace treering::launch
