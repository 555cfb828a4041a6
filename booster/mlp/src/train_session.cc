#include "train_session.h"

#include <chrono>
#include <cstdio>
#include <filesystem>

#include "booster/mlp/predictor.h"
#include "rabit/rabit.h"

namespace treering::booster::mlp {
namespace {

double Seconds(std::chrono::steady_clock::time_point since) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - since).count();
}

std::string Widths(const std::vector<int>& widths) {
  std::string s;
  for (int w : widths) {
    if (!s.empty()) s += '-';
    s += std::to_string(w);
  }
  return s;
}

}  // namespace

// The rabit checkpoint after every epoch: the whole model file's bytes (parameters, optimizer
// state, counters), so a worker restarted by the launcher takes exactly the survivors' steps.
class EpochCheckpoint : public rabit::Serializable {
 public:
  explicit EpochCheckpoint(const TrainSession* session) : session_(session) {}
  void Save(std::string* out) const override;
  void Load(const std::string& in) override { loaded = in; }
  std::string loaded;

 private:
  const TrainSession* session_;
};

TrainSession::TrainSession(const MlpParam& param, const MlpTaskOptions& options)
    : param_(param), options_(options), comm_(&rabit::DefaultComm()) {}

Status TrainSession::Load() {
  const int nt = options_.nthread;
  auto train = LoadShard("data", options_.data, nt, /*shard=*/true);
  if (!train.ok()) return train.status();
  train_ = std::move(train.value());
  for (const auto& [name, uri] : options_.evals) {
    if (uri == options_.data) {  // evaluating on the training file: no second copy
      evals_.push_back({name, &train_});
      continue;
    }
    auto m = LoadShard("eval[" + name + "]", uri, nt, /*shard=*/true);
    if (!m.ok()) return m.status();
    eval_data_.push_back(std::make_unique<data::DMatrix>(std::move(m.value())));
    evals_.push_back({name, eval_data_.back().get()});
  }
  if (options_.eval_train) evals_.push_back({"train", &train_});
  if (options_.model_in.empty()) return Status::Ok();
  auto model = LoadModelFile(options_.model_in);
  if (!model.ok()) return model.status().WithContext("model_in");
  resume_ = std::make_unique<MlpModel>(std::move(model.value()));
  return CheckResumable();
}

// model_in must be the same network trained the same way; anything else is a user error.
Status TrainSession::CheckResumable() const {
  const MlpModel& m = *resume_;
  const std::vector<int> hidden(m.widths.begin() + 1, m.widths.end() - 1);
  auto mismatch = [&](const std::string& key, const std::string& file_value) {
    return Status::InvalidInput("model_in = " + options_.model_in + ": " + key + " differs from " +
                                "the model's (" + file_value + ")");
  };
  if (hidden != param_.hidden_layers) return mismatch("hidden_layers", Widths(hidden));
  if (m.activation != param_.activation)
    return mismatch("activation", ActivationName(m.activation));
  if (m.objective != param_.objective) return mismatch("objective", m.objective);
  if (m.widths.back() != param_.NumOutputs())
    return mismatch("num_class", std::to_string(m.num_class));
  if (m.optimizer != param_.optimizer) return mismatch("optimizer", OptimizerName(m.optimizer));
  if (m.seed != param_.seed) return mismatch("seed", std::to_string(m.seed));
  return Status::Ok();
}

