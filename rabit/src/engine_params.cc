#include "engine_params.h"

#include <cstdlib>
#include <map>

namespace rabit::engine {
namespace {

using treering::Status;

// Environment variable -> canonical key.
const std::map<std::string, std::string>& EnvironmentNames() {
  static const std::map<std::string, std::string> names = {
      {"DMLC_TRACKER_URI", "rabit_tracker_uri"}, {"DMLC_TRACKER_PORT", "rabit_tracker_port"},
      {"DMLC_TASK_ID", "rabit_task_id"},         {"DMLC_NUM_ATTEMPT", "rabit_num_attempt"},
      {"DMLC_NUM_WORKER", "rabit_world_size"},   {"TREERING_JOB_TOKEN", "rabit_job_token"},
      {"TREERING_HOST_IP", "rabit_host_ip"},     {"TREERING_MAX_ATTEMPTS", "rabit_max_attempts"},
      {"TREERING_REDUCE_PAIR_MAXCOUNT", "rabit_reduce_pair_maxcount"},
  };
  return names;
}

Status BadValue(const std::string& key, const std::string& value, const std::string& want) {
  return Status::InvalidInput(key + ": expected " + want + ", got '" + value + "'");
}

// Integer with an optional binary suffix K, M or G (Rabit's rabit_reduce_buffer style).
treering::Result<std::uint64_t> ParseSize(const std::string& key, const std::string& value) {
  std::size_t used = 0;
  unsigned long long n = 0;
  try {
    n = std::stoull(value, &used);
  } catch (const std::exception&) {
    return BadValue(key, value, "a byte count such as 262144 or 256K");
  }
  const std::string suffix = value.substr(used);
  if (suffix == "K" || suffix == "k") n <<= 10;
  else if (suffix == "M" || suffix == "m") n <<= 20;
  else if (suffix == "G" || suffix == "g") n <<= 30;
  else if (!suffix.empty() && suffix != "B") return BadValue(key, value, "a byte count");
  if (value[0] == '-') return BadValue(key, value, "a non-negative byte count");
  return static_cast<std::uint64_t>(n);
}

treering::Result<double> ParseSeconds(const std::string& key, const std::string& value) {
  try {
    std::size_t used = 0;
    const double s = std::stod(value, &used);
    if (used == value.size() && s > 0) return s;
  } catch (const std::exception&) {
  }
  return BadValue(key, value, "seconds > 0");
}

treering::Result<EngineChoice> ParseEngine(const std::string& value) {
  if (value == "socket") return EngineChoice::kSocket;
  if (value == "robust") return EngineChoice::kRobust;
  if (value == "mpi") return EngineChoice::kMpi;
  if (value == "single") return EngineChoice::kSingle;
  if (value == "auto") return EngineChoice::kAuto;
  return BadValue("rabit_engine", value, "socket, robust, mpi, single or auto");
}

Status ApplyNumber(const std::string& key, const std::string& value, EngineParams* p) {
  auto n = ParseSize(key, value);
  if (!n.ok()) return n.status();
  if (key == "rabit_tracker_port") {
    if (n.value() == 0 || n.value() > 65535) return BadValue(key, value, "a port 1..65535");
    p->tracker_port = static_cast<std::uint16_t>(n.value());
  } else if (key == "rabit_num_attempt") {
    p->num_attempt = static_cast<std::uint32_t>(n.value());
  } else if (key == "rabit_world_size") {
    p->world_size = static_cast<int>(n.value());
  } else if (key == "rabit_reduce_ring_mincount") {
    p->ring_min_bytes = n.value();
  } else if (key == "rabit_reduce_pair_maxcount") {
    p->pair_max_bytes = n.value();
  } else if (key == "rabit_reduce_pair_mincount") {
    p->pair_min_bytes = n.value();
  } else if (key == "rabit_reduce_halving_mincount") {
    p->halving_min_bytes = n.value();
  } else if (key == "rabit_reduce_pair_halving_mincount") {
    p->pair_halving_min_bytes = n.value();
  } else if (key == "rabit_spin_us") {
    p->spin_microseconds = static_cast<int>(std::min<std::uint64_t>(n.value(), 1000000));
  } else {
    p->socket_buffer_bytes = std::min<std::uint64_t>(n.value(), 1u << 30);
  }
  return Status::Ok();
}

// mock=rank,version,seqno,ndeath (four non-negative integers).
Status ApplyMock(const std::string& value, EngineParams* p) {
  std::uint64_t part[4] = {0, 0, 0, 0};
  std::size_t start = 0;
  for (int i = 0; i < 4; ++i) {
    const std::size_t comma = value.find(',', start);
    const bool last = i == 3;
    if (last != (comma == std::string::npos)) {
      return BadValue("mock", value, "rank,version,seqno,ndeath (four integers)");
    }
    const std::string field = value.substr(start, last ? std::string::npos : comma - start);
    if (field.empty() || field.find_first_not_of("0123456789") != std::string::npos ||
        field.size() > 9) {
      return BadValue("mock", value, "rank,version,seqno,ndeath (four non-negative integers)");
    }
    part[i] = std::stoull(field);
    start = comma + 1;
  }
  p->mocks.push_back(MockPoint{static_cast<int>(part[0]), static_cast<std::uint32_t>(part[1]),
                               part[2], static_cast<std::uint32_t>(part[3])});
  return Status::Ok();
}

Status Apply(const std::string& key, const std::string& value, EngineParams* p) {
  if (key == "mock") return ApplyMock(value, p);
  if (key == "rabit_max_attempts") {
    auto n = ParseSize(key, value);
    if (!n.ok()) return n.status();
    if (n.value() == 0 || n.value() > 1000000) return BadValue(key, value, "attempts >= 1");
    p->max_attempts = static_cast<std::uint32_t>(n.value());
    return Status::Ok();
  }
  if (key == "rabit_local_replica") {
    auto n = ParseSize(key, value);
    if (!n.ok()) return n.status();
    if (n.value() > 1024) return BadValue(key, value, "a replica count 0..1024");
    p->local_replica = static_cast<int>(n.value());
    return Status::Ok();
  }
  if (key == "rabit_engine") {
    auto e = ParseEngine(value);
    if (!e.ok()) return e.status();
    p->engine = e.value();
  } else if (key == "rabit_tracker_uri") {
    p->tracker_uri = value == "NULL" ? "" : value;
  } else if (key == "rabit_task_id") {
    p->task_id = value == "NULL" ? "" : value;
  } else if (key == "rabit_job_token") {
    p->job_token = value;
  } else if (key == "rabit_host_ip") {
    p->host_ip = value == "auto" ? "" : value;
  } else if (key == "rabit_timeout" || key == "rabit_bootstrap_timeout") {
    auto s = ParseSeconds(key, value);
    if (!s.ok()) return s.status();
    (key == "rabit_timeout" ? p->timeout_seconds : p->bootstrap_timeout_seconds) = s.value();
  } else if (key == "rabit_tracker_port" || key == "rabit_num_attempt" ||
             key == "rabit_world_size" || key == "rabit_reduce_ring_mincount" ||
             key == "rabit_reduce_pair_maxcount" || key == "rabit_reduce_pair_mincount" ||
             key == "rabit_reduce_halving_mincount" ||
             key == "rabit_reduce_pair_halving_mincount" ||
             key == "rabit_socket_buffer" ||
             key == "rabit_spin_us") {
    return ApplyNumber(key, value, p);
  }
  return Status::Ok();  // not an engine key: the program's own argument
}

std::string Canonical(const std::string& key) {
  const auto& names = EnvironmentNames();
  const auto it = names.find(key);
  if (it != names.end()) return it->second;
  if (key == "rabit_num_trial") return "rabit_num_attempt";
  return key;
}

}  // namespace

treering::Result<EngineParams> ReadEngineParams(
    const std::vector<std::pair<std::string, std::string>>& args) {
  EngineParams p;
  for (const auto& [env, key] : EnvironmentNames()) {
    const char* value = std::getenv(env.c_str());
    if (value == nullptr) continue;
    Status s = Apply(key, value, &p);
    if (!s.ok()) return s.WithContext("environment variable " + env);
  }
  p.mpi_environment = std::getenv("OMPI_COMM_WORLD_SIZE") != nullptr;
  for (const auto& [key, value] : args) {
    Status s = Apply(Canonical(key), value, &p);
    if (!s.ok()) return s;
  }
  // mpirun sets no DMLC_TASK_ID; Open MPI's world rank is stable for the process's life, so
  // ranks follow it (and each rank reads the data part of its MPI rank) instead of arrival order.
  if (const char* mpi_rank = std::getenv("OMPI_COMM_WORLD_RANK"); p.task_id.empty() && mpi_rank) {
    p.task_id = mpi_rank;
  }
  return p;
}

}  // namespace rabit::engine
