// EngineParams: every parameter the engines read, typed and validated in one place: the
// ParamTable in engine_params.cc (key, environment variable, default, range, meaning), which is
// also what rabit/params.h exposes and what docs/collectives.md's key table is generated from.
// Sources, later wins: the environment (DMLC_* / TREERING_* names), then key=value arguments
// (rabit_* names, or the environment names themselves, as dmlc-submit passes DMLC_NUM_ATTEMPT=k).
//
// Which argument keys are checked: rabit owns the rabit_ prefix, so an unknown rabit_* key is an
// error ("did you mean"); `mock` is a key of its own; DMLC_* / dmlc_* keys rabit does not read
// are ignored (the dmlc launchers and XGBoost4J pass DMLC_ROLE, DMLC_WORKER_STOP_PROCESS_ON_ERROR,
// ... for other components); anything else is the program's own argument.
//
// The launcher states facts, the engine decides: treering-submit sets TREERING_PINNED=1
// (rabit_pinned) when it pinned the worker to cores of its own, and pinned workers default to
// the pair exchange below the pair halving (rabit_reduce_pair_maxcount = 1G); an explicit
// rabit_reduce_pair_maxcount (argument or environment) still wins.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "base/status.h"

namespace rabit::engine {

enum class EngineChoice { kAuto, kSocket, kRobust, kMpi, kSingle };

// Fault injection (Rabit's mock engine): the worker of `rank` exits as if killed right before
// collective #seq of `version` when its attempt number (DMLC_NUM_ATTEMPT) equals `ndeath`.
struct MockPoint {
  int rank = 0;
  std::uint32_t version = 0;
  std::uint64_t seq = 0;
  std::uint32_t ndeath = 0;
};

struct EngineParams {
  EngineChoice engine = EngineChoice::kAuto;
  std::string tracker_uri;  // empty when none
  std::uint16_t tracker_port = 9091;
  std::string task_id;
  std::uint32_t num_attempt = 0;
  int world_size = -1;
  std::string job_token;
  std::string host_ip;
  double timeout_seconds = 300;
  double bootstrap_timeout_seconds = 120;
  // Both defaults measured with bench/comm/allreduce_bench.sh (docs/benchmarks.md).
  std::size_t ring_min_bytes = 1 << 20;
  std::size_t pair_min_bytes = 1 << 20;  // 2 ranks: pair exchange instead of the ring
  std::size_t pair_max_bytes = 0;        // 2 ranks: pair instead of the tree; wins only when pinned
  bool pair_max_bytes_set = false;       // given explicitly: the pinned default does not apply
  bool pinned = false;                   // the launcher pinned this worker to cores of its own
  std::size_t pair_halving_min_bytes = 256 << 10;  // 2 ranks: pair halving above pair/tree
  std::size_t halving_min_bytes = 1 << 20;         // 4 ranks: halving-doubling instead of the ring
  std::size_t socket_buffer_bytes = 0;             // kernel autotuning beat fixed 512K/4M buffers
  int spin_microseconds = 50;
  std::uint32_t max_attempts = 1;  // > 1: a launcher restarts dead workers (robust engine)
  int local_replica = 2;
  std::vector<MockPoint> mocks;
  bool mpi_environment = false;  // OMPI_COMM_WORLD_SIZE is set (launched by mpirun)
};

// The default of rabit_reduce_pair_maxcount for pinned workers (rabit_pinned / TREERING_PINNED).
inline constexpr std::size_t kPinnedPairMaxBytes = std::size_t{1} << 30;

// Reads the environment, then `args` (key, value) pairs (the rule above for unknown keys).
// kInvalidInput names the key and the bad value; Status::key() is the argument's key.
treering::Result<EngineParams> ReadEngineParams(
    const std::vector<std::pair<std::string, std::string>>& args);

}  // namespace rabit::engine