Status TrainSession::Prepare() {
  auto objective = MakeObjective(param_.objective, param_.num_class);
  if (!objective.ok()) return objective.status();
  objective_ = std::move(objective.value());
  for (const EvalSet& e : evals_) {
    Status st = objective_->CheckLabels(LabelView{&e.matrix->label, &e.matrix->weight});
    if (!st.ok()) return st.WithContext(e.name == "train" ? "data" : "eval[" + e.name + "]");
  }
  Status st = objective_->CheckLabels(LabelView{&train_.label, &train_.weight});
  if (!st.ok()) return st.WithContext("data = " + options_.data);
  std::vector<std::string> names = param_.eval_metrics;
  if (names.empty()) names.push_back(objective_->DefaultMetric());
  for (const std::string& n : names) {
    auto metric = Metric::Create(n);
    if (!metric.ok()) return metric.status().WithContext("eval_metric");
    metrics_.push_back(std::move(metric.value()));
  }
  std::uint64_t inputs = train_.num_col;
  comm_->Allreduce<rabit::op::Max>(&inputs, 1);
  if (resume_) inputs = static_cast<std::uint64_t>(resume_->widths.front());
  if (inputs == 0) return Status::InvalidInput("data = " + options_.data + ": no features");
  const int num_inputs = static_cast<int>(inputs);
  for (const EvalSet& e : evals_) {
    st = CheckFeatureRange(*e.matrix, num_inputs,
                           e.name == "train" ? "data" : "eval[" + e.name + "]");
    if (!st.ok()) return st;
  }
  st = CheckFeatureRange(train_, num_inputs, "data = " + options_.data);
  if (!st.ok()) return st;
  scaling_ = resume_ ? resume_->scaling
                     : ComputeScaling(train_, num_inputs, param_.standardize, comm_);
  scaling_.ScaleRows(&train_, options_.nthread);
  for (auto& m : eval_data_) scaling_.ScaleRows(m.get(), options_.nthread);
  std::vector<int> widths{num_inputs};
  widths.insert(widths.end(), param_.hidden_layers.begin(), param_.hidden_layers.end());
  widths.push_back(param_.NumOutputs());
  trainer_ = std::make_unique<Trainer>(param_, Architecture(widths, param_.activation), comm_,
                                       options_.nthread);
  trainer_->Start(resume_ ? &resume_->state : nullptr);
  trainer_->SetTrainShard(&train_);
  const int world = comm_->WorldSize();
  LogRank0(options_, 1,
           "treering: mlp " + Widths(widths) + ", " + std::to_string(world) +
               " worker(s) x batch " + std::to_string(param_.batch_size) + " = effective batch " +
               std::to_string(world * param_.batch_size) + ", " +
               std::to_string(trainer_->steps_per_epoch()) + " steps per epoch, " +
               std::to_string(trainer_->arch().NumParams()) + " parameters");
  return Status::Ok();
}

Result<std::vector<EvalResult>> TrainSession::Evaluate() {
  std::vector<EvalResult> results;
  const int groups = trainer_->arch().NumOutputs();
  for (const EvalSet& e : evals_) {
    std::vector<float> preds =
        PredictLogits(trainer_->arch(), trainer_->params(), scaling_, *e.matrix, options_.nthread);
    objective_->EvalTransform(&preds, options_.nthread);
    for (const auto& metric : metrics_) {
      auto v = metric->Evaluate(preds, groups, LabelView{&e.matrix->label, &e.matrix->weight},
                                options_.nthread, *comm_);
      if (!v.ok()) return v.status();
      results.push_back({e.name + "-" + metric->Name(), v.value()});
    }
  }
  return results;
}

std::string TrainSession::SnapshotPath(int epochs) const {
  char name[32];
  std::snprintf(name, sizeof(name), "%04d.mlp", epochs);
  return (std::filesystem::path(options_.model_dir) / name).string();
}

MlpModel TrainSession::Snapshot() const {
  MlpModel m;
  m.widths = trainer_->arch().widths();
  m.activation = param_.activation;
  m.objective = param_.objective;
  m.num_class = param_.num_class;
  m.optimizer = param_.optimizer;
  m.seed = param_.seed;
  m.scaling = scaling_;
  m.state = trainer_->State();
  return m;
}

void EpochCheckpoint::Save(std::string* out) const { *out = SerializeModel(session_->Snapshot()); }

Status TrainSession::ResumeFromCheckPoint(EpochCheckpoint* checkpoint) {
  if (rabit::LoadCheckPoint(checkpoint) == 0) return Status::Ok();
  auto model = ParseModel(checkpoint->loaded, "rabit checkpoint");
  if (!model.ok()) return model.status();
  trainer_->Restore(model->state);
  return Status::Ok();
}

Status TrainSession::Save(const std::string& path) const {
  if (comm_->Rank() != 0) return Status::Ok();
  Status st = SaveModelFile(Snapshot(), path);
  return st.ok() ? st : Status(st.code(), "cannot save the model: " + st.message());
}

