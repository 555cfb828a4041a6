// task=train, the same job for every learner: load the data and eval sets (each rank its shard),
// run the rounds (boosting rounds or epochs) between rabit checkpoints, print one XGBoost-style
// metric line per round (rank 0), stop early, write periodic snapshots and the final model
// (rank 0), then the timing report (T_comp / T_sync per round) on stderr. What a round does,
// what the files hold and the learner's own progress lines are the learner's
// (booster/learner.h).
#include <memory>
#include <optional>
#include <vector>

#include "booster/tree/learner/gbtree_learner.h"
#include "data/query_group_shards.h"
#include "data/survival_bounds.h"
#include "elastic_restart.h"
#include "eval_report.h"
#include "model_output.h"
#include "output_check.h"
#include "preflight.h"
#include "preflight_data.h"
#include "rabit/rabit.h"
#include "row_location.h"
#include "snapshot_resume.h"
#include "sync_check.h"
#include "task_support.h"
#include "tasks.h"
#include "timing_report.h"
#include "train_checkpoint.h"
#include "train_parts_check.h"

namespace treering::cli {
namespace {

using booster::TrainStage;

struct TrainJob {
  explicit TrainJob(const CliOptions& o) : options(o), stopping(o.early_stopping_rounds) {}

  const CliOptions& options;
  std::unique_ptr<booster::Learner> learner;
  booster::RoundPlan plan;
  int start_round = 0;  // rounds in the model before this job (early stopping counts on)
  data::DMatrix train;
  std::vector<std::unique_ptr<data::DMatrix>> eval_data;  // stable addresses for the learner
  EarlyStopping stopping;
  const Stopwatch job_clock;
  std::optional<Stopwatch> loop_clock;  // from just before rabit::LoadCheckPoint
  double load_s = 0;
  RoundTotals totals{};  // this rank's rounds, as the learner counts their cost
};

booster::TrainProgress Progress(const TrainJob& j, int round, int rounds_run) {
  return {round, rounds_run, j.load_s, j.loop_clock ? j.loop_clock->Seconds() : 0.0,
          j.job_clock.Seconds()};
}

void PrintLines(const TrainJob& j, TrainStage stage, const booster::TrainProgress& progress) {
  for (const booster::LogLine& line : j.learner->Lines(stage, progress)) {
    LogRank0(j.options, line.verbosity, line.text);
  }
}

// The learner's model file with the early-stopping attributes found so far.
Status SaveModel(TrainJob* j, const std::string& path) {
  j->learner->SetAttributes(j->stopping.Attributes());
  return SaveModelRank0(*j->learner, path);
}

// The learner from the config, model_in, and the rounds to run. model_dir is created here
// when files will go there, and the outputs probed, so a bad path fails before the data is read.
Status SetUpLearner(TrainJob* j) {
  const CliOptions& o = j->options;
  auto learner = CreateLearnerFromConfig(o);
  if (!learner.ok()) return learner.status();
  j->learner = std::move(learner.value());
  if (o.early_stopping_rounds > 0 && !j->learner->Traits().stores_attributes) {
    return Status::InvalidInput("config: early_stopping_rounds: booster=" + o.booster +
                                " model files cannot record best_iteration / best_score; "
                                "train a fixed number of rounds instead");
  }
  if (!o.model_in.empty()) {
    Status st = j->learner->LoadModelFile(o.model_in, booster::ModelUse::kContinueTraining);
    if (!st.ok()) return st;
  }
  j->plan = j->learner->PlanRounds(o.num_round, o.save_period);
  j->start_round = j->learner->RoundsInModel();
  const bool dir_used = j->plan.save_period > 0 || o.model_out.empty();
  return CheckOutputsWritable(
      {{"model_dir", dir_used ? o.model_dir : "", true}, {"model_out", o.model_out, false}});
}

// FILE.bounds (survival:aft's label intervals, docs/data.md) for a loaded matrix; survival:aft
// without one is an error naming the key and the file it looked for.
Status AttachBounds(const CliOptions& o, const std::string& key, const std::string& uri,
                    data::DMatrix* m) {
  Status st = data::AttachSurvivalBounds(key, uri, true, rabit::DefaultComm(), m);
  if (!st.ok()) return st;
  std::string objective;
  for (const auto& [k, v] : o.learner_params) {
    if (k == "objective") objective = v;
  }
  if (objective == "survival:aft" && m->label_lower_bound.empty()) {
    return Status::InvalidKey(key, key + " = " + uri + ": objective survival:aft needs " +
                                       uri.substr(0, uri.find('?')) +
                                       ".bounds, one 'LOWER UPPER' line per row (docs/data.md)");
  }
  return Status::Ok();
}

// "eval[NAME] = the training file" evaluates on the training matrix itself: no second copy.
Status LoadDatasets(TrainJob* j) {
  const CliOptions& o = j->options;
  const Stopwatch clock;
  rabit::SetPhase("loading data");
  // Memory (docs/data.md): the tree learner trains dense data without their feature ids, and
  // frees the values once binned when nothing here reads them again: no eval set on the
  // training data, and no model loaded after the setup (a resumed snapshot or a restarted
  // worker's checkpoint, possible only when distributed or resuming).
  auto* trees = dynamic_cast<booster::GBTreeLearner*>(j->learner.get());
  bool eval_on_train = o.eval_train;
  for (const EvalSetSpec& e : o.evals) eval_on_train |= e.uri == o.data;
  if (trees != nullptr) {
    trees->AllowTrainValueDrop(!eval_on_train && !rabit::IsDistributed() && !ResumeWanted());
  }
  // One process only: the ranks of a distributed run would have to agree on streaming.
  const bool stream = trees != nullptr && !rabit::IsDistributed() && trees->StreamableTrainLoad();
  auto train = LoadMatrix("data", o.data, o.context, /*shard=*/true, trees != nullptr, stream);
  if (!train.ok()) return train.status();
  // Query groups (ranking) for training only: prediction needs none.
  Status groups =
      data::AttachQueryGroups("data", o.data, true, rabit::DefaultComm(), &train.value());
  if (!groups.ok()) return groups;
  if (Status st = AttachBounds(o, "data", o.data, &train.value()); !st.ok()) return st;
  j->train = std::move(train.value());
  if (Status st = CheckTrainingParts(o, j->train); !st.ok()) return st;
  if (Status st = CheckPartsAgree(o, j->train); !st.ok()) return st;
  j->load_s = clock.Seconds();
  return Status::Ok();
}

// After the training setup (SetData): the eval sets are not resident while the training
// values are sketched and binned (docs/data.md, "Memory").
Status LoadEvalSets(TrainJob* j) {
  const CliOptions& o = j->options;
  const Stopwatch clock;
  rabit::SetPhase("loading data");
  Status groups = Status::Ok();
  for (const EvalSetSpec& e : o.evals) {
    if (e.uri == o.data) {
      j->eval_data.push_back(nullptr);
      continue;
    }
    auto m = LoadMatrix("eval[" + e.name + "]", e.uri, o.context, /*shard=*/true);
    if (!m.ok()) return m.status();
    groups = data::AttachQueryGroups("eval[" + e.name + "]", e.uri, true, rabit::DefaultComm(),
                                     &m.value());
    if (!groups.ok()) return groups;
    groups = AttachBounds(o, "eval[" + e.name + "]", e.uri, &m.value());
    if (!groups.ok()) return groups;
    j->eval_data.push_back(std::make_unique<data::DMatrix>(std::move(m.value())));
  }
  j->load_s += clock.Seconds();
  PrintLines(*j, TrainStage::kDataLoaded, Progress(*j, 0, 0));
  return Status::Ok();
}

Status SetData(TrainJob* j) {
  const CliOptions& o = j->options;
  rabit::SetPhase("preparing data (quantile sketch)");
  Status st = WithRowLocation(j->learner->SetTrainData(&j->train), o.data, rabit::GetRank(),
                              rabit::GetWorldSize())
                  .WithContext("data = " + o.data);
  if (st.ok()) st = LoadEvalSets(j);
  for (std::size_t i = 0; st.ok() && i < o.evals.size(); ++i) {
    data::DMatrix* dm = j->eval_data[i] ? j->eval_data[i].get() : &j->train;
    st = j->learner->AddEvalSet(o.evals[i].name, dm);
  }
  if (st.ok() && o.eval_train) st = j->learner->AddEvalSet("train", &j->train);
  if (st.ok()) PrintLines(*j, TrainStage::kReady, Progress(*j, 0, 0));
  return st;
}

void AddCost(const booster::RoundCost& cost, RoundTotals* totals) {
  totals->rounds += 1;
  totals->comp_s += cost.comp_s;
  totals->sync_s += cost.sync_s;
  totals->payload_bytes += cost.payload_bytes;
  totals->calls += cost.calls;
  totals->scattered_bytes += cost.scattered_bytes;
}

// The round's metrics and cost to the tracker's status page (docs/status.md).
void ReportRoundStatus(int round, int total_rounds, const booster::RoundCost& cost,
                       const std::vector<booster::EvalResult>& results) {
  rabit::RoundReport report{round, total_rounds, cost.comp_s, cost.sync_s, {}};
  for (const booster::EvalResult& r : results) report.metrics.emplace_back(r.name, r.value);
  rabit::ReportRound(report);
}

// Round i of this job: update, metrics, rank agreement, metric line, early-stopping
// bookkeeping, periodic snapshot. Sets *stop when early stopping ends training.
Status RunRound(TrainJob* j, int i, bool* stop) {
  const CliOptions& o = j->options;
  const int round = j->plan.first + i;
  PrintLines(*j, TrainStage::kRoundBegin, Progress(*j, round, i));
  rabit::SetRound(round);
  rabit::SetPhase("training");
  Status st = j->learner->UpdateOneIter(round);
  if (!st.ok()) return st;
  rabit::SetPhase("evaluation");
  auto results = j->learner->EvalOneIter(round);
  if (!results.ok()) return results.status();
  const booster::RoundCost cost = j->learner->LastRoundCost();
  AddCost(cost, &j->totals);
  ReportRoundStatus(round, j->plan.first + j->plan.rounds, cost, results.value());
  rabit::SetPhase("end of round");
  st = j->learner->CheckRanksAgree(round, o.debug_synchronize);
  if (!st.ok()) return st;
  if (rabit::GetRank() == 0) rabit::TrackerPrint(FormatEvalLine(round, results.value()));
  PrintLines(*j, TrainStage::kRoundEnd, Progress(*j, round, i + 1));
  if (o.early_stopping_rounds > 0) {
    *stop = j->stopping.Update(j->start_round + i, results.value());
  }
  const int period = j->plan.save_period;
  // SIGUSR1 (sbatch --signal): a snapshot now, for the requeued job to resume from.
  if ((period > 0 && (round + 1) % period == 0) || TakeSnapshotRequest()) {
    return SaveModel(j, SnapshotPath(o.model_dir, round + 1, j->learner->Traits().model_suffix));
  }
  return Status::Ok();
}

// Rounds run between rabit checkpoints (docs/fault-tolerance.md): a worker restarted by the
// launcher gets the survivors' state at LoadCheckPoint (after the setup collectives, which the
// robust engine replays from its cache) and continues from that round. Returns the rounds run.
Result<int> RunRounds(TrainJob* j) {
  j->loop_clock.emplace();
  RoundCheckpoint checkpoint(j->learner.get(), &j->stopping);
  // A requeued job starts from rank 0's last snapshot (snapshot_resume.h); 0 otherwise.
  auto snapshot = ResumeFromSnapshot(j->options, j->plan.rounds, j->learner.get());
  if (!snapshot.ok()) return snapshot.status();
  const int resumed = rabit::LoadCheckPoint(&checkpoint);
  if (resumed > 0) {
    if (Status st = checkpoint.Restore(); !st.ok()) return st;
  }
  for (int i = snapshot.value() + resumed; i < j->plan.rounds; ++i) {
    bool stop = false;
    Status st = RunRound(j, i, &stop);
    if (!st.ok()) return st;
    rabit::CheckPoint(&checkpoint);
    if (stop) return i + 1;
  }
  return j->plan.rounds;
}

// XGBoost's rule without its quirk: model_out is always written when given; otherwise
// model_dir/<rounds>.<suffix> unless this job's last periodic snapshot already is that file.
Status SaveFinal(TrainJob* j, int rounds_run) {
  const CliOptions& o = j->options;
  if (!o.model_out.empty()) return SaveModel(j, o.model_out);
  const int rounds = j->plan.first + rounds_run;
  const int period = j->plan.save_period;
  if (period > 0 && rounds_run > 0 && rounds % period == 0) return Status::Ok();
  return SaveModel(j, SnapshotPath(o.model_dir, rounds, j->learner->Traits().model_suffix));
}

// Every rank takes part (one allreduce averages the per-rank totals, one finds the slowest
// rank's compute, which the link model's predicted round waits for); rank 0 prints.
void PrintTimingReport(const TrainJob& j) {
  double sums[5] = {j.totals.comp_s, j.totals.sync_s, j.totals.payload_bytes, j.totals.calls,
                    j.totals.scattered_bytes};
  rabit::Allreduce<rabit::op::Sum>(sums, 5);
  double comp_max = j.totals.comp_s;
  rabit::Allreduce<rabit::op::Max>(&comp_max, 1);
  RoundTotals mean = j.totals;
  mean.workers = rabit::GetWorldSize();
  mean.comp_s = sums[0] / mean.workers;
  mean.sync_s = sums[1] / mean.workers;
  mean.payload_bytes = sums[2] / mean.workers;
  mean.calls = sums[3] / mean.workers;
  mean.scattered_bytes = sums[4] / mean.workers;
  mean.comp_max_s = comp_max;
  const auto link = LinkModelFromParams(j.options.rabit_params);
  for (const std::string& line : FormatTimingReport(mean, j.options.single_worker_seconds, link)) {
    LogRank0(j.options, 1, line);
  }
}

// debug_synchronize: every rank reports the digest of the model file it would write (its
// format follows the final file's extension, as SaveFinal's).
Status ReportDigest(TrainJob* j, int rounds_run) {
  const CliOptions& o = j->options;
  const std::string path = !o.model_out.empty()
                               ? o.model_out
                               : SnapshotPath(o.model_dir, j->plan.first + rounds_run,
                                              j->learner->Traits().model_suffix);
  j->learner->SetAttributes(j->stopping.Attributes());
  auto bytes = j->learner->SerializeModelFile(path);
  if (!bytes.ok()) return bytes.status();
  ReportModelDigest(bytes.value());
  return Status::Ok();
}

}  // namespace

// Everything after the preflight, for the current rank and world: the learner, this rank's
// shard of the data, the rounds (from the last checkpoint when the world just changed), the
// model and the report.
Status TrainInThisWorld(const CliOptions& options) {
  TrainJob job(options);
  // Again after a world change: a worker that joined checks its config with the others.
  Status st = RunPreflight(options);
  if (st.ok()) st = SetUpLearner(&job);
  if (st.ok()) st = LoadDatasets(&job);
  if (st.ok()) st = SetData(&job);
  if (!st.ok()) return st;
  auto rounds_run = RunRounds(&job);
  if (!rounds_run.ok()) return rounds_run.status();
  rabit::SetPhase("saving the model");
  st = SaveFinal(&job, rounds_run.value());
  if (st.ok() && options.debug_synchronize) st = ReportDigest(&job, rounds_run.value());
  if (!st.ok()) return st;
  PrintLines(job, TrainStage::kBeforeTimingReport, Progress(job, 0, rounds_run.value()));
  PrintTimingReport(job);
  PrintLines(job, TrainStage::kAfterTimingReport, Progress(job, 0, rounds_run.value()));
  return Status::Ok();
}

Status RunTrain(const CliOptions& options) {
  // rabit_elastic: a lost worker dropped by the tracker throws rabit::WorldChanged on every
  // survivor; each sets up again for its new rank and shard and resumes from the checkpoint.
  return RepeatWhileWorldChanges([&] { return TrainInThisWorld(options); });
}

}  // namespace treering::cli
