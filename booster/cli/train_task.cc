// task=train: load data and eval sets (each rank its shard), boost num_round rounds printing
// one XGBoost-style metric line per round (rank 0), optional early stopping, periodic and
// final JSON model files (rank 0), a one-line timing summary and the distributed timing report
// (T_comp / T_sync per round) on stderr.
#include <cstdio>
#include <filesystem>
#include <memory>
#include <vector>

#include "booster/model_io.h"
#include "eval_report.h"
#include "rabit/rabit.h"
#include "sync_check.h"
#include "task_support.h"
#include "tasks.h"
#include "train_checkpoint.h"
#include "timing_report.h"

namespace treering::cli {
namespace {

struct TrainSession {
  const CliOptions& options;
  data::DMatrix train;
  std::vector<std::unique_ptr<data::DMatrix>> eval_data;  // stable addresses for the learner
  std::unique_ptr<booster::Learner> learner;
  EarlyStopping stopping;
  int start_round = 0;  // rounds already in model_in
  double load_s = 0;
  RoundTotals rounds{};  // this rank's time and collectives inside UpdateOneIter + EvalOneIter
};

Status LoadDatasets(TrainSession* s) {
  const CliOptions& o = s->options;
  const Stopwatch clock;
  auto train = LoadMatrix("data", o.data, o.nthread, /*shard=*/true);
  if (!train.ok()) return train.status();
  s->train = std::move(train.value());
  for (const EvalSetSpec& e : o.evals) {
    if (e.uri == o.data) {  // evaluating on the training file: no second copy
      s->eval_data.push_back(nullptr);
      continue;
    }
    auto m = LoadMatrix("eval[" + e.name + "]", e.uri, o.nthread, /*shard=*/true);
    if (!m.ok()) return m.status();
    s->eval_data.push_back(std::make_unique<data::DMatrix>(std::move(m.value())));
  }
  s->load_s = clock.Seconds();
  LogRank0(o, 2, "Loading data: " + std::to_string(s->load_s) + " sec");
  return Status::Ok();
}

Status SetUpLearner(TrainSession* s) {
  const CliOptions& o = s->options;
  auto learner = CreateLearner(o);
  if (!learner.ok()) return learner.status();
  s->learner = std::move(learner.value());
  if (!o.model_in.empty()) {
    auto model = LoadModelIn(o.model_in);
    if (!model.ok()) return model.status();
    s->start_round = model->NumRounds();
    Status st = s->learner->LoadModel(std::move(model.value()));
    if (!st.ok()) return st.WithContext("model_in = " + o.model_in);
  }
  Status st = s->learner->SetTrainData(&s->train);
  for (std::size_t i = 0; st.ok() && i < o.evals.size(); ++i) {
    const data::DMatrix* dm = s->eval_data[i] ? s->eval_data[i].get() : &s->train;
    st = s->learner->AddEvalSet(o.evals[i].name, dm);
  }
  if (st.ok() && o.eval_train) st = s->learner->AddEvalSet("train", &s->train);
  return st;
}

std::string SnapshotPath(const std::string& model_dir, int rounds) {
  char name[32];
  std::snprintf(name, sizeof(name), "%04d.json", rounds);
  return (std::filesystem::path(model_dir) / name).string();
}

// The learner's model with the early-stopping attributes found so far: what the files hold.
booster::GBTreeModel ModelToSave(const TrainSession& s) {
  booster::GBTreeModel model = s.learner->Model();
  s.stopping.WriteAttributes(&model);
  return model;
}

// Rank 0 alone writes model files; the other ranks hold the same model (debug_synchronize).
Status SaveModel(const TrainSession& s, const std::string& path) {
  if (rabit::GetRank() != 0) return Status::Ok();
  Status st = booster::SaveModelJson(ModelToSave(s), path);
  return st.ok() ? st : Status(st.code(), "cannot save the model: " + st.message());
}

// model_dir is created up front (rank 0) when files will go there, so a bad directory fails
// before any training time is spent.
Status PrepareModelDir(const CliOptions& o) {
  const bool used = o.save_period > 0 || o.model_out.empty();
  if (!used || rabit::GetRank() != 0) return Status::Ok();
  std::error_code ec;
  std::filesystem::create_directories(o.model_dir, ec);
  if (ec || !std::filesystem::is_directory(o.model_dir)) {
    return Status::InvalidInput("model_dir = " + o.model_dir + ": cannot create the directory" +
                                (ec ? ": " + ec.message() : ""));
  }
  return Status::Ok();
}

// One round: update, metrics line, early-stopping bookkeeping, periodic snapshot.
// Sets *stop when early stopping ends training.
Status RunRound(TrainSession* s, int i, bool* stop) {
  const CliOptions& o = s->options;
  const Stopwatch clock;
  const rabit::CommStats before = rabit::GetCommStats();
  const int trees_before = static_cast<int>(s->learner->Model().trees.size());
  Status st = s->learner->UpdateOneIter(i);
  if (!st.ok()) return st;
  auto results = s->learner->EvalOneIter(i);
  if (!results.ok()) return results.status();
  const rabit::CommStats after = rabit::GetCommStats();
  const double sync_s = after.seconds - before.seconds;
  s->rounds.rounds += 1;
  s->rounds.sync_s += sync_s;
  s->rounds.comp_s += clock.Seconds() - sync_s;
  s->rounds.payload_bytes += static_cast<double>(after.payload_bytes - before.payload_bytes);
  s->rounds.calls += static_cast<double>(after.calls - before.calls);
  if (o.debug_synchronize) {
    st = CheckTreesAgree(s->learner->Model(), trees_before, i);
    if (!st.ok()) return st;
  }
  if (rabit::GetRank() == 0) rabit::TrackerPrint(FormatEvalLine(i, results.value()));
  if (o.early_stopping_rounds > 0) {
    *stop = s->stopping.Update(s->start_round + i, results.value());
  }
  if (o.save_period > 0 && (i + 1) % o.save_period == 0) {
    st = SaveModel(*s, SnapshotPath(o.model_dir, i + 1));
  }
  return st;
}

// Rounds run between rabit checkpoints (docs/fault-tolerance.md): a worker restarted by the
// launcher gets the survivors' model at LoadCheckPoint (after the setup collectives, which the
// robust engine replays from its cache) and continues from that round.
Result<int> BoostRounds(TrainSession* s) {
  const Stopwatch clock;
  TrainCheckpoint checkpoint(s->learner.get(), &s->stopping);
  const int resumed = rabit::LoadCheckPoint(&checkpoint);
  if (resumed > 0) {
    if (Status st = checkpoint.Restore(); !st.ok()) return st;
  }
  for (int i = resumed; i < s->options.num_round; ++i) {
    LogRank0(s->options, 2,
             "boosting round " + std::to_string(i) + ", " + std::to_string(clock.Seconds()) +
                 " sec elapsed");
    bool stop = false;
    Status st = RunRound(s, i, &stop);
    if (!st.ok()) return st;
    rabit::CheckPoint(&checkpoint);
    if (stop) return i + 1;
  }
  return s->options.num_round;
}

// XGBoost's rule without its quirk: model_out is always written when given; otherwise
// model_dir/<rounds>.json unless the last periodic snapshot already is that file.
Status SaveFinal(const TrainSession& s, int rounds) {
  const CliOptions& o = s.options;
  if (!o.model_out.empty()) return SaveModel(s, o.model_out);
  if (o.save_period > 0 && rounds % o.save_period == 0 && rounds > 0) return Status::Ok();
  return SaveModel(s, SnapshotPath(o.model_dir, rounds));
}

// Every rank takes part (one allreduce averages the per-rank totals); rank 0 prints.
void PrintTimingReport(const TrainSession& s) {
  double sums[4] = {s.rounds.comp_s, s.rounds.sync_s, s.rounds.payload_bytes, s.rounds.calls};
  rabit::Allreduce<rabit::op::Sum>(sums, 4);
  RoundTotals mean = s.rounds;
  mean.workers = rabit::GetWorldSize();
  mean.comp_s = sums[0] / mean.workers;
  mean.sync_s = sums[1] / mean.workers;
  mean.payload_bytes = sums[2] / mean.workers;
  mean.calls = sums[3] / mean.workers;
  for (const std::string& line : FormatTimingReport(mean, s.options.single_worker_seconds)) {
    LogRank0(s.options, 1, line);
  }
}

void PrintSummary(const TrainSession& s, int rounds, double wall_s) {
  const booster::TimingReport t = s.learner->Timing();
  char line[256];
  std::snprintf(line, sizeof(line),
                "treering: %d rounds in %.3f s (load %.3f s, setup %.3f s, boosting %.3f s, "
                "evaluation %.3f s)",
                rounds, wall_s, s.load_s, t.setup_s, t.boost_s, t.eval_s);
  LogRank0(s.options, 1, line);
}

}  // namespace

Status RunTrain(const CliOptions& options) {
  const Stopwatch wall;
  TrainSession session{options, {}, {}, nullptr, EarlyStopping(options.early_stopping_rounds)};
  Status st = PrepareModelDir(options);
  if (st.ok()) st = LoadDatasets(&session);
  if (st.ok()) st = SetUpLearner(&session);
  if (!st.ok()) return st;
  auto rounds = BoostRounds(&session);
  if (!rounds.ok()) return rounds.status();
  st = SaveFinal(session, rounds.value());
  if (!st.ok()) return st;
  if (options.debug_synchronize) {
    auto json = booster::ModelToJson(ModelToSave(session));
    if (!json.ok()) return json.status();
    ReportModelDigest(json.value());
  }
  PrintSummary(session, rounds.value(), wall.Seconds());
  PrintTimingReport(session);
  return Status::Ok();
}

}  // namespace treering::cli
