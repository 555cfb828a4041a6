// GBTreeLearner: the Learner implementation (gbtree + hist). Private to booster/tree.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "booster/binned_matrix.h"
#include "booster/column_sampler.h"
#include "booster/hist_cuts.h"
#include "booster/learner.h"
#include "booster/learner_param.h"
#include "booster/metric.h"
#include "booster/objective.h"
#include "booster/tree_grower.h"
#include "booster/tree_param.h"

namespace treering::booster {

class GBTreeLearner : public Learner {
 public:
  GBTreeLearner(LearnerParam lparam, TreeParam tparam, std::unique_ptr<Objective> objective,
                rabit::Comm* comm);

  Status LoadModel(GBTreeModel model) override;
  const GBTreeModel& Model() const override { return model_; }
  Status SetTrainData(const data::DMatrix* train) override;
  Status AddEvalSet(const std::string& name, const data::DMatrix* dm) override;
  Status UpdateOneIter(int iter) override;
  Result<std::vector<EvalResult>> EvalOneIter(int iter) override;
  Status Predict(const data::DMatrix& dm, bool output_margin,
                 std::vector<float>* out) const override;
  TimingReport Timing() const override { return timing_; }

 private:
  struct EvalSet {
    std::string name;
    const data::DMatrix* dm;
    std::vector<float> margins;  // base margin + trees [0, trees_applied)
    int trees_applied = 0;
  };

  Status CheckData(const data::DMatrix& dm, const std::string& what) const;
  Status ResolveMetrics();
  std::vector<float> BaseMargins(std::size_t rows) const;
  // Brings cached margins up to date with the model's trees.
  void CatchUp(const data::DMatrix& dm, std::vector<float>* margins, int* trees_applied) const;
  void SampleRows(int iter, int group, std::vector<GradientPair>* gpair) const;
  // maxima: the gradients' maxima when already known (one group, no subsampling), else null.
  void BoostGroup(int group, const std::vector<GradientPair>& all_gpair,
                  const GradientMaxima* maxima);
  void AddLeavesToMargins(const RegTree& tree, int group);

  LearnerParam lparam_;
  TreeParam tparam_;
  std::unique_ptr<Objective> objective_;
  rabit::Comm* comm_;
  std::vector<std::unique_ptr<Metric>> metrics_;
  GBTreeModel model_;
  float base_margin_ = 0.0f;
  std::uint64_t seed_ = 0;

  const data::DMatrix* train_ = nullptr;
  HistogramCuts cuts_;
  std::optional<BinnedMatrix> binned_;
  std::optional<ColumnSampler> sampler_;
  std::optional<TreeGrower> grower_;
  std::vector<float> train_margins_;
  // This round's gradients and the current class's copy (multi-class or subsample): kept
  // between rounds because fresh 8-16 MB vectors page-faulted on every round (~3 ms per
  // round on higgs1m).
  std::vector<GradientPair> gpair_;
  std::vector<GradientPair> group_gpair_;
  int train_trees_applied_ = 0;
  std::vector<EvalSet> eval_sets_;
  TimingReport timing_;
};

}  // namespace treering::booster
