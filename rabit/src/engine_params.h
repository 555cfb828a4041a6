// EngineParams: every parameter the engines read, typed and validated in one place. Sources,
// later wins: the environment (DMLC_* / TREERING_* names), then key=value arguments (rabit_*
// names, or the environment names themselves, as dmlc-submit passes DMLC_NUM_ATTEMPT=k).
//
// | key (argument)              | environment         | default   | meaning                       |
// | rabit_engine                |                     | auto      | socket, robust, mpi, single,  |
// |                             |                     |           | auto                          |
// | rabit_tracker_uri           | DMLC_TRACKER_URI    | (none)    | tracker host; "NULL" = none   |
// | rabit_tracker_port          | DMLC_TRACKER_PORT   | 9091      | tracker port                  |
// | rabit_task_id               | DMLC_TASK_ID        | ""        | stable task id for ranking    |
// | rabit_num_attempt           | DMLC_NUM_ATTEMPT    | 0         | restarts of this task so far  |
// | rabit_world_size            | DMLC_NUM_WORKER     | -1        | expected world size           |
// | rabit_job_token             | TREERING_JOB_TOKEN  | ""        | job token (tracker + peers)   |
// | rabit_host_ip               | TREERING_HOST_IP    | auto      | address peers should dial     |
// | rabit_timeout               |                     | 300       | s a collective may stall      |
// | rabit_bootstrap_timeout     |                     | 120       | s to reach tracker and peers  |
// | rabit_reduce_ring_mincount  |                     | 1M        | bytes from which ring is used |
// | rabit_reduce_pair_mincount  |                     | 1M        | 2 ranks: pair from this size  |
// | rabit_reduce_pair_halving_mincount |              | 256K      | 2 ranks: pair halving         |
// | rabit_reduce_halving_mincount |                   | 1M        | 4 ranks: halving-doubling     |
// | rabit_reduce_pair_maxcount  | TREERING_REDUCE_PAIR_MAXCOUNT | 0 | 2 ranks: pair up to this |
// |                             | (treering-submit sets 1G when it pins workers to cores)   |
// | rabit_socket_buffer         |                     | 0         | SO_SNDBUF/SO_RCVBUF, 0 = OS   |
// | rabit_spin_us               |                     | 50        | busy-retry before poll() (us) |
// | rabit_max_attempts          | TREERING_MAX_ATTEMPTS | 1       | attempts the launcher allows; |
// |                             |                     |           | > 1 selects the robust engine |
// | rabit_local_replica         |                     | 2         | ring successors keeping each  |
// |                             |                     |           | rank's local checkpoint       |
// | mock (repeatable)           |                     | none      | rank,version,seqno,ndeath:    |
// |                             |                     |           | die there (robust engine)     |
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
  std::size_t pair_max_bytes = 0;  // 2 ranks: pair instead of the tree; wins only when pinned
  std::size_t pair_halving_min_bytes = 256 << 10;  // 2 ranks: pair halving above pair/tree
  std::size_t halving_min_bytes = 1 << 20;  // 4 ranks: halving-doubling instead of the ring
  std::size_t socket_buffer_bytes = 0;  // kernel autotuning beat fixed 512K/4M buffers
  int spin_microseconds = 50;
  std::uint32_t max_attempts = 1;  // > 1: a launcher restarts dead workers (robust engine)
  int local_replica = 2;
  std::vector<MockPoint> mocks;
  bool mpi_environment = false;  // OMPI_COMM_WORLD_SIZE is set (launched by mpirun)
};

// Reads the environment, then `args` (key, value) pairs; unknown keys are ignored (programs pass
// their whole command line). kInvalidInput names the key and the bad value.
treering::Result<EngineParams> ReadEngineParams(
    const std::vector<std::pair<std::string, std::string>>& args);

}  // namespace rabit::engine
