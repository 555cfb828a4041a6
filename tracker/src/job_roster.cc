#include "job_roster.h"

#include <algorithm>
#include <charconv>

namespace treering::tracker {
namespace {

bool IsInteger(const std::string& s, long long* value) {
  const char* end = s.data() + s.size();
  auto [ptr, ec] = std::from_chars(s.data(), end, *value);
  return !s.empty() && ec == std::errc() && ptr == end;
}

// Numeric order when every task id is an integer ("2" < "10"), lexical otherwise, arrival
// order (stable) when any worker came without a task id.
void SortByTaskId(std::vector<Arrival>& batch) {
  bool all_named = true, all_integers = true;
  for (const Arrival& a : batch) {
    long long v = 0;
    all_named = all_named && !a.task_id.empty();
    all_integers = all_integers && IsInteger(a.task_id, &v);
  }
  if (!all_named) return;
  std::stable_sort(batch.begin(), batch.end(), [&](const Arrival& x, const Arrival& y) {
    if (!all_integers) return x.task_id < y.task_id;
    long long a = 0, b = 0;
    IsInteger(x.task_id, &a);
    IsInteger(y.task_id, &b);
    return a < b;
  });
}

const char* DialectName(Dialect d) { return d == Dialect::kNative ? "native" : "legacy"; }

}  // namespace

JobRoster::JobRoster(int num_workers) : num_workers_(num_workers), shut_down_(num_workers, false) {}

Result<std::vector<Placement>> JobRoster::Join(const Arrival& arrival) {
  if (assigned_) {
    return Status::InvalidInput("the job already has its " + std::to_string(num_workers_) +
                                " workers");
  }
  for (const Arrival& p : pending_) {
    if (!arrival.task_id.empty() && p.task_id == arrival.task_id) {
      return Status::InvalidInput("duplicate task id '" + arrival.task_id + "'");
    }
    if (p.dialect != arrival.dialect) {
      return Status::InvalidInput(std::string("a ") + DialectName(arrival.dialect) +
                                  " worker cannot join a job of " + DialectName(p.dialect) +
                                  " workers");
    }
  }
  pending_.push_back(arrival);
  if (static_cast<int>(pending_.size()) < num_workers_) return std::vector<Placement>{};
  return AssignBatch();
}

std::vector<Placement> JobRoster::AssignBatch() {
  SortByTaskId(pending_);
  ranked_ = std::move(pending_);
  pending_.clear();
  topology_ = topo::BuildTopology(num_workers_);
  assigned_ = true;
  std::vector<Placement> batch;
  for (int r = 0; r < num_workers_; ++r) {
    if (!ranked_[r].task_id.empty()) rank_of_task_[ranked_[r].task_id] = r;
    batch.push_back({ranked_[r].session_id, r});
  }
  return batch;
}

std::optional<Dialect> JobRoster::dialect() const {
  if (assigned_) return ranked_.front().dialect;
  if (!pending_.empty()) return pending_.front().dialect;
  return std::nullopt;
}

void JobRoster::Leave(std::uint64_t session_id) {
  std::erase_if(pending_, [&](const Arrival& a) { return a.session_id == session_id; });
}

Status JobRoster::MarkShutdown(int rank) {
  if (!assigned_ || rank < 0 || rank >= num_workers_) {
    return Status::InvalidInput("shutdown from unknown rank " + std::to_string(rank));
  }
  if (shut_down_[rank]) {
    return Status::InvalidInput("second shutdown from rank " + std::to_string(rank));
  }
  shut_down_[rank] = true;
  ++num_shut_down_;
  return Status::Ok();
}

bool JobRoster::AllShutdown() const { return assigned_ && num_shut_down_ == num_workers_; }

std::optional<int> JobRoster::RankOfTask(const std::string& task_id) const {
  auto it = rank_of_task_.find(task_id);
  if (it == rank_of_task_.end()) return std::nullopt;
  return it->second;
}

std::optional<int> JobRoster::RankOfSession(std::uint64_t session_id) const {
  for (int r = 0; r < static_cast<int>(ranked_.size()); ++r) {
    if (ranked_[r].session_id == session_id) return r;
  }
  return std::nullopt;
}

void JobRoster::Rebind(int rank, std::uint64_t session_id, const std::string& host,
                       std::uint16_t port) {
  ranked_[rank].session_id = session_id;
  ranked_[rank].host = host;
  ranked_[rank].port = port;
}

std::vector<int> JobRoster::Shrink(const std::vector<int>& dropped) {
  std::vector<int> old_of_new;
  std::vector<Arrival> ranked;
  std::vector<bool> shut_down;
  for (int r = 0; r < num_workers_; ++r) {
    if (std::find(dropped.begin(), dropped.end(), r) != dropped.end()) continue;
    old_of_new.push_back(r);
    ranked.push_back(ranked_[r]);
    shut_down.push_back(shut_down_[r]);
  }
  ranked_ = std::move(ranked);
  shut_down_ = std::move(shut_down);
  num_workers_ = static_cast<int>(ranked_.size());
  rank_of_task_.clear();
  for (int r = 0; r < num_workers_; ++r) {
    if (!ranked_[r].task_id.empty()) rank_of_task_[ranked_[r].task_id] = r;
  }
  topology_ = topo::BuildTopology(num_workers_);
  return old_of_new;
}

Status JobRoster::Grow(const std::vector<Arrival>& joiners) {
  for (const Arrival& a : joiners) {
    if (!a.task_id.empty() && rank_of_task_.count(a.task_id) != 0) {
      return Status::InvalidInput("duplicate task id '" + a.task_id + "'");
    }
    if (!a.task_id.empty()) rank_of_task_[a.task_id] = num_workers_;
    ranked_.push_back(a);
    shut_down_.push_back(false);
    ++num_workers_;
  }
  topology_ = topo::BuildTopology(num_workers_);
  return Status::Ok();
}

proto::Assign JobRoster::AssignFor(int rank, std::uint32_t epoch) const {
  const topo::WorkerLinks& links = topology_[rank];
  proto::Assign a;
  a.epoch = epoch;
  a.rank = rank;
  a.world_size = num_workers_;
  a.parent = links.parent;
  a.tree_neighbours = links.tree_neighbours;
  a.ring_prev = links.ring_prev;
  a.ring_next = links.ring_next;
  for (std::int32_t peer : topo::LinkedPeers(links, rank)) {
    if (peer < rank) {
      a.connect_to.push_back({peer, ranked_[peer].host, ranked_[peer].port});
    } else {
      ++a.num_accept;
    }
  }
  return a;
}

}  // namespace treering::tracker
