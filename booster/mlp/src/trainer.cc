#include "booster/mlp/trainer.h"

#include <chrono>
#include <cmath>
#include <cstring>

#include "booster/mlp/output_loss.h"

namespace treering::booster::mlp {
namespace {

double Now() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

std::uint64_t Mix(std::uint64_t x) {
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ULL;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBULL;
  return x ^ (x >> 31);
}

std::vector<std::uint8_t> WeightMask(const Architecture& arch) {
  std::vector<std::uint8_t> mask(arch.NumParams(), 0);
  for (int l = 0; l < arch.NumLayers(); ++l) {
    const LayerSlot& s = arch.Layer(l);
    std::fill_n(mask.begin() + static_cast<std::ptrdiff_t>(s.weight),
                static_cast<std::size_t>(s.in) * s.out, 1);
  }
  return mask;
}

}  // namespace

InputScaling ComputeScaling(const data::DMatrix& local, int num_inputs, bool standardize,
                            rabit::Comm* comm) {
  const auto n = static_cast<std::size_t>(num_inputs);
  InputScaling s{std::vector<float>(n, 1.0f), std::vector<float>(n, 0.0f)};
  if (!standardize) return s;
  std::vector<double> sums(2 * n + 1, 0.0);  // sum x, sum x^2, rows
  for (std::size_t e = 0; e < local.index.size(); ++e) {
    const double v = local.value[e];
    sums[local.index[e]] += v;
    sums[n + local.index[e]] += v * v;
  }
  sums[2 * n] = static_cast<double>(local.NumRows());
  comm->Allreduce<rabit::op::Sum>(sums.data(), sums.size());
  const double rows = std::max(1.0, sums[2 * n]);
  for (std::size_t j = 0; j < n; ++j) {
    const double mean = sums[j] / rows;
    const double var = std::max(0.0, sums[n + j] / rows - mean * mean);
    const double sd = std::sqrt(var);
    // A (near) constant feature is only centred: dividing by ~0 would blow up rounding noise.
    const double inv = sd > 1e-6 * std::max(1.0, std::fabs(mean)) ? 1.0 / sd : 1.0;
    s.inv_std[j] = static_cast<float>(inv);
    s.center[j] = static_cast<float>(mean * inv);
  }
  return s;
}

std::vector<std::uint32_t> EpochOrder(std::size_t rows, std::uint64_t seed, int epoch,
                                      bool shuffle) {
  std::vector<std::uint32_t> order(rows);
  for (std::size_t i = 0; i < rows; ++i) order[i] = static_cast<std::uint32_t>(i);
  if (!shuffle) return order;
  std::uint64_t state = Mix(seed * 0x9E3779B97F4A7C15ULL + static_cast<std::uint64_t>(epoch) + 1);
  for (std::size_t i = rows; i > 1; --i) {  // Fisher-Yates, unbiased by 128-bit multiply
    state = Mix(state + 0x9E3779B97F4A7C15ULL);
    const auto j = static_cast<std::size_t>((static_cast<unsigned __int128>(state) * i) >> 64);
    std::swap(order[i - 1], order[j]);
  }
  return order;
}

Trainer::Trainer(const MlpParam& param, Architecture arch, const Context& ctx, rabit::Comm* comm)
    : param_(param),
      arch_(std::move(arch)),
      comm_(comm),
      ctx_(ctx),
      is_weight_(WeightMask(arch_)),
      optimizer_(param, arch_.NumParams()),
      buckets_(PlanBuckets(arch_.NumParams() + 2,
                           static_cast<std::size_t>(param.first_bucket_bytes),
                           static_cast<std::size_t>(param.bucket_bytes))),
      flat_(arch_.NumParams() + 2, 0.0f) {}

void Trainer::Restore(const TrainerState& state) {
  params_ = state.params;
  optimizer_.slots() = state.slots;
  optimizer_.set_steps(state.steps);
  epochs_done_ = state.epochs_done;
}

void Trainer::Start(const TrainerState* resume) {
  if (resume != nullptr) {
    Restore(*resume);
  } else if (comm_->Rank() == 0) {
    params_ = InitialParams(arch_, static_cast<std::uint64_t>(param_.seed));
  }
  params_.resize(arch_.NumParams());
  comm_->Broadcast(params_.data(), params_.size() * sizeof(float), 0);
  for (auto& slot : optimizer_.slots()) {
    slot.resize(arch_.NumParams());
    comm_->Broadcast(slot.data(), slot.size() * sizeof(float), 0);
  }
}

void Trainer::SetTrainShard(const data::DMatrix* scaled_train) {
  train_ = scaled_train;
  const auto b = static_cast<std::uint64_t>(param_.batch_size);
  std::uint64_t steps = (train_->NumRows() + b - 1) / b;
  comm_->Allreduce<rabit::op::Max>(&steps, 1);
  steps_per_epoch_ = static_cast<std::int64_t>(steps);
}

void Trainer::StepOn(std::span<const std::uint32_t> rows, const InputScaling& scaling,
                     EpochReport* r) {
  const double t0 = Now();
  const std::size_t np = arch_.NumParams();
  LossSum local;
  if (rows.empty()) {
    std::fill(flat_.begin(), flat_.end(), 0.0f);
  } else {
    const Batch batch{train_, rows};
    Forward(arch_, params_.data(), scaling, batch, ctx_.Threads(), &ws_);
    ws_.grad.back().resize(ws_.act.back().size());
    local = OutputGradient(param_.objective, ws_.act.back().data(), arch_.NumOutputs(), batch,
                           ws_.grad.back().data());
    Backward(arch_, params_.data(), scaling, batch, ctx_.Threads(), &ws_, flat_.data());
  }
  flat_[np] = static_cast<float>(local.weight);
  flat_[np + 1] = static_cast<float>(local.loss);
  const double t1 = Now();
  AllreduceBuckets(buckets_, comm_, flat_.data(), &r->bucket_sync_s);
  const double t2 = Now();
  const float weight = flat_[np];
  if (weight > 0.0f) {
    const float inv = 1.0f / weight;
    for (std::size_t i = 0; i < np; ++i) flat_[i] *= inv;
    const double lr =
        LearningRateAt(param_, optimizer_.steps(), steps_per_epoch_, comm_->WorldSize());
    optimizer_.Step(lr, is_weight_, flat_.data(), params_.data());
  }
  r->train_loss += flat_[np + 1];
  r->rows += weight;
  r->compute_s += (t1 - t0) + (Now() - t2);
  r->sync_s += t2 - t1;
  if (comm_->WorldSize() > 1) {
    r->payload_bytes += static_cast<double>(flat_.size() * sizeof(float));
    r->calls += static_cast<double>(buckets_.size());
  }
  ++r->steps;
}

EpochReport Trainer::RunEpoch(const InputScaling& scaling) {
  const std::vector<std::uint32_t> order = EpochOrder(
      train_->NumRows(), static_cast<std::uint64_t>(param_.seed), epochs_done_, param_.shuffle);
  const auto b = static_cast<std::size_t>(param_.batch_size);
  EpochReport report;
  report.bucket_sync_s.assign(buckets_.size(), 0.0);
  for (const BucketRange& bucket : buckets_)
    report.bucket_floats.push_back(bucket.end - bucket.begin);
  for (std::int64_t s = 0; s < steps_per_epoch_; ++s) {
    const std::size_t begin = std::min(order.size(), static_cast<std::size_t>(s) * b);
    const std::size_t end = std::min(order.size(), begin + b);
    StepOn(std::span<const std::uint32_t>(order.data() + begin, end - begin), scaling, &report);
  }
  if (report.rows > 0) report.train_loss /= report.rows;
  ++epochs_done_;
  return report;
}

std::uint64_t Trainer::Checksum() const {
  std::uint64_t h = 0xCBF29CE484222325ULL;  // FNV-1a over the parameter bytes
  const auto* bytes = reinterpret_cast<const unsigned char*>(params_.data());
  for (std::size_t i = 0; i < params_.size() * sizeof(float); ++i) {
    h = (h ^ bytes[i]) * 0x100000001B3ULL;
  }
  return h;
}

bool Trainer::RanksAgree() {
  const std::uint64_t mine = Checksum();
  std::uint64_t both[2] = {mine, ~mine};  // max of h and max of ~h (= ~min of h)
  comm_->Allreduce<rabit::op::Max>(both, 2);
  return both[0] == ~both[1];
}

TrainerState Trainer::State() const {
  return TrainerState{params_, optimizer_.slots(), optimizer_.steps(), epochs_done_};
}

}  // namespace treering::booster::mlp
