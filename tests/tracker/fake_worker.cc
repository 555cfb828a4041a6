// A tiny native-protocol worker for launcher tests: reads the dmlc environment, reports what
// it saw, says Hello, waits for Assign (or Abort), optionally prints through the tracker, and
// says Shutdown.
//   fake_worker [--print MSG] [--fail-before-attempt K] [--exit-after-assign CODE] [--hang]
//               [--sleep-after-shutdown S]
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>

#include "fake_client.h"

namespace {

std::string Env(const char* name, const char* fallback = "") {
  const char* v = std::getenv(name);
  return v ? v : fallback;
}

}  // namespace

int main(int argc, char** argv) {
  std::string print, argv_attempt = "none";
  int fail_before = 0, exit_after_assign = 0, sleep_after = 0;
  bool hang = false;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--print" && i + 1 < argc)
      print = argv[++i];
    else if (a == "--fail-before-attempt" && i + 1 < argc)
      fail_before = std::atoi(argv[++i]);
    else if (a == "--exit-after-assign" && i + 1 < argc)
      exit_after_assign = std::atoi(argv[++i]);
    else if (a == "--hang")
      hang = true;
    else if (a == "--sleep-after-shutdown" && i + 1 < argc)
      sleep_after = std::atoi(argv[++i]);
    else if (a.rfind("DMLC_NUM_ATTEMPT=", 0) == 0)
      argv_attempt = a;
  }
  // mpirun does not set DMLC_TASK_ID; Open MPI's own rank is the stable id then.
  const std::string task = Env("DMLC_TASK_ID", Env("OMPI_COMM_WORLD_RANK", "").c_str());
  const int attempt = std::atoi(Env("DMLC_NUM_ATTEMPT", "0").c_str());
  std::printf("task=%s attempt=%d argv=%s\n", task.c_str(), attempt, argv_attempt.c_str());
  std::fprintf(stderr, "stderr of task %s\n", task.c_str());
  std::fflush(stdout);
  if (attempt < fail_before) return 3;

  treering::testing::FakeClient c;
  const auto port = static_cast<std::uint16_t>(std::atoi(Env("DMLC_TRACKER_PORT").c_str()));
  if (!c.Connect(Env("DMLC_TRACKER_URI"), port).ok()) return 10;
  if (!c.SendHello(Env("TREERING_JOB_TOKEN"), task, "127.0.0.1", 1).ok()) return 11;
  auto assign = c.ReadAssign(60);
  if (!assign.ok()) {
    std::printf("no assign: %s\n", assign.status().message().c_str());
    return 12;
  }
  std::printf("rank=%d world=%d\n", assign->rank, assign->world_size);
  std::fflush(stdout);
  if (exit_after_assign != 0) return exit_after_assign;
  if (hang) {
    auto f = c.ReadFrame(120);  // the Abort, or the tracker closing
    std::printf("hang ended: %s\n", f.ok() ? treering::proto::KindName(f->header.kind).c_str()
                                           : f.status().message().c_str());
    return 13;
  }
  if (!print.empty() && !c.SendRaw(treering::proto::Encode(treering::proto::Print{print})).ok()) {
    return 14;
  }
  if (!c.SendRaw(treering::proto::Encode(treering::proto::Shutdown{})).ok()) return 15;
  c.WaitClosed(10);
  std::this_thread::sleep_for(std::chrono::seconds(sleep_after));
  return 0;
}
