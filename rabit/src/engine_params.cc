#include "engine_params.h"

#include <algorithm>
#include <cstdlib>

#include "base/nearest_key.h"
#include "base/param_table.h"
#include "rabit/params.h"

namespace rabit::engine {
namespace {

using treering::ParamField;
using treering::ParamTable;
using treering::Status;
using Field = ParamField<EngineParams>;
using P = EngineParams;

// Rabit's wording of a bad value: "rabit_timeout: expected seconds > 0, got 'soon'".
std::string RabitWording(const std::string& key, const std::string& value,
                         const std::string& allowed) {
  return key + ": expected " + allowed + ", got '" + value + "'";
}

// Integer with an optional binary suffix K, M or G (Rabit's rabit_reduce_buffer style).
treering::Result<std::uint64_t> ParseSize(const std::string& value) {
  std::size_t used = 0;
  unsigned long long n = 0;
  try {
    n = std::stoull(value, &used);
  } catch (const std::exception&) {
    return Status::InvalidInput("a byte count such as 262144 or 256K");
  }
  const std::string suffix = value.substr(used);
  if (suffix == "K" || suffix == "k")
    n <<= 10;
  else if (suffix == "M" || suffix == "m")
    n <<= 20;
  else if (suffix == "G" || suffix == "g")
    n <<= 30;
  else if (!suffix.empty() && suffix != "B")
    return Status::InvalidInput("a byte count");
  if (value[0] == '-') return Status::InvalidInput("a non-negative byte count");
  return static_cast<std::uint64_t>(n);
}

// 1048576 -> "1M", 262144 -> "256K", 9091 -> "9091": how the defaults are written.
std::string SizeText(long long n) {
  const char* suffixes[] = {"G", "M", "K"};
  for (int i = 0; i < 3; ++i) {
    const long long unit = 1LL << (10 * (3 - i));
    if (n > 0 && n % unit == 0) return std::to_string(n / unit) + suffixes[i];
  }
  return std::to_string(n);
}

// What a size key accepts beyond the syntax: values above `clamp` become `clamp`, values
// outside [lo, hi] are rejected as `range`.
struct SizeRule {
  std::uint64_t lo = 0;
  std::uint64_t hi = UINT64_MAX;
  std::uint64_t clamp = UINT64_MAX;
  const char* range = "";
};

template <typename T>
Field SizeField(std::string key, T P::*member, SizeRule rule, const std::string& meaning) {
  return {std::move(key), "", SizeText(static_cast<long long>(P{}.*member)), meaning,
          [member, rule](P* p, const std::string& v) -> Status {
            auto n = ParseSize(v);
            if (!n.ok()) return n.status();
            if (n.value() < rule.lo || n.value() > rule.hi) return Status::InvalidInput(rule.range);
            p->*member = static_cast<T>(std::min(n.value(), rule.clamp));
            return Status::Ok();
          }};
}

Field SecondsField(std::string key, double P::*member, const std::string& meaning) {
  return {std::move(key), "", treering::FormatNumber(P{}.*member), meaning,
          [member](P* p, const std::string& v) -> Status {
            try {
              std::size_t used = 0;
              const double s = std::stod(v, &used);
              if (used == v.size() && s > 0) {
                p->*member = s;
                return Status::Ok();
              }
            } catch (const std::exception&) {
            }
            return Status::InvalidInput("seconds > 0");
          }};
}

// A positive number (a link model key): `what` names the unit in errors.
Field PositiveField(std::string key, double P::*member, std::string what,
                    const std::string& meaning) {
  return {std::move(key), "", treering::FormatNumber(P{}.*member), meaning,
          [member, what](P* p, const std::string& v) -> Status {
            char* end = nullptr;
            const double x = std::strtod(v.c_str(), &end);
            if (v.empty() || end != v.c_str() + v.size() || !(x > 0) || x > 1e12) {
              return Status::InvalidInput(what);
            }
            p->*member = x;
            return Status::Ok();
          }};
}

Field AllreduceField() {
  using collective::AllreduceAlgorithm;
  return {"rabit_allreduce", "", "auto",
          "`auto` (the cost model picks per call, see \"Choosing the Allreduce algorithm\"), or "
          "one of `tree`, `ring`, `doubling` (recursive doubling), `halving` "
          "(halving-doubling) for every call",
          [](P* p, const std::string& v) -> Status {
            if (v == "auto") {
              p->allreduce.reset();
              return Status::Ok();
            }
            for (AllreduceAlgorithm a :
                 {AllreduceAlgorithm::kTree, AllreduceAlgorithm::kRing,
                  AllreduceAlgorithm::kRecursiveDoubling, AllreduceAlgorithm::kHalvingDoubling}) {
              if (v == collective::AllreduceAlgorithmName(a)) {
                p->allreduce = a;
                return Status::Ok();
              }
            }
            return Status::InvalidInput("auto, tree, ring, doubling or halving");
          }};
}

Field RingMinField() {
  return {"rabit_reduce_ring_mincount", "", "auto",
          "**bytes** (not elements, unlike Rabit) from which Allreduce always uses the ring, "
          "and below which never; `auto` = the cost model decides; `0` = always ring",
          [](P* p, const std::string& v) -> Status {
            if (v == "auto") {
              p->ring_min_bytes.reset();
              return Status::Ok();
            }
            auto n = ParseSize(v);
            if (!n.ok()) return Status::InvalidInput("auto or a byte count such as 1M");
            p->ring_min_bytes = static_cast<std::size_t>(n.value());
            return Status::Ok();
          }};
}

// Free text where the word `none` (NULL, auto) means the empty default.
Field TextField(std::string key, std::string P::*member, std::string none,
                const std::string& meaning) {
  return {std::move(key), "", none, meaning, [member, none](P* p, const std::string& v) {
            p->*member = v == none ? "" : v;
            return Status::Ok();
          }};
}

Field EngineField() {
  static const std::vector<std::pair<std::string, EngineChoice>> kNames = {
      {"socket", EngineChoice::kSocket},
      {"robust", EngineChoice::kRobust},
      {"mpi", EngineChoice::kMpi},
      {"single", EngineChoice::kSingle},
      {"auto", EngineChoice::kAuto}};
  return {"rabit_engine", "", "auto",
          "`socket`, `robust`, `mpi`, `single` or `auto` (chosen as in \"Which engine runs\")",
          [](P* p, const std::string& v) {
            for (const auto& [name, choice] : kNames) {
              if (v == name) {
                p->engine = choice;
                return Status::Ok();
              }
            }
            return Status::InvalidInput("socket, robust, mpi, single or auto");
          }};
}

// mock=rank,version,seqno,ndeath (four non-negative integers), repeatable.
Status AddMock(P* p, const std::string& value) {
  std::uint64_t part[4] = {0, 0, 0, 0};
  std::size_t start = 0;
  for (int i = 0; i < 4; ++i) {
    const std::size_t comma = value.find(',', start);
    const bool last = i == 3;
    if (last != (comma == std::string::npos)) {
      return Status::InvalidInput("rank,version,seqno,ndeath (four integers)");
    }
    const std::string field = value.substr(start, last ? std::string::npos : comma - start);
    if (field.empty() || field.find_first_not_of("0123456789") != std::string::npos ||
        field.size() > 9) {
      return Status::InvalidInput("rank,version,seqno,ndeath (four non-negative integers)");
    }
    part[i] = std::stoull(field);
    start = comma + 1;
  }
  p->mocks.push_back(MockPoint{static_cast<int>(part[0]), static_cast<std::uint32_t>(part[1]),
                               part[2], static_cast<std::uint32_t>(part[3])});
  return Status::Ok();
}

const ParamTable<P>& Table() {
  static const ParamTable<P> kTable(
      {
          EngineField(),
          TextField("rabit_tracker_uri", &P::tracker_uri, "NULL", "tracker host; `NULL` = none"),
          SizeField("rabit_tracker_port", &P::tracker_port,
                    {1, 65535, UINT64_MAX, "a port 1..65535"}, "tracker port"),
          TextField("rabit_task_id", &P::task_id, "NULL",
                    "stable task id (the tracker ranks by it); `NULL` = none"),
          SizeField("rabit_num_attempt", &P::num_attempt, {},
                    "restarts of this task so far (sent in Hello)")
              .Alias("rabit_num_trial"),
          {"rabit_world_size", "", "-1", "expected world size (checked by the tracker)",
           [](P* p, const std::string& v) -> Status {
             auto n = ParseSize(v);
             if (n.ok()) p->world_size = static_cast<int>(n.value());
             return n.status();
           }},
          TextField("rabit_job_token", &P::job_token, "",
                    "job token, checked by the tracker and by every peer"),
          TextField("rabit_host_ip", &P::host_ip, "auto",
                    "address peers dial; auto = local address of our tracker connection (the "
                    "interface that reaches the tracker)"),
          SecondsField("rabit_timeout", &P::timeout_seconds,
                       "seconds a collective may wait on a peer without a byte moving"),
          SecondsField("rabit_bootstrap_timeout", &P::bootstrap_timeout_seconds,
                       "seconds to reach the tracker, get a rank and link all peers"),
          {"rabit_status_interval", "", "1",
           "seconds between two progress reports to the tracker's status page and hang watch; "
           "0: no reports at all (docs/status.md)",
           [](P* p, const std::string& v) -> Status {
             try {
               std::size_t used = 0;
               const double s = std::stod(v, &used);
               if (used == v.size() && s >= 0) {
                 p->status_interval_seconds = s;
                 return Status::Ok();
               }
             } catch (const std::exception&) {
             }
             return Status::InvalidInput("seconds >= 0");
           }},
          {"rabit_hang_report", "", "",
           "seconds a collective may wait for some ranks (or on a silent link) before the "
           "tracker prints a hang line naming them; 0: no lines. Sent with this rank's reports; "
           "set, it overrides the tracker's `--hang-report` (default 30; docs/status.md)",
           [](P* p, const std::string& v) -> Status {
             try {
               std::size_t used = 0;
               const double s = std::stod(v, &used);
               if (used == v.size() && s >= 0 && s < 1e9) {
                 p->hang_report_seconds = s;
                 return Status::Ok();
               }
             } catch (const std::exception&) {
             }
             return Status::InvalidInput("seconds >= 0");
           }},
          AllreduceField(),
          PositiveField("rabit_link_latency_us", &P::link_latency_us, "microseconds > 0",
                        "the link model's latency (alpha), µs per message between two ranks; "
                        "with the bandwidth it picks each Allreduce's algorithm (see \"Choosing "
                        "the Allreduce algorithm\"). Default: loopback on the project VM; about "
                        "50 on a 1 Gbit/s LAN"),
          PositiveField("rabit_link_bandwidth_mbps", &P::link_bandwidth_mbps, "Mbit/s > 0",
                        "the link model's bandwidth (1/beta), Mbit/s between two ranks. Default: "
                        "loopback on the project VM; `1000` for 1 Gbit/s links"),
          RingMinField(),
          SizeField("rabit_socket_buffer", &P::socket_buffer_bytes, {.clamp = 1u << 30},
                    "SO_SNDBUF/SO_RCVBUF of peer links (at most 1G); 0 = kernel autotuning "
                    "(measured best)"),
          SizeField("rabit_spin_us", &P::spin_microseconds, {.clamp = 1000000},
                    "µs to keep retrying non-blocking I/O (with `sched_yield`) before sleeping "
                    "in `poll` (at most 1000000)"),
          treering::BoolField(
              "rabit_local_read", &P::local_read,
              "workers on one machine copy large data straight between their "
              "processes (one copy, where the socket makes two): a pair "
              "reduce-scatters and allreduces (from 128 KiB) by reading each "
              "other's buffer (`process_vm_readv`) and messages of 1 to 8 MiB are written into "
              "the granted receive buffer (`process_vm_writev`), once a probe "
              "shows the kernel allows it; `false` keeps the socket"),
          SizeField("rabit_max_attempts", &P::max_attempts,
                    {1, 1000000, UINT64_MAX, "attempts >= 1"},
                    "attempts the launcher allows; > 1 picks the robust engine "
                    "([fault-tolerance.md](fault-tolerance.md))"),
          treering::BoolField(
              "rabit_elastic", &P::elastic,
              "elastic job: when the tracker drops a lost worker (`treering-submit --elastic`), "
              "accept the new rank and world and restart the program's rounds from the last "
              "checkpoint instead of failing; picks the robust engine "
              "([fault-tolerance.md](fault-tolerance.md), \"Elastic jobs\")"),
          treering::BoolField("rabit_elastic_join", &P::elastic_join,
                              "set by `treering-submit --join`: this worker joins a running "
                              "elastic job at its next round boundary and starts from its "
                              "checkpoint"),
          SizeField("rabit_local_replica", &P::local_replica,
                    {0, 1024, UINT64_MAX, "a replica count 0..1024"},
                    "robust engine: ring successors that keep a copy of each rank's *local* "
                    "checkpoint"),
          {"mock", "", "none",
           "robust engine fault injection, `rank,version,seqno,ndeath`, repeatable: the worker "
           "of `rank` exits with `_exit(254)` right before collective `seqno` of checkpoint "
           "version `version` when its `DMLC_NUM_ATTEMPT` equals `ndeath` "
           "([fault-tolerance.md](fault-tolerance.md))",
           AddMock},
      },
      RabitWording);
  return kTable;
}

// An environment variable's name used as an argument key -> the key; other keys unchanged.
std::string Canonical(const std::string& key) {
  for (const auto& [env, canonical] : EnvironmentNames()) {
    if (env == key) return canonical;
  }
  return key;
}

Status ApplyArgument(const std::string& key, const std::string& value, EngineParams* p) {
  const std::string canonical = Canonical(key);
  if (Table().Find(canonical) != nullptr) return Table().Set(p, canonical, value).WithKey(key);
  if (key.rfind("rabit_", 0) == 0) {
    return Status::InvalidKey(
        key, "unknown key '" + key + "'" + treering::DidYouMean(key, Table().Keys()));
  }
  return Status::Ok();  // DMLC_* / dmlc_* of another component, or the program's own argument
}

}  // namespace

treering::Result<EngineParams> ReadEngineParams(
    const std::vector<std::pair<std::string, std::string>>& args) {
  EngineParams p;
  for (const auto& [env, key] : EnvironmentNames()) {
    const char* value = std::getenv(env.c_str());
    if (value == nullptr) continue;
    Status s = Table().Set(&p, key, value);
    if (!s.ok()) return s.WithContext("environment variable " + env);
  }
  p.mpi_environment = std::getenv("OMPI_COMM_WORLD_SIZE") != nullptr;
  for (const auto& [key, value] : args) {
    Status s = ApplyArgument(key, value, &p);
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

namespace rabit {

const std::vector<treering::ParamDoc>& ParamDocs() {
  static const std::vector<treering::ParamDoc> kDocs = engine::Table().Docs();
  return kDocs;
}

const std::vector<std::pair<std::string, std::string>>& EnvironmentNames() {
  static const std::vector<std::pair<std::string, std::string>> kNames = {
      {"DMLC_TRACKER_URI", "rabit_tracker_uri"},
      {"DMLC_TRACKER_PORT", "rabit_tracker_port"},
      {"DMLC_TASK_ID", "rabit_task_id"},
      {"DMLC_NUM_ATTEMPT", "rabit_num_attempt"},
      {"DMLC_NUM_WORKER", "rabit_world_size"},
      {"TREERING_JOB_TOKEN", "rabit_job_token"},
      {"TREERING_HOST_IP", "rabit_host_ip"},
      {"TREERING_MAX_ATTEMPTS", "rabit_max_attempts"},
      {"TREERING_ELASTIC", "rabit_elastic"},
      {"TREERING_ELASTIC_JOIN", "rabit_elastic_join"},
      // As XGBoost's rabit reads its rabit_* keys from the environment too.
      {"rabit_hang_report", "rabit_hang_report"},
  };
  return kNames;
}

bool IsParamKey(const std::string& key) {
  return key.rfind("rabit_", 0) == 0 || key.rfind("DMLC_", 0) == 0 || key.rfind("dmlc_", 0) == 0 ||
         key == "mock";
}

treering::Status CheckParam(const std::string& key, const std::string& value) {
  engine::EngineParams scratch;
  return engine::ApplyArgument(key, value, &scratch);
}

}  // namespace rabit