void TrainSession::PrintEpoch(int epoch, const std::vector<EvalResult>& results,
                              const EpochReport& r, double wall_s) const {
  if (comm_->Rank() == 0 && options_.format_eval_line) {
    rabit::TrackerPrint(options_.format_eval_line(epoch, results));
  }
  char line[256];
  std::snprintf(line, sizeof(line),
                "[%d]\ttrain-loss:%.6f\tsamples/s:%.0f\tcompute:%.3fs\tsync:%.3fs\tepoch:%.3fs",
                epoch, r.train_loss, r.rows / std::max(1e-9, wall_s), r.compute_s, r.sync_s,
                wall_s);
  LogRank0(options_, 1, line);
  if (comm_->WorldSize() == 1) return;
  // verbosity 2: where the sync time goes, bucket by bucket (for bucket_bytes tuning).
  std::snprintf(line, sizeof(line), "[%d]\tsync per bucket (floats:seconds):", epoch);
  std::string buckets = line;
  for (std::size_t i = 0; i < r.bucket_sync_s.size(); ++i) {
    std::snprintf(line, sizeof(line), " %zu:%.3f", r.bucket_floats[i], r.bucket_sync_s[i]);
    buckets += line;
  }
  LogRank0(options_, 2, buckets);
}

// Totals averaged over the workers (one allreduce), then the CLI's timing report and the
// parameter checksum every rank agreed on.
void TrainSession::PrintTiming(double wall_s) {
  double sums[4] = {totals_.comp_s, totals_.sync_s, totals_.payload_bytes, totals_.calls};
  comm_->Allreduce<rabit::op::Sum>(sums, 4);
  SyncTotals mean = totals_;
  mean.workers = comm_->WorldSize();
  mean.comp_s = sums[0] / mean.workers;
  mean.sync_s = sums[1] / mean.workers;
  mean.payload_bytes = sums[2] / mean.workers;
  mean.calls = sums[3] / mean.workers;
  if (options_.format_timing) {
    for (const std::string& line : options_.format_timing(mean)) LogRank0(options_, 1, line);
  }
  char line[256];
  std::snprintf(line, sizeof(line),
                "treering: %d epochs in %.3f s; parameter checksum %016llx equal on all ranks",
                trainer_->epochs_done(), wall_s,
                static_cast<unsigned long long>(trainer_->Checksum()));
  LogRank0(options_, 1, line);
}

Status TrainSession::Train() {
  if (comm_->Rank() == 0 && (param_.save_every > 0 || options_.model_out.empty())) {
    std::error_code ec;
    std::filesystem::create_directories(options_.model_dir, ec);
    if (!std::filesystem::is_directory(options_.model_dir)) {
      return Status::InvalidInput("model_dir = " + options_.model_dir +
                                  ": cannot create the directory");
    }
  }
  const auto start = std::chrono::steady_clock::now();
  EpochCheckpoint checkpoint(this);
  if (Status st = ResumeFromCheckPoint(&checkpoint); !st.ok()) return st;
  for (int epoch = trainer_->epochs_done(); epoch < param_.epochs; ++epoch) {
    const auto epoch_start = std::chrono::steady_clock::now();
    const EpochReport r = trainer_->RunEpoch(scaling_);
    const double wall = Seconds(epoch_start);
    totals_.sync_s += r.sync_s;
    totals_.comp_s += r.compute_s;
    totals_.payload_bytes += r.payload_bytes;
    totals_.calls += r.calls;
    ++totals_.epochs;
    auto results = Evaluate();
    if (!results.ok()) return results.status();
    PrintEpoch(epoch, results.value(), r, wall);
    if (!trainer_->RanksAgree()) {
      return Status::Internal("ranks' parameters differ after epoch " + std::to_string(epoch) +
                              " (checksum mismatch): synchronous SGD lost sync");
    }
    if (param_.save_every > 0 && (epoch + 1) % param_.save_every == 0) {
      Status st = Save(SnapshotPath(epoch + 1));
      if (!st.ok()) return st;
    }
    rabit::CheckPoint(&checkpoint);
  }
  const std::string out =
      options_.model_out.empty() ? SnapshotPath(trainer_->epochs_done()) : options_.model_out;
  Status st = Save(out);
  if (!st.ok()) return st;
  PrintTiming(Seconds(start));
  return Status::Ok();
}

}  // namespace treering::booster::mlp
