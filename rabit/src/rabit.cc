// The public API: one owned Engine behind free functions and DefaultComm, as Rabit users expect.
#include "rabit/rabit.h"

#include <cstring>
#include <memory>
#include <utility>

#include "engines/engine.h"
#include "engines/single/single_engine.h"
#include "slurm_rendezvous.h"

namespace rabit {

// The one engine the API fronts (the design's only process-wide state) and DefaultComm over
// it. Before Init and after Finalize it is a SingleEngine, so library code may call
// collectives unconditionally. Init and Finalize swap the engine under the same Comm, so its
// CommStats run across them.
struct detail::ProcessEngine {
  static std::unique_ptr<Engine>& Current() {
    static std::unique_ptr<Engine> engine = std::make_unique<engine::SingleEngine>();
    return engine;
  }
  static Comm& Handle() {
    static Comm comm(*Current());
    return comm;
  }
  // Returns the engine that ran until now.
  static std::unique_ptr<Engine> Swap(std::unique_ptr<Engine> next) {
    Handle().engine_ = next.get();
    return std::exchange(Current(), std::move(next));
  }
};

namespace {

using detail::ProcessEngine;

Engine& TheEngine() { return *ProcessEngine::Current(); }

void Check(const treering::Status& status, const char* op) {
  if (!status.ok()) detail::ThrowFor(status, op);
}

}  // namespace

Comm& DefaultComm() { return ProcessEngine::Handle(); }

std::unique_ptr<Comm> MakeWorldOfOne() {
  return std::make_unique<Comm>(std::make_unique<engine::SingleEngine>());
}

CommStats GetCommStats() { return DefaultComm().Stats(); }

void Init(int argc, char* argv[]) {
  std::vector<std::pair<std::string, std::string>> params;
  for (int i = 1; i < argc; ++i) {
    const char* eq = std::strchr(argv[i], '=');
    if (eq == nullptr || eq == argv[i]) continue;
    params.emplace_back(std::string(static_cast<const char*>(argv[i]), eq), std::string(eq + 1));
  }
  Init(params);
}

void Init(const std::vector<std::pair<std::string, std::string>>& params) {
  auto created = engine::CreateEngine(params);
  Check(created.status(), "Init");
  (void)ProcessEngine::Swap(std::move(created.value()));
}

void Finalize() {
  const treering::Status status = TheEngine().Shutdown();
  (void)ProcessEngine::Swap(std::make_unique<engine::SingleEngine>());
  // Task 0 of an srun step serves the tracker until every rank said Shutdown.
  const treering::Status tracker = engine::FinishSlurmRendezvous();
  Check(status, "Finalize");
  Check(tracker, "Finalize (Slurm rendezvous tracker)");
}

int GetRank() { return TheEngine().Rank(); }
int GetWorldSize() { return TheEngine().WorldSize(); }
bool IsDistributed() { return TheEngine().WorldSize() > 1; }
std::string GetProcessorName() { return TheEngine().ProcessorName(); }
void TrackerPrint(const std::string& msg) { DefaultComm().TrackerPrint(msg); }
const char* SetPhase(const char* phase) { return DefaultComm().SetPhase(phase); }
void SetRound(int round) { DefaultComm().SetRound(round); }
void ReportRound(const RoundReport& round) { DefaultComm().ReportRound(round); }

int LoadCheckPoint(Serializable* global, Serializable* local) {
  auto version = TheEngine().LoadCheckPoint(global, local);
  Check(version.status(), "LoadCheckPoint");
  return version.value();
}

void CheckPoint(const Serializable* global, const Serializable* local) {
  Check(TheEngine().CheckPoint(global, local), "CheckPoint");
}

int VersionNumber() { return TheEngine().VersionNumber(); }

}  // namespace rabit
