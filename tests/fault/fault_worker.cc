// fault_worker: the job the fault harness (run_trials.py) kills. Versioned rounds of collectives
// with a CheckPoint after each, so a robust engine can replay a lost rank from its last
// checkpoint; at the end every rank prints a digest of its final state, which must equal the
// failure-free run's byte for byte.
//   fault_worker [fault_rounds=R] [fault_len=L] [fault_sleep_ms=S] [rabit_*=...] [mock=...]
// Per round v: Allreduce<Sum> of L int64 values that depend on (rank, v); Allreduce<Max> of one
// value; Broadcast of a string from root v % world; the results are mixed into the state.
// Integers only, so the result is exact whatever the reduction order.
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include "rabit/rabit.h"

namespace {

struct Model : rabit::Serializable {
  std::vector<std::uint64_t> state;
  void Save(std::string* out) const override {
    out->assign(reinterpret_cast<const char*>(state.data()), state.size() * sizeof(std::uint64_t));
  }
  void Load(const std::string& in) override {
    state.resize(in.size() / sizeof(std::uint64_t));
    std::memcpy(state.data(), in.data(), state.size() * sizeof(std::uint64_t));
  }
};

std::uint64_t Fnv1a(const std::string& bytes) {
  std::uint64_t h = 1469598103934665603ull;
  for (unsigned char c : bytes) h = (h ^ c) * 1099511628211ull;
  return h;
}

std::uint64_t Mix(std::uint64_t x) {  // splitmix64's finaliser: a cheap, well-spread hash
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

long Arg(int argc, char** argv, const std::string& key, long fallback) {
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a.rfind(key + "=", 0) == 0) return std::stol(a.substr(key.size() + 1));
  }
  return fallback;
}

void Round(Model& model, int version) {
  const int rank = rabit::GetRank(), world = rabit::GetWorldSize();
  std::vector<std::int64_t> values(model.state.size());
  rabit::Allreduce<rabit::op::Sum>(values.data(), values.size(), [&] {
    for (std::size_t i = 0; i < values.size(); ++i) {
      values[i] = static_cast<std::int64_t>(Mix(rank * 1000003ull + version * 7919ull + i) >> 20);
    }
  });
  std::int64_t peak = static_cast<std::int64_t>(Mix(rank + 31ull * version) >> 8);
  rabit::Allreduce<rabit::op::Max>(&peak, 1);
  const int root = version % world;
  std::string message;
  if (rank == root)
    message = "round " + std::to_string(version) + " from rank " + std::to_string(root);
  rabit::Broadcast(&message, root);
  const std::uint64_t salt = Fnv1a(message) ^ static_cast<std::uint64_t>(peak);
  for (std::size_t i = 0; i < model.state.size(); ++i) {
    model.state[i] = Mix(model.state[i] ^ static_cast<std::uint64_t>(values[i]) ^ salt);
  }
}

}  // namespace

int main(int argc, char** argv) {
  rabit::Init(argc, argv);
  const int rounds = static_cast<int>(Arg(argc, argv, "fault_rounds", 20));
  const long sleep_ms = Arg(argc, argv, "fault_sleep_ms", 0);
  Model model;
  model.state.assign(static_cast<std::size_t>(Arg(argc, argv, "fault_len", 1000)), 0);
  const int start = rabit::LoadCheckPoint(&model);
  if (start > 0) {
    std::printf("fault_worker rank %d resumes at version %d\n", rabit::GetRank(), start);
    std::fflush(stdout);
  }
  for (int version = rabit::VersionNumber(); version < rounds; ++version) {
    Round(model, version);
    if (sleep_ms > 0) std::this_thread::sleep_for(std::chrono::milliseconds(sleep_ms));
    rabit::CheckPoint(&model);
    // The progress line the harness places its faults by (like boosting's "[i]\t..." lines).
    if (rabit::GetRank() == 0) rabit::TrackerPrint("[" + std::to_string(version) + "]\tround done");
  }
  std::string bytes;
  model.Save(&bytes);
  char digest[32];
  std::snprintf(digest, sizeof(digest), "%016llx", static_cast<unsigned long long>(Fnv1a(bytes)));
  std::printf("fault_worker rank %d digest=%s version=%d\n", rabit::GetRank(), digest,
              rabit::VersionNumber());
  std::fflush(stdout);
  if (rabit::GetRank() == 0) rabit::TrackerPrint(std::string("digest=") + digest);
  rabit::Finalize();
  return 0;
}
