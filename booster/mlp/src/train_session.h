// One task=train run of booster=mlp: load shards, agree on inputs and scaling, start or resume
// the trainer, run epochs (metric line, progress line, snapshots, rank agreement), save.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "booster/metric.h"
#include "booster/mlp/mlp_task.h"
#include "booster/mlp/model_file.h"
#include "booster/mlp/trainer.h"
#include "booster/objective.h"
#include "data/dmatrix.h"

namespace treering::booster::mlp {

Result<data::DMatrix> LoadShard(const std::string& key, const std::string& uri, int nthread,
                                bool shard);
void LogRank0(const MlpTaskOptions& o, int level, const std::string& line);
Result<std::unique_ptr<Objective>> MakeObjective(const std::string& name, int num_class);

class EpochCheckpoint;

class TrainSession {
 public:
  TrainSession(const MlpParam& param, const MlpTaskOptions& options);
  Status Load();     // data, eval sets, model_in
  Status Prepare();  // inputs, scaling, objective, metrics, trainer
  Status Train();    // epochs, snapshots, final model, summary
  MlpModel Snapshot() const;  // the model file's content now

 private:
  struct EvalSet {
    std::string name;
    const data::DMatrix* matrix;
  };
  Status CheckResumable() const;
  Result<std::vector<EvalResult>> Evaluate();
  Status Save(const std::string& path) const;
  // rabit::LoadCheckPoint before the first epoch (after the setup collectives, which the
  // robust engine replays): a restarted worker continues from the survivors' epoch.
  Status ResumeFromCheckPoint(EpochCheckpoint* checkpoint);
  std::string SnapshotPath(int epochs) const;
  void PrintEpoch(int epoch, const std::vector<EvalResult>& results, const EpochReport& r,
                  double wall_s) const;

  MlpParam param_;
  const MlpTaskOptions& options_;
  rabit::Comm* comm_;
  data::DMatrix train_;
  std::vector<std::unique_ptr<data::DMatrix>> eval_data_;
  std::vector<EvalSet> evals_;
  std::unique_ptr<MlpModel> resume_;
  std::unique_ptr<Objective> objective_;
  std::vector<std::unique_ptr<Metric>> metrics_;
  InputScaling scaling_;
  std::unique_ptr<Trainer> trainer_;
  void PrintTiming(double wall_s);

  SyncTotals totals_;
};

}  // namespace treering::booster::mlp
