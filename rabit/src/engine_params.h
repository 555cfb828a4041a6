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
// The engine decides from facts of the link, not from the launcher: the Allreduce algorithm of each
// call comes from the link model (rabit_link_latency_us, rabit_link_bandwidth_mbps) and the
// world and message sizes (collective/allreduce_cost.h), not from the launcher.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "base/status.h"
#include "collective/allreduce_cost.h"

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
  double status_interval_seconds = 1;  // rabit_status_interval: the heartbeat (docs/status.md)
  double hang_report_seconds = -1;     // rabit_hang_report, sent to the tracker; -1: not set
  // The Allreduce choice (collective/allreduce_cost.h): the link model, and the keys that
  // override it (empty: the model decides).
  double link_latency_us = 20;
  double link_bandwidth_mbps = 20000;
  std::optional<collective::AllreduceAlgorithm> allreduce;  // rabit_allreduce
  std::optional<std::size_t> ring_min_bytes;                // rabit_reduce_ring_mincount
  std::size_t socket_buffer_bytes = 0;  // kernel autotuning beat fixed 512K/4M buffers
  int spin_microseconds = 50;
  bool local_read = true;          // rabit_local_read
  std::uint32_t max_attempts = 1;  // > 1: a launcher restarts dead workers (robust engine)
  int local_replica = 2;
  bool elastic = false;       // rabit_elastic: accept a renumbered world instead of a restart
  bool elastic_join = false;  // rabit_elastic_join: joining a running elastic job
  std::vector<MockPoint> mocks;
  bool mpi_environment = false;  // OMPI_COMM_WORLD_SIZE is set (launched by mpirun)
};

// Reads the environment, then `args` (key, value) pairs (the rule above for unknown keys).
// kInvalidInput names the key and the bad value; Status::key() is the argument's key.
treering::Result<EngineParams> ReadEngineParams(
    const std::vector<std::pair<std::string, std::string>>& args);

}  // namespace rabit::engine
