// GBTreeLearner: the gradient-boosted tree learner (XGBoost 1.7 tree_method=hist semantics)
// behind the Learner interface (booster/learner.h): one boosting round per UpdateOneIter,
// XGBoost 1.7 JSON model files. Beyond the interface it gives its GBTreeModel to programs that
// drive it directly (tests, benchmarks).
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "base/context.h"
#include "booster/learner.h"
#include "booster/learner_param.h"
#include "booster/metric.h"
#include "booster/model_io.h"
#include "booster/objective.h"
#include "booster/tree/dart/dart_booster.h"
#include "booster/tree/dart/dart_param.h"
#include "booster/tree/grow/tree_updater.h"
#include "booster/tree/learner/update_param.h"
#include "booster/tree/predict/predictor.h"
#include "booster/tree_model.h"
#include "booster/tree_param.h"
#include "rabit/comm.h"

namespace treering::booster {

class GBTreeLearner : public Learner {
 public:
  // Every key Create accepts, with default and meaning (for --help and the CLI's "unknown key,
  // did you mean" check). Includes objective, eta/learning_rate, max_depth, ...
  static const std::vector<ParamDoc>& Params();
  // Ordered key/value pairs; repeated keys are kept (several eval_metric). Unknown key or bad
  // value => Status kInvalidInput naming the key and the allowed range. nthread, seed and
  // verbosity are not among them: they come in `ctx`, which the learner copies (as XGBoost's
  // Learner owns its Context). `comm` must outlive the learner.
  static Result<std::unique_ptr<GBTreeLearner>> Create(
      const std::vector<std::pair<std::string, std::string>>& params, const Context& ctx,
      rabit::Comm* comm);

  GBTreeLearner(LearnerParam lparam, TreeParam tparam, std::unique_ptr<Objective> objective,
                const Context& ctx, rabit::Comm* comm, DartParam dart = {},
                UpdateParam update = {});

  // A model to continue training from or predict with (objective & num_class must agree with
  // the params unless the params did not set them, then the model's are taken).
  Status LoadModel(GBTreeModel model);
  const GBTreeModel& Model() const { return model_; }

  // Trees read each row alone, so ranks may predict their own shards.
  LearnerTraits Traits() const override { return {"model", true, true}; }

  // Learner: training and prediction (gbtree_learner.cc). Trees never rewrite the data.
  Status SetTrainData(data::DMatrix* train) override;
  // The caller reads no feature value of the training matrix after SetTrainData (the CLI):
  // dense values may be freed once binned where training never reads them again
  // (train_memory.h).
  void AllowTrainValueDrop(bool allow) { allow_train_value_drop_ = allow; }
  // After AllowTrainValueDrop, before SetTrainData: whether the training load may stream a
  // dense file into column files (data::LoadOptions::stream_dense; train_memory.h).
  bool StreamableTrainLoad() const;
  Status AddEvalSet(const std::string& name, data::DMatrix* dm) override;
  Status UpdateOneIter(int iter) override;
  Result<std::vector<EvalResult>> EvalOneIter(int iter) override;
  RoundCost LastRoundCost() const override { return round_cost_; }
  TimingReport Timing() const override { return timing_; }
  Status Predict(data::DMatrix* dm, const PredictOptions& options,
                 std::vector<float>* out) const override;
  // Predict (values or margins, options.output kValue) on dense rows read where they are
  // (inplace prediction); `base_margin` is empty or rows x groups values. The same floats as
  // Predict on the rows copied into a DMatrix (gbtree_predict_dense.cc).
  Status PredictDense(const DenseRows& rows, const std::vector<float>& base_margin,
                      const PredictOptions& options, std::vector<float>* out) const;
  // The end of options' round range (iteration_end = 0: every round), or why it is invalid.
  Result<int> IterationEnd(const PredictOptions& options) const;
  // Learner: leaf indices, SHAP values and feature importance (gbtree_explain.cc).
  Result<std::vector<FeatureScore>> FeatureImportance(const std::string& type) const override;

