// The in-process tracker: configs it accepts and refuses, the worker arguments, the life cycle
// (Run, WaitFor, Free), and one job whose only worker is this process.
#include <mutex>
#include <regex>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "treering/c_api.h"

namespace {

std::string Error() { return XGBGetLastError(); }

std::mutex prints_mutex;
std::vector<std::string> prints;
void CollectPrint(const char* line) {
  std::lock_guard lock(prints_mutex);
  prints.emplace_back(line);
}

TEST(CapiTracker, RefusesBadConfigsNamingTheKey) {
  struct Case {
    const char* config;
    const char* message;
  };
  TrackerHandle h = nullptr;
  for (const Case& c : {
           Case{"{}", "config: n_workers is required"},
           Case{R"({"n_workers": 0})", "n_workers: expected an integer >= 1"},
           Case{R"({"n_workers": "2"})", "n_workers: expected an integer >= 1"},
           Case{R"({"n_workers": 2, "port": 70000})", "port: expected 0"},
           Case{R"({"n_workers": 2, "timeout": -1})", "timeout: expected seconds >= 0"},
           Case{R"({"n_workers": 2, "host": "not an ip"})", "tracker host ip 'not an ip'"},
           Case{R"({"n_workers": 2, "dmlc_communicator": "federated"})",
                "dmlc_communicator: only \"rabit\""},
           Case{R"({"n_workers": 2, "max_attempts": 0})", "max_attempts: expected an integer"},
           Case{R"({"n_workers": 2, "recovery_timeout": -1})", "recovery_timeout: expected"},
           Case{R"({"n_workers": 2, "workers": 3})", "unknown key 'workers'"},
           Case{R"({"n_workers": )", "not valid JSON"},
       }) {
    EXPECT_EQ(XGTrackerCreate(c.config, &h), -1) << c.config;
    EXPECT_NE(Error().find(c.message), std::string::npos) << c.config << " -> " << Error();
  }
  EXPECT_EQ(XGTrackerCreate(nullptr, &h), -1);
  EXPECT_EQ(Error(), "XGTrackerCreate: config is null");
  EXPECT_EQ(XGTrackerCreate(R"({"n_workers": 1})", nullptr), -1);
  EXPECT_EQ(Error(), "XGTrackerCreate: handle is null");
}

TEST(CapiTracker, WorkerArgsNameTheListeningTrackerAndAFreshToken) {
  TrackerHandle h = nullptr;
  ASSERT_EQ(XGTrackerCreate(R"({"n_workers": 2, "host": "127.0.0.1"})", &h), 0) << Error();
  const char* args = nullptr;
  ASSERT_EQ(XGTrackerWorkerArgs(h, &args), 0) << Error();
  const std::regex expected(
      R"re(\{"dmlc_num_worker":2,"dmlc_tracker_port":([0-9]+),"dmlc_tracker_uri":"127.0.0.1",)re"
      R"re("rabit_job_token":"([0-9a-f]{64})"\})re");
  std::smatch m;
  const std::string s = args;
  ASSERT_TRUE(std::regex_match(s, m, expected)) << s;
  EXPECT_GT(std::stoi(m[1]), 0);
  TrackerHandle h2 = nullptr;
  ASSERT_EQ(XGTrackerCreate(R"({"n_workers": 2, "host": "127.0.0.1"})", &h2), 0) << Error();
  const char* args2 = nullptr;
  ASSERT_EQ(XGTrackerWorkerArgs(h2, &args2), 0) << Error();
  const std::string s2 = args2;
  std::smatch m2;
  ASSERT_TRUE(std::regex_match(s2, m2, expected)) << s2;
  EXPECT_NE(m[2].str(), m2[2].str());  // each tracker makes its own token
  EXPECT_EQ(XGTrackerWorkerArgs(h, nullptr), -1);
  EXPECT_EQ(Error(), "XGTrackerWorkerArgs: args is null");
  EXPECT_EQ(XGTrackerFree(h), 0) << Error();
  EXPECT_EQ(XGTrackerFree(h2), 0) << Error();
}

TEST(CapiTracker, RestartsOnTellTheWorkersToRunTheRobustEngine) {
  TrackerHandle h = nullptr;
  ASSERT_EQ(
      XGTrackerCreate(
          R"({"n_workers": 2, "host": "127.0.0.1", "max_attempts": 3, "recovery_timeout": 5})", &h),
      0)
      << Error();
  const char* args = nullptr;
  ASSERT_EQ(XGTrackerWorkerArgs(h, &args), 0) << Error();
  EXPECT_NE(std::string(args).find(R"("rabit_max_attempts":3)"), std::string::npos) << args;
  EXPECT_EQ(XGTrackerFree(h), 0) << Error();
}

TEST(CapiTracker, LifeCycleErrors) {
  TrackerHandle h = nullptr;
  ASSERT_EQ(XGTrackerCreate(R"({"n_workers": 2, "host": "127.0.0.1", "token": "t"})", &h), 0);
  EXPECT_EQ(XGTrackerWaitFor(h, "{}"), -1);
  EXPECT_EQ(Error(), "XGTrackerWaitFor: the tracker is not running (call XGTrackerRun first)");
  EXPECT_EQ(XGTrackerRun(h, R"({"x": 1})"), -1);
  EXPECT_EQ(Error(), "XGTrackerRun: config: unknown key 'x'");
  ASSERT_EQ(XGTrackerRun(h, "{}"), 0) << Error();
  EXPECT_EQ(XGTrackerRun(h, nullptr), -1);
  EXPECT_NE(Error().find("already running"), std::string::npos) << Error();
  // No worker comes: a bounded wait says so, and the job keeps running.
  EXPECT_EQ(XGTrackerWaitFor(h, R"({"timeout": 0.2})"), -1);
  EXPECT_NE(Error().find("XGTrackerWaitFor: timeout: the job did not end within 0.2"),
            std::string::npos)
      << Error();
  EXPECT_EQ(XGTrackerWaitFor(h, R"({"timeout": "soon"})"), -1);
  EXPECT_NE(Error().find("timeout: expected seconds"), std::string::npos) << Error();
  // Free stops the job and joins the serving thread.
  EXPECT_EQ(XGTrackerFree(h), 0) << Error();
  EXPECT_EQ(XGTrackerFree(h), -1);
  EXPECT_EQ(Error(),
            "XGTrackerFree: handle is not a live Tracker handle (freed, or never created)");
  EXPECT_EQ(XGTrackerRun(nullptr, "{}"), -1);
  EXPECT_EQ(Error(), "XGTrackerRun: handle is null (expected a Tracker handle)");
}

TEST(CapiTracker, BootstrapTimeoutFailsTheJob) {
  TrackerHandle h = nullptr;
  ASSERT_EQ(XGTrackerCreate(R"({"n_workers": 2, "host": "127.0.0.1", "timeout": 0.3})", &h), 0);
  ASSERT_EQ(XGTrackerRun(h, nullptr), 0) << Error();
  EXPECT_EQ(XGTrackerWaitFor(h, R"({"timeout": 60})"), -1);
  EXPECT_NE(Error().find("XGTrackerWaitFor: the job failed: bootstrap timeout"), std::string::npos)
      << Error();
  EXPECT_EQ(XGTrackerFree(h), 0) << Error();
}

// A job of one worker, this process: the worker arguments are all XGCommunicatorInit needs,
// the worker's print reaches the log callback through the tracker, and WaitFor returns once
// the worker finalized.
TEST(CapiTracker, OneWorkerJobInThisProcess) {
  // At the default verbosity the callback gets the worker's print and none of the tracker's
  // info lines.
  ASSERT_EQ(XGBSetGlobalConfig(R"({"verbosity": 1})"), 0);
  ASSERT_EQ(XGBRegisterLogCallback(CollectPrint), 0);
  TrackerHandle h = nullptr;
  ASSERT_EQ(XGTrackerCreate(R"({"n_workers": 1, "host": "127.0.0.1"})", &h), 0) << Error();
  const char* args = nullptr;
  ASSERT_EQ(XGTrackerWorkerArgs(h, &args), 0) << Error();
  const std::string worker_args = args;
  ASSERT_EQ(XGTrackerRun(h, nullptr), 0) << Error();
  ASSERT_EQ(XGCommunicatorInit(worker_args.c_str()), 0) << Error();
  EXPECT_EQ(XGCommunicatorGetWorldSize(), 1);
  EXPECT_EQ(XGCommunicatorGetRank(), 0);
  double x[2] = {1.5, 2};
  EXPECT_EQ(XGCommunicatorAllreduce(x, 2, 7, 2), 0) << Error();
  EXPECT_EQ(x[0], 1.5);
  EXPECT_EQ(XGCommunicatorPrint("worker says hi"), 0) << Error();
  ASSERT_EQ(XGCommunicatorFinalize(), 0) << Error();
  EXPECT_EQ(XGTrackerWaitFor(h, R"({"timeout": 60})"), 0) << Error();
  EXPECT_EQ(XGTrackerFree(h), 0) << Error();
  ASSERT_EQ(XGBRegisterLogCallback(nullptr), 0);
  std::lock_guard lock(prints_mutex);
  ASSERT_EQ(prints.size(), 1u);
  EXPECT_EQ(prints[0], "worker says hi");
}

}  // namespace
