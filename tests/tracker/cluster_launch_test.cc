// treering-submit's multi-host parts that need no hosts: ssh restarts and staging in the task
// list, the pre-start check script (run by a real shell), the tracker's address by route, and
// the subnet mpirun is kept on. The real hosts are in tests/cluster.
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "host_preparation.h"
#include "host_route.h"
#include "launch.h"
#include "supervisor.h"

namespace treering::launch {
namespace {

// ctest runs each test of this file in its own process, two at a time: one shared host file
// was rewritten by one test while another read it (a flaky "no hosts" failure), so each
// process writes its own, removed when the process ends.
struct ProcessHostFile {
  std::string path = ::testing::TempDir() + "/treering_cluster_hosts." + std::to_string(::getpid());
  ~ProcessHostFile() { std::remove(path.c_str()); }
};

SubmitOptions SshOpts(const std::string& hosts) {
  static const ProcessHostFile file;
  const std::string& path = file.path;
  std::ofstream(path) << hosts;
  SubmitOptions o;
  o.cluster = "ssh";
  o.num_workers = 2;
  o.host_file = path;
  o.command = {"worker", "k=v"};
  o.ssh_command = "ssh";
  return o;
}

SubmitOptions MpiOpts(const std::string& hosts, int num_workers) {
  SubmitOptions o = SshOpts(hosts);
  o.cluster = "mpi";
  o.num_workers = num_workers;
  o.command = {"worker"};
  return o;
}

// The value mpirun gets for `--mca NAME VALUE`, or "" when NAME is not passed.
std::string McaValue(const std::vector<std::string>& argv, const std::string& name) {
  auto it = std::find(argv.begin(), argv.end(), name);
  if (it == argv.end() || it == argv.begin() || it + 1 == argv.end()) return "";
  return *(it - 1) == "--mca" ? *(it + 1) : "";
}

bool Contains(const std::string& s, const std::string& part) {
  return s.find(part) != std::string::npos;
}

// Restarts over ssh: the remote script of attempt k exports DMLC_NUM_ATTEMPT=k and appends it
// to the worker's arguments (as local restarts do); attempt 0 appends nothing.
TEST(SshTasksTest, RestartsCarryTheAttemptToTheRemoteWorker) {
  SubmitOptions o = SshOpts("n1\nn2:2222\n");
  o.local_num_attempt = 3;
  auto tasks = SshTasks(o, JobEnv(o, 9091, "tok"));
  ASSERT_TRUE(tasks.ok()) << tasks.status().message();
  const Task& t = (*tasks)[1];
  EXPECT_EQ(t.max_restarts, 3);
  EXPECT_TRUE(t.keep_stdin_open);  // the remote watchdog's end of file
  EXPECT_EQ(t.where, " on host n2");
  ASSERT_TRUE(t.argv_for_attempt);
  const std::string first = t.argv_for_attempt(0).back(), third = t.argv_for_attempt(2).back();
  EXPECT_TRUE(Contains(first, " DMLC_NUM_ATTEMPT=0 && ")) << first;
  EXPECT_TRUE(Contains(first, "'worker' 'k=v' </dev/null &")) << first;
  EXPECT_TRUE(Contains(third, " DMLC_NUM_ATTEMPT=2 && ")) << third;
  EXPECT_TRUE(Contains(third, "'worker' 'k=v' DMLC_NUM_ATTEMPT=2 </dev/null &")) << third;
  EXPECT_EQ(t.argv, t.argv_for_attempt(0));
  EXPECT_EQ(t.argv_for_attempt(0)[1], "-p");
  EXPECT_EQ(t.argv_for_attempt(0)[2], "2222");
}

// A host name is an argument of ssh and mpirun: one that looks like an option is refused.
TEST(HostFileTest, NamesThatLookLikeOptionsAreRefused) {
  auto hosts = ParseHostFile("node-a\n-oProxyCommand=touch\n");
  ASSERT_FALSE(hosts.ok());
  EXPECT_TRUE(Contains(hosts.status().message(), "line 2")) << hosts.status().message();
  EXPECT_TRUE(ParseHostFile("node-a\nnode-b:2222 slots=2\n").ok());
}

TEST(SshTasksTest, WorkersRunInTheSyncDirectory) {
  SubmitOptions o = SshOpts("n1\n");
  o.sync_dst_dir = "/scratch/job one";
  auto tasks = SshTasks(o, JobEnv(o, 9091, "tok"));
  ASSERT_TRUE(tasks.ok());
  EXPECT_TRUE(Contains(tasks->front().argv.back(), "cd '/scratch/job one' && "));
}

// The remote script ends the worker when its stdin (the ssh session) reaches end of file, and
// only then: run here by a real shell, with a pipe we hold open standing in for the session.
TEST(SshTasksTest, TheWatchdogStopsTheWorkerAtEndOfFileOnly) {
  SubmitOptions o = SshOpts("n1\n");
  o.num_workers = 1;
  o.grace_s = 1;
  const std::string mark = ::testing::TempDir() + "/treering_watchdog_mark";
  std::remove(mark.c_str());
  o.command = {"/bin/sh", "-c", "trap 'echo term >>" + mark + "' TERM; sleep 30 & wait; wait"};
  auto tasks = SshTasks(o, JobEnv(o, 9091, "tok"));
  ASSERT_TRUE(tasks.ok());
  int in[2];
  ASSERT_EQ(::pipe(in), 0);
  const pid_t pid = ::fork();
  if (pid == 0) {
    ::dup2(in[0], 0);
    ::close(in[1]);
    const std::string script = tasks->front().argv.back();
    ::execl("/bin/sh", "sh", "-c", script.c_str(), static_cast<char*>(nullptr));
    ::_exit(127);
  }
  ::close(in[0]);
  ASSERT_EQ(::write(in[1], "tok\n", 4), 4);
  ::usleep(500 * 1000);
  int status = 0;
  EXPECT_EQ(::waitpid(pid, &status, WNOHANG), 0) << "the worker ended with stdin still open";
  ::close(in[1]);  // the session is gone
  for (int i = 0; i < 100 && ::waitpid(pid, &status, WNOHANG) == 0; ++i) ::usleep(50 * 1000);
  ASSERT_TRUE(WIFEXITED(status)) << "the worker is still running 5 s after end of file";
  std::ifstream got(mark);
  std::string line;
  EXPECT_TRUE(std::getline(got, line) && line == "term") << "the worker never got SIGTERM";
}

int RunCheck(const std::string& dir, const std::string& program, std::string* out) {
  const std::string cmd = "/bin/sh -c " + ShellQuote(CommandCheckScript(dir, program)) + " 2>&1";
  FILE* p = ::popen(cmd.c_str(), "r");
  char buf[512];
  out->clear();
  while (p != nullptr && std::fgets(buf, sizeof(buf), p) != nullptr) *out += buf;
  const int status = p == nullptr ? -1 : ::pclose(p);
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

TEST(CommandCheckTest, NamesTheMissingDirectoryOrCommand) {
  const std::string dir = ::testing::TempDir();
  std::string out;
  EXPECT_EQ(RunCheck(dir, "sh", &out), 0) << out;        // found on PATH
  EXPECT_EQ(RunCheck("/", "./bin/sh", &out), 0) << out;  // a path, relative to the directory
  EXPECT_EQ(RunCheck(dir + "/no such dir", "sh", &out), 3);
  EXPECT_EQ(out, "no directory " + dir + "/no such dir\n");
  EXPECT_EQ(RunCheck(dir, "./no-such-worker", &out), 4);
  EXPECT_EQ(out, "no command ./no-such-worker in " + dir + "\n");
  EXPECT_EQ(RunCheck(dir, "no-such-worker-on-path", &out), 4);
}

TEST(HostRouteTest, TheAddressThatReachesAHost) {
  auto v4 = RouteAddressTo({"127.0.0.1", 22});
  ASSERT_TRUE(v4.ok()) << v4.status().message();
  EXPECT_EQ(v4.value(), "127.0.0.1");
  auto bad = RouteAddressTo({"no-such-host.invalid", 22});
  ASSERT_FALSE(bad.ok());
  EXPECT_TRUE(Contains(bad.status().message(), "no-such-host.invalid"));
  auto v6 = RouteAddressTo({"::1", 22});
  if (v6.ok()) {  // a machine without IPv6 has no route to ::1
    EXPECT_EQ(v6.value(), "::1");
  }
}

TEST(HostRouteTest, SubnetOfAnInterfaceAddress) {
  auto lo = SubnetOf("127.0.0.1");
  ASSERT_TRUE(lo.ok()) << lo.status().message();
  EXPECT_EQ(lo.value(), "127.0.0.0/8");
  EXPECT_FALSE(SubnetOf("198.51.100.77").ok());  // TEST-NET-2: on no interface here
  EXPECT_TRUE(IsLoopback("127.0.0.1"));
  EXPECT_TRUE(IsLoopback("::1"));
  EXPECT_FALSE(IsLoopback("10.0.0.1"));
}

// mpi across hosts: Open MPI's daemons start with --ssh-command when it was given.
TEST(MpiTaskTest, UsesTheSshCommandWhenGiven) {
  SubmitOptions o = MpiOpts("n1 slots=2\nn2 slots=2\n", 4);
  o.ssh_command = "ssh -F /etc/cluster_ssh_config";
  auto plain = BuildTasks(o, JobEnv(o, 9091, "tok"));
  ASSERT_TRUE(plain.ok());
  EXPECT_EQ(McaValue(plain->front().argv, "plm_rsh_agent"), "");
  o.ssh_command_given = true;
  auto with_ssh = BuildTasks(o, JobEnv(o, 9091, "tok"));
  ASSERT_TRUE(with_ssh.ok());
  const auto& b = with_ssh->front().argv;
  EXPECT_EQ(McaValue(b, "plm_rsh_agent"), "ssh -F /etc/cluster_ssh_config");
  // The tracker on loopback: no interface restriction (the hosts are this machine).
  EXPECT_EQ(McaValue(b, "btl_tcp_if_include"), "");
}

// Hosts reached over IPv6: Open MPI reads *_if_include CIDRs as IPv4 only, so the job is kept
// on IPv6 by family instead; and it takes IPv6 hosts by name only, which is said before start.
TEST(MpiTaskTest, Ipv6HostsAreKeptOnIpv6AndNeedNames) {
  SubmitOptions o = MpiOpts("v6-host-1\nv6-host-2\n", 2);
  o.host_ip = "fd74:7265:0:9::1";
  auto tasks = BuildTasks(o, JobEnv(o, 9091, "tok"));
  ASSERT_TRUE(tasks.ok()) << tasks.status().message();
  const auto& a = tasks->front().argv;
  EXPECT_EQ(McaValue(a, "btl_tcp_if_include"), "");
  EXPECT_EQ(McaValue(a, "btl_tcp_disable_family"), "4");
  EXPECT_EQ(McaValue(a, "oob_tcp_disable_ipv4_family"), "1");

  o = MpiOpts("v6-host-1\nfd74:7265:0:9::3 slots=2\n", 3);
  auto refused = BuildTasks(o, JobEnv(o, 9091, "tok"));
  ASSERT_FALSE(refused.ok());
  EXPECT_TRUE(Contains(refused.status().message(), "host 'fd74:7265:0:9::3' is an IPv6 address"))
      << refused.status().message();
  EXPECT_TRUE(Contains(refused.status().message(), o.host_file)) << refused.status().message();
}

// A worker tells the tracker why it failed and then exits; the tracker may read that report
// only after the exit is reaped (a loaded machine). The job's reason must still be the
// tracker's (it names the rank waited for and its host), not "exited with code 1".
TEST(Supervisor, FailedExitWaitsForTheTrackersLateReport) {
  char dir[] = "/tmp/treering_supervisor_XXXXXX";
  ASSERT_NE(::mkdtemp(dir), nullptr);
  const std::string reported = std::string(dir) + "/reported";
  Task task;
  task.label = "[rank 0] ";
  task.argv = {"/bin/sh", "-c", "touch '" + reported + "'; exit 1"};
  SupervisorHooks hooks;
  hooks.emit = [](const std::string&, bool) {};
  int polls_since_report = 0;  // the tracker answers on the second poll after the report
  hooks.external_failure = [&]() -> std::optional<std::string> {
    if (::access(reported.c_str(), F_OK) != 0 || ++polls_since_report < 2) return {};
    return std::string("tracker: rank 0 failed: rank 1 never started this op");
  };
  std::string aborted;
  hooks.on_task_failed = [&](const std::string& reason) { aborted = reason; };
  const Status s = Supervisor({task}, 1.0, hooks).Run();
  EXPECT_FALSE(s.ok());
  EXPECT_TRUE(Contains(s.message(), "rank 1 never started")) << s.message();
  EXPECT_TRUE(aborted.empty()) << aborted;  // the tracker already ended: no second abort
  std::remove(reported.c_str());
  ::rmdir(dir);
}

}  // namespace
}  // namespace treering::launch