  // Learner: XGBoost 1.7 JSON / UBJSON / legacy binary files, task=dump, rabit checkpoints
  // (gbtree_files.cc).
  Status LoadModelFile(const std::string& path, ModelUse use) override;
  Result<std::string> SerializeModel() const override;
  Result<std::string> SerializeModelFile(const std::string& path) const override;
  void SetAttributes(const std::map<std::string, std::string>& attributes) override;
  int RoundsInModel() const override { return model_.NumRounds(); }
  Result<std::string> DumpModelFile(const std::string& path, const DumpSpec& spec) const override;
  void SaveCheckpoint(std::string* out) const override;
  Status RestoreCheckpoint(std::string_view bytes) override;

  // Learner: what the C API adds (gbtree_library.cc).
  Status LoadModelBytes(std::string_view bytes, const std::string& source) override;
  Result<std::string> SliceModel(int begin, int end, int step) const override;
  Result<std::string> SerializeModelHeader(std::int64_t* num_trees) const override;
  std::uint64_t NumFeatures() const override { return model_.num_feature; }
  ModelInfo GetModelInfo() const override;
  void SetModelInfo(const ModelInfo& info) override;
  Status BoostFromGradients(const std::vector<float>& grad,
                            const std::vector<float>& hess) override;
  Result<std::vector<EvalResult>> EvalOn(const std::vector<NamedMatrix>& sets) override;
  void ForgetMatrix(const data::DMatrix* dm) override;
  Result<bool> TuneInPlace(const std::string& key, const std::string& value) override;

  // Learner: the driver's round loop (gbtree_progress.cc).
  RoundPlan PlanRounds(int num_round, int save_period) const override;
  Status CheckRanksAgree(int iter, bool requested) override;
  std::vector<LogLine> Lines(TrainStage stage, const TrainProgress& progress) const override;

 private:
  struct EvalSet {
    std::string name;
    const data::DMatrix* dm;
    std::vector<float> margins;  // base margin + trees [0, trees_applied)
    int trees_applied = 0;
  };

  Status CheckData(const data::DMatrix& dm, const std::string& what) const;
  // Label columns the objective takes: num_target for multi-target regression, else 1.
  std::size_t LabelColumns() const;
  // Multi-target regression: wraps the objective for the training labels' columns.
  Status AdoptTargets(const data::DMatrix& train);
  // metric over dm's labels (every element of a multi-target matrix).
  Result<double> Score(const Metric& metric, const std::vector<float>& preds,
                       const data::DMatrix& dm) const;
  Status ResolveMetrics();
  // The starting margins of dm's rows: its base_margin, else base_score's margin.
  std::vector<float> BaseMargins(const data::DMatrix& dm) const;
  // A round's start (training margins up to date, dart's drops) and end (dart's weights).
  void BeginRound();
  void EndRound();
  // Brings cached margins up to date with the model's trees.
  void CatchUp(const data::DMatrix& dm, std::vector<float>* margins, int* trees_applied) const;
  // k: the tree's place among the round's num_parallel_tree trees of its group. Copies the
  // group's pairs src[row * stride] into *out with the rows left out zeroed; returns their maxima.
  GradientMaxima SampleGradients(int iter, int group, int k, const GradientPair* src,
                                 std::size_t stride, std::vector<GradientPair>* out) const;
  // Grows one tree of `group` from its gradients and appends it to the model.
  void GrowTree(int group, const std::vector<GradientPair>& gpair, const GradientMaxima* maxima);
  // maxima: the gradients' maxima when already known (one group, no subsampling), else null.
  void BoostGroup(int group, const std::vector<GradientPair>& all_gpair,
                  const GradientMaxima* maxima);
  void AddLeavesToMargins(const RegTree& tree, int group);
  // Whether a round's trees reach the training margins in EndRound (a forest that refreshes
  // leaves or has no row partition), not as each is grown.
  bool ForestAddedAtEnd() const;
  // Whether sampled forests take each tree's root from the forest's total (forest_root.cc):
  // yes unless TREERING_FOREST_ROOT=0, which builds every root from its own rows (the tests
  // compare the two models; docs/learner.md, "Forests").
  static bool ForestRootFromTotal();
  // A sampled forest's unsampled pairs of `group` (all_gpair itself, or a copy when several
  // groups interleave theirs), or null where the roots are built from their own rows
  // (row_sampling.cc, with SampleGradients).
  const std::vector<GradientPair>* ForestGradients(int group,
                                                   const std::vector<GradientPair>& all_gpair);
  // XGBoost 1.7's tree_method choice for this data; sets method_note_.
  Result<std::string> ResolveTreeMethod(const data::DMatrix& train);
  // process_type=update (gbtree_update.cc): the first call moves the model's trees aside;
  // each round then takes the next round's trees, changes them with the updaters and puts
  // them back.
  Status StartUpdateProcess();
  Status UpdateExistingRound();
  // Predict's pred_leaf / pred_contribs / pred_interactions, trees of rounds [0, end).
  Status Explain(const data::DMatrix& dm, const PredictOptions& options, int end,
                 std::vector<float>* out) const;

