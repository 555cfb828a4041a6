#include "snapshot_resume.h"

#include <signal.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>

#include "model_output.h"
#include "rabit/rabit.h"

namespace treering::cli {
namespace {

std::atomic<bool> g_snapshot_requested{false};
void OnUsr1(int) { g_snapshot_requested.store(true); }

// Rank 0: the snapshot with the most rounds below the plan's end, and its bytes.
int FindLastSnapshot(const CliOptions& o, int rounds_planned, const std::string& suffix,
                     std::string* bytes) {
  for (int n = rounds_planned - 1; n > 0; --n) {
    std::ifstream in(SnapshotPath(o.model_dir, n, suffix), std::ios::binary);
    if (!in) continue;
    std::ostringstream text;
    text << in.rdbuf();
    *bytes = text.str();
    return n;
  }
  return 0;
}

}  // namespace

bool ResumeWanted() {
  const char* restarts = std::getenv("SLURM_RESTART_COUNT");
  const char* forced = std::getenv("TREERING_RESUME");
  return (restarts != nullptr && std::atoi(restarts) > 0) ||
         (forced != nullptr && std::string(forced) == "1");
}

Result<int> ResumeFromSnapshot(const CliOptions& o, int rounds_planned, booster::Learner* learner) {
  struct sigaction sa {};
  sa.sa_handler = OnUsr1;
  sa.sa_flags = SA_RESTART;
  ::sigaction(SIGUSR1, &sa, nullptr);
  // Only a job that trains from round 0 (no model_in) resumes: its snapshots are its own.
  if (!ResumeWanted() || !o.model_in.empty()) return 0;
  std::string bytes;
  int rounds = 0;
  if (rabit::GetRank() == 0) {
    rounds = FindLastSnapshot(o, rounds_planned, learner->Traits().model_suffix, &bytes);
  }
  rabit::Broadcast(&rounds, sizeof(rounds), 0);
  if (rounds == 0) return 0;
  rabit::Broadcast(&bytes, 0);
  const std::string path = SnapshotPath(o.model_dir, rounds, learner->Traits().model_suffix);
  if (Status st = learner->LoadModelBytes(bytes, path); !st.ok()) return st;
  if (rabit::GetRank() == 0) {
    std::fprintf(stderr, "treering: requeued job: resuming from %s (%d of %d rounds done)\n",
                 path.c_str(), rounds, rounds_planned);
  }
  return rounds;
}

bool TakeSnapshotRequest() { return g_snapshot_requested.exchange(false); }

}  // namespace treering::cli
