// In-process fault-tolerance harness: N ranks as threads, each running a RobustEngine over
// loopback links, with RelinkHub standing in for the tracker's recovery epochs. A rank "dies"
// at a mock point by throwing Killed out of the engine: its thread drops the engine (closing
// every socket, as a killed process would) and starts the same job again as attempt + 1.
#pragma once

#include <condition_variable>
#include <map>
#include <mutex>
#include <set>
#include <string>
#include <vector>

#include "bootstrap/loopback_links.h"
#include "engines/robust/robust_engine.h"

namespace rabit::testing {

using engine::RobustEngine;
using engine::RobustOptions;
using transport::LinkSet;
using treering::Status;

// Every caller blocks until all `world` ranks have asked in this epoch, then gets its links of
// a freshly built loopback world. An epoch that does not fill within `timeout_s` fails (as the
// tracker's recovery timeout does) naming the missing ranks.
class RelinkHub {
 public:
  RelinkHub(int world, double timeout_s) : world_(world), timeout_s_(timeout_s) {}
  treering::Result<LinkSet> Join(int rank);
  int epochs() const { return generation_; }

 private:
  std::mutex mu_;
  std::condition_variable cv_;
  int world_;
  double timeout_s_;
  int generation_ = 0;
  std::set<int> waiting_;
  std::map<int, std::vector<LinkSet>> built_;  // by generation
  std::map<int, Status> failed_;               // by generation
};

struct Killed {};

// The job every rank runs (tests/rabit/robust_engine_test.cc): setup collectives, then
// `versions` rounds of Allreduce / Broadcast / Allgather with CheckPoint(global, local).
struct JobResult {
  Status status;
  std::vector<std::uint64_t> model;  // the global state at the end
  int attempts = 1;
  int loaded_version = 0;              // what the last attempt's LoadCheckPoint returned
  std::vector<int> prepared_versions;  // versions whose Allreduce prepare ran (last attempt)
  std::string local_loaded;            // local state the last attempt got back
};

struct JobSpec {
  int world = 4;
  int versions = 3;
  int local_replica = 2;
  std::vector<engine::MockPoint> mocks;
  double hub_timeout_s = 60;
};

// Runs the job on every rank (restarting killed ranks) and returns each rank's outcome.
std::vector<JobResult> RunRobustJob(const JobSpec& spec);

}  // namespace rabit::testing
