#include "robust_world.h"

#include <chrono>
#include <cstring>
#include <numeric>
#include <thread>

namespace rabit::testing {

treering::Result<LinkSet> RelinkHub::Join(int rank) {
  std::unique_lock<std::mutex> lock(mu_);
  const int gen = generation_;
  waiting_.insert(rank);
  if (static_cast<int>(waiting_.size()) == world_) {
    auto links = bootstrap::BuildLoopbackLinks(world_);
    if (links.ok())
      built_[gen] = std::move(links.value());
    else
      failed_[gen] = links.status();
    waiting_.clear();
    ++generation_;
    cv_.notify_all();
  } else {
    const auto deadline =
        std::chrono::steady_clock::now() + std::chrono::duration<double>(timeout_s_);
    if (!cv_.wait_until(lock, deadline, [&] { return generation_ != gen; })) {
      std::string missing;
      for (int r = 0; r < world_; ++r) {
        // Two appends: `" " + std::to_string(r)` trips GCC 12's -Wrestrict false positive.
        if (waiting_.count(r) == 0) missing.append(" ").append(std::to_string(r));
      }
      waiting_.erase(rank);
      return Status::Aborted("recovery epoch timed out; missing rank(s)" + missing);
    }
  }
  if (failed_.count(gen) != 0) return failed_[gen];
  return std::move(built_[gen][rank]);
}

namespace {

class VectorState : public Serializable {
 public:
  std::vector<std::uint64_t> values;
  void Save(std::string* out) const override {
    out->assign(reinterpret_cast<const char*>(values.data()), values.size() * 8);
  }
  void Load(const std::string& in) override {
    values.resize(in.size() / 8);
    std::memcpy(values.data(), in.data(), values.size() * 8);
  }
};

class StringState : public Serializable {
 public:
  std::string text;
  void Save(std::string* out) const override { *out = text; }
  void Load(const std::string& in) override { text = in; }
};

std::uint64_t Mix(std::uint64_t h, std::uint64_t x) {
  h ^= x + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
  return h * 0xff51afd7ed558ccdULL;
}

template <typename T>
std::uint64_t Digest(const std::vector<T>& v) {
  std::uint64_t h = v.size();
  std::vector<std::uint64_t> words((v.size() * sizeof(T) + 7) / 8, 0);
  if (!v.empty()) std::memcpy(words.data(), v.data(), v.size() * sizeof(T));
  for (std::uint64_t w : words) h = Mix(h, w);
  return h;
}

#define TRY(expr)            \
  do {                       \
    Status s_ = (expr);      \
    if (!s_.ok()) return s_; \
  } while (0)

Status OneVersion(RobustEngine& e, int v, VectorState* model, JobResult* out) {
  const int rank = e.Rank(), world = e.WorldSize();
  std::vector<double> grad(3000);
  PrepareFn prepare = [&] {
    out->prepared_versions.push_back(v);
    for (std::size_t i = 0; i < grad.size(); ++i) grad[i] = (rank + 1) * 0.5 + v * 0.25 + i;
  };
  TRY(e.Allreduce(grad.data(), grad.size(), DataType::kDouble, OpKind::kSum, prepare));
  std::vector<std::uint8_t> blob(5000 + v, static_cast<std::uint8_t>(rank));
  const int root = v % world;
  if (rank == root) std::iota(blob.begin(), blob.end(), static_cast<std::uint8_t>(v));
  TRY(e.Broadcast(blob.data(), blob.size(), root));
  std::vector<std::size_t> slices(world);
  for (int r = 0; r < world; ++r) slices[r] = 8 * static_cast<std::size_t>((r + v) % 3);
  std::vector<std::uint64_t> all(std::accumulate(slices.begin(), slices.end(), std::size_t{0}) / 8);
  std::size_t offset = 0;
  for (int r = 0; r < rank; ++r) offset += slices[r] / 8;
  for (std::size_t i = 0; i < slices[rank] / 8; ++i) all[offset + i] = 1000 * rank + v + i;
  TRY(e.Allgather(all.data(), slices));
  model->values.push_back(Mix(Mix(Digest(grad), Digest(blob)), Digest(all)));
  return Status::Ok();
}

Status Job(RobustEngine& e, const JobSpec& spec, JobResult* out) {
  out->prepared_versions.clear();
  std::uint64_t features = 10 + e.Rank();
  TRY(e.Allreduce(&features, 1, DataType::kUInt64, OpKind::kMax, nullptr));
  std::uint64_t seed = e.Rank() == 0 ? 4242 : 0;
  TRY(e.Broadcast(&seed, sizeof(seed), 0));
  VectorState model;
  StringState local;
  auto loaded = e.LoadCheckPoint(&model, &local);
  if (!loaded.ok()) return loaded.status();
  out->loaded_version = loaded.value();
  out->local_loaded = local.text;
  if (loaded.value() == 0) model.values = {features, seed};
  for (int v = loaded.value(); v < spec.versions; ++v) {
    TRY(OneVersion(e, v, &model, out));
    local.text = "rank " + std::to_string(e.Rank()) + " after version " + std::to_string(v);
    TRY(e.CheckPoint(&model, &local));
  }
  TRY(e.Shutdown());
  out->model = model.values;
  return Status::Ok();
}

JobResult RunRank(const JobSpec& spec, int rank, LinkSet first_links, RelinkHub* hub) {
  JobResult out;
  for (std::uint32_t attempt = 0;; ++attempt) {
    out.attempts = static_cast<int>(attempt) + 1;
    LinkSet links;
    if (attempt == 0) {
      links = std::move(first_links);
    } else {
      auto joined = hub->Join(rank);
      if (!joined.ok()) {
        out.status = joined.status();
        return out;
      }
      links = std::move(joined.value());
    }
    RobustOptions options;
    options.collective.timeout_seconds = 30;
    options.attempt = attempt;
    options.rejoined = attempt > 0;
    options.local_replica = spec.local_replica;
    options.mocks = spec.mocks;
    options.die = [] { throw Killed{}; };
    try {
      auto engine = RobustEngine::Create(
          std::move(links), [hub, rank] { return hub->Join(rank); }, options, nullptr);
      if (!engine.ok()) {
        out.status = engine.status();
        return out;
      }
      out.status = Job(*engine.value(), spec, &out);
      return out;
    } catch (const Killed&) {
      continue;  // the engine and its sockets are gone: start again as the next attempt
    }
  }
}

}  // namespace

std::vector<JobResult> RunRobustJob(const JobSpec& spec) {
  RelinkHub hub(spec.world, spec.hub_timeout_s);
  auto links = bootstrap::BuildLoopbackLinks(spec.world);
  std::vector<JobResult> results(spec.world);
  if (!links.ok()) {
    for (auto& r : results) r.status = links.status();
    return results;
  }
  std::vector<std::thread> threads;
  for (int r = 0; r < spec.world; ++r) {
    threads.emplace_back(
        [&, r] { results[r] = RunRank(spec, r, std::move(links.value()[r]), &hub); });
  }
  for (auto& t : threads) t.join();
  return results;
}

}  // namespace rabit::testing