  LearnerParam lparam_;
  TreeParam tparam_;
  // What the growers read (by reference): tparam_ with eta divided by num_parallel_tree, as
  // XGBoost 1.7's updaters rescale learning_rate by the number of trees they grow at once.
  TreeParam grow_param_;
  std::unique_ptr<Objective> objective_;
  Context ctx_;  // threads and the seed; the tree updater and its parts keep a reference
  rabit::Comm* comm_;
  std::vector<std::unique_ptr<Metric>> metrics_;
  GBTreeModel model_;
  // Early stopping's attributes, laid over model_'s when the model is serialised (the rabit
  // checkpoint holds the model without them; the driver keeps that state).
  std::map<std::string, std::string> attributes_;
  float base_margin_ = 0.0f;
  std::uint64_t seed_ = 0;
  std::uint64_t row_offset_ = 0;  // this rank's first global row (SampleRows)
  DartParam dart_param_;
  std::optional<DartRounds> dart_;  // booster=dart: from SetTrainData (or a dart model loaded)
  UpdateParam update_param_;
  // process_type=update: the loaded model's trees not yet updated are
  // trees_to_update_[model_.trees.size() ...] (XGBoost's GBTreeModel::trees_to_update).
  std::vector<RegTree> trees_to_update_;
  bool update_started_ = false;

  const data::DMatrix* train_ = nullptr;
  bool allow_train_value_drop_ = false;
  bool train_values_dropped_ = false;  // train_'s values freed: margins come from the partition
  // One group's gradients -> one tree, for train_ (cuts, bins, sampler, sync, grower).
  std::unique_ptr<TreeUpdater> updater_;
  std::string method_note_;  // why this tree method, printed at verbosity 1
  std::string gpu_note_;     // the GPU words' one warning (tree_method.cc), also at verbosity 1
  std::vector<float> train_margins_;
  // This round's gradients and the current class's copy (multi-class or subsample): kept
  // between rounds because fresh vectors of a gradient per row page-faulted in every round
  // (docs/benchmarks.md, "Measurements behind code comments").
  std::vector<GradientPair> gpair_;
  std::vector<GradientPair> group_gpair_;
  std::vector<GradientPair> forest_gpair_;  // a sampled multi-class forest's unsampled pairs
  int train_trees_applied_ = 0;
  std::vector<EvalSet> eval_sets_;
  // EvalOn's margins per matrix (the C API's eval sets, given per call).
  std::map<const data::DMatrix*, EvalSet> eval_cache_;
  TimingReport timing_;
  RoundCost round_cost_;
  int round_first_tree_ = 0;  // trees before this round's UpdateOneIter (CheckRanksAgree)
  // Formatted trees kept from one checkpoint to the next (SaveCheckpoint is logically const:
  // a cache; booster::IncrementalModelJson).
  mutable IncrementalModelJson checkpoint_json_;
};

}  // namespace treering::booster
