// Learner: what the `treering` driver (booster/cli) trains, evaluates, saves and predicts with,
// whatever the model is: gbtree (booster/tree, XGBoost 1.7 hist) or mlp (booster/mlp,
// synchronous data-parallel SGD). One round is one boosting round or one epoch. The driver owns
// the data, the model directory, the round loop, rabit checkpoints, snapshots, early stopping
// and the timing report; a learner owns its model, its file format and its own output lines.
// Each learner is created from key/value params and a rabit::Comm by its own static Create
// (GBTreeLearner::Create, MlpLearner::Create); booster/cli/learner_factory.cc picks one.
//
// Contract
// * Every global quantity (feature count, statistics, gradients, metric sums) goes through the
//   rabit::Comm given at creation, so the same calls run on one process, on many processes
//   (rabit::DefaultComm()) or on ranks that are threads of one process (tests).
// * Data matrices are kept by pointer and must outlive the learner's use of them. A learner may
//   rewrite their feature values in place (the MLP standardises its inputs: a copy of the
//   training data would double its memory); a matrix given twice (an eval set that is the
//   training data) is rewritten once.
// * Not thread-safe: call from one thread (the one that owns the comm); the learner runs its
//   own parallel loops.
// * Same params + same data => byte-identical model file, whatever the thread count.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "base/param_table.h"
#include "base/status.h"
#include "booster/model_dump.h"  // DumpSpec (booster/model/include/booster/)
#include "data/dmatrix.h"

namespace treering::booster {

using treering::ParamDoc;  // base/param_table.h: key, default, meaning (alias rows: alias_of)
struct EvalResult {
  std::string name;  // "<set>-<metric>", e.g. "test-auc"
  double value;
};
// Where a learner's time went, this process (for the summary line and benchmarks).
struct TimingReport {
  double setup_s = 0, boost_s = 0, eval_s = 0;  // data set-up / rounds / metrics
};
// What the last round (UpdateOneIter + EvalOneIter) cost this rank, for the timing report.
// Each learner counts what its sync-SGD model is about: the tree every collective of the round,
// the MLP its gradient allreduces only.
struct RoundCost {
  double comp_s = 0;           // wall time outside the counted collectives
  double sync_s = 0;           // wall time inside them (includes waiting for peers)
  double payload_bytes = 0;    // bytes handed to them
  double calls = 0;            // how many
  double scattered_bytes = 0;  // of payload_bytes, by reduce-scatters (rabit::CommStats)
};
// The rounds a training job runs. XGBoost's num_round adds rounds to model_in's and numbers
// them from 0; the MLP's `epochs` is the total, numbered on from model_in's epochs.
struct RoundPlan {
  int first = 0;        // number of this job's first round ("[first]", the snapshot names)
  int rounds = 0;       // rounds this job runs (fewer when early stopping ends it)
  int save_period = 0;  // a snapshot after round r when (r + 1) % save_period == 0; 0: none
};
// What task=pred computes per row (XGBoost's Learner::Predict flags); layouts are XGBoost's,
// row-major (docs/cli.md, "Prediction outputs").
enum class PredictOutput {
  kValue,         // predictions (or margins): 1 or num_class per row
  kLeaf,          // pred_leaf: the leaf's node id in each tree, trees in model order
  kContribs,      // pred_contribs: per class, F feature contributions then the bias
  kInteractions,  // pred_interactions: per class, an (F+1) x (F+1) matrix, bias last
};
// task=pred's choices (XGBoost's Learner::Predict arguments).
struct PredictOptions {
  bool output_margin = false;  // raw margins
  // Rounds [iteration_begin, iteration_end) of the model; iteration_end = 0: to the last one.
  // A range beyond the model's rounds is kInvalidInput.
  int iteration_begin = 0;
  int iteration_end = 0;
  PredictOutput output = PredictOutput::kValue;
  bool approx_contribs = false;  // kContribs / kInteractions by Saabas' path attribution
};
// One feature's importance (task=importance), as XGBoost's Booster.get_score reports it.
struct FeatureScore {
  std::uint32_t feature;
  float score;
};
// Why a model file is loaded: continuing training needs a model that fits the params (the MLP
// checks its architecture); prediction takes the model as it is.
enum class ModelUse { kContinueTraining, kPredict };

// What a model file carries beside the trees that a library user reads and sets: the C API's
// attributes (XGBoosterSetAttr) and feature names and types (XGBoosterSetStrFeatureInfo).
struct ModelInfo {
  std::map<std::string, std::string> attributes;
  std::vector<std::string> feature_names;
  std::vector<std::string> feature_types;
};
// A matrix to evaluate, as the C API hands them over per call (XGBoosterEvalOneIter).
struct NamedMatrix {
  std::string name;
  const data::DMatrix* dm;
};

// Points of a training job at which a learner prints its own lines (Learner::Lines).
enum class TrainStage {
  kDataLoaded,          // the driver has read the data sets
  kReady,               // training data and eval sets set, before the first round
  kRoundBegin,          // before UpdateOneIter
  kRoundEnd,            // after the round's metric line
  kBeforeTimingReport,  // after the final save
  kAfterTimingReport,   // after the driver's timing report
};
struct TrainProgress {
  int round = 0;       // the round's number (kRoundBegin, kRoundEnd)
  int rounds_run = 0;  // rounds this job has run
  double load_s = 0;   // reading the data sets
  double loop_s = 0;   // since the round loop began (before rabit::LoadCheckPoint)
  double job_s = 0;    // since the task began
};
struct LogLine {
  int verbosity;  // printed when the `verbosity` key is at least this
  std::string text;
};
// Facts about a learner that the driver acts on.
struct LearnerTraits {
  // Snapshot names are model_dir/<rounds as %04d>.<suffix>: "json" (gbtree), "mlp".
  std::string model_suffix;
  // Early stopping's best_iteration / best_score / best_ntree_limit fit in the model file (the
  // driver refuses early_stopping_rounds otherwise).
  bool stores_attributes = false;
  // Each rank may predict its own shard of the rows (the driver gathers them in rank order);
  // otherwise every rank predicts all rows.
  bool predicts_shards = false;
};

class Learner {
 public:
  virtual ~Learner() = default;

  virtual LearnerTraits Traits() const = 0;

  // --- model files ------------------------------------------------------------------------
  // Reads the file given as model_in (errors name model_in and the file): training continues
  // from it, or Predict uses it.
  virtual Status LoadModelFile(const std::string& path, ModelUse use) = 0;
  // The bytes of the model file as it stands (with the attributes set by SetAttributes).
  virtual Result<std::string> SerializeModel() const = 0;
  // The bytes of the model file `path`, in the format its extension selects where a learner
  // has several (gbtree: .json, .ubj, else XGBoost's legacy binary); SerializeModel's otherwise.
  virtual Result<std::string> SerializeModelFile(const std::string& path) const {
    (void)path;
    return SerializeModel();
  }
  // task=dump: the trees of the model file at `path` as text, JSON or dot; a learner without
  // trees returns kInvalidInput.
  virtual Result<std::string> DumpModelFile(const std::string& path,
                                            const DumpSpec& spec) const = 0;
  // Early stopping's best_iteration, best_score and best_ntree_limit, written into the saved
  // model over any that model_in had (ignored when !Traits().stores_attributes).
  virtual void SetAttributes(const std::map<std::string, std::string>& attributes) = 0;
  // Rounds (boosting rounds, epochs) already in the model.
  virtual int RoundsInModel() const = 0;

  // --- training ---------------------------------------------------------------------------
  // Called after LoadModelFile: the rounds to run given the CLI's num_round and save_period.
  virtual RoundPlan PlanRounds(int num_round, int save_period) const = 0;
  // Agrees on global quantities through the comm and prepares the first round. Errors need
  // not name the data (the caller adds its key and file).
  virtual Status SetTrainData(data::DMatrix* train) = 0;
  // Eval sets in the order they were given, after SetTrainData; errors name the set.
  virtual Status AddEvalSet(const std::string& name, data::DMatrix* dm) = 0;
  virtual Status UpdateOneIter(int iter) = 0;
  // For each eval set (in order), each metric (in config order; default per objective).
  virtual Result<std::vector<EvalResult>> EvalOneIter(int iter) = 0;
  virtual RoundCost LastRoundCost() const = 0;
  // Every rank calls it after each round: fails (kInternal, the same message on every rank)
  // when the ranks no longer hold the same model. `requested` is debug_synchronize; a learner
  // whose check is one small allreduce (the MLP's parameter checksum) runs it every round.
  virtual Status CheckRanksAgree(int iter, bool requested) = 0;
  // The rabit checkpoint: appends what a restarted rank needs to continue exactly where the
  // others are; Restore takes the bytes a surviving rank saved.
  virtual void SaveCheckpoint(std::string* out) const = 0;
  virtual Status RestoreCheckpoint(std::string_view bytes) = 0;
  // The learner's own lines at `stage` (the driver prints them on rank 0's stderr).
  virtual std::vector<LogLine> Lines(TrainStage stage, const TrainProgress& progress) const = 0;
  virtual TimingReport Timing() const = 0;

  // --- prediction -------------------------------------------------------------------------
  // Row-major: one value per row, or num_class per row for multi:softprob / multi-class
  // margins. multi:softmax gives the class index as float. Errors need not name the data (the
  // caller adds its key and file).
  virtual Status Predict(data::DMatrix* dm, const PredictOptions& options,
                         std::vector<float>* out) const = 0;
  // task=importance: features the model splits on, by index, scored by `type` (weight, gain,
  // cover, total_gain or total_cover; checked by the CLI). A learner without trees says so.
  virtual Result<std::vector<FeatureScore>> FeatureImportance(const std::string& type) const {
    (void)type;
    return Status::InvalidInput("task=importance needs a tree model (booster=gbtree)");
  }

  // --- library use (capi/: XGBoost's C API) -----------------------------------------------
  // The C API drives a learner one call at a time: the training matrix may change between
  // rounds, eval sets come with each call, and models arrive as bytes. A learner that has no
  // such support refuses (the defaults below).
  //
  // A model file's bytes in any format the learner reads, recognised by content; `source`
  // names them in errors. On failure the learner is unchanged.
  virtual Status LoadModelBytes(std::string_view bytes, const std::string& source) {
    (void)bytes;
    return Status::InvalidInput(source + ": this booster cannot load a model from memory");
  }
  // The model's rounds [begin, end) taking every step-th (XGBoost's Slice; end 0 = the last
  // round), as JSON model bytes. A range outside the model is kInvalidInput.
  virtual Result<std::string> SliceModel(int begin, int end, int step) const {
    (void)begin, (void)end, (void)step;
    return Status::InvalidInput("this booster cannot be sliced");
  }
  // The model file as SerializeModelFile("*.json") writes it but without its trees, and in
  // *num_trees how many it has: what a booster's configuration repeats (XGBoost's
  // save_config, pickles) without writing megabytes of trees. The default writes the whole
  // model and sets -1 (the caller counts the trees itself).
  virtual Result<std::string> SerializeModelHeader(std::int64_t* num_trees) const {
    *num_trees = -1;
    return SerializeModelFile("model.json");
  }
  // Features of the model (0 before any training or loading).
  virtual std::uint64_t NumFeatures() const { return 0; }
  // Attributes, feature names and types of the model; Set replaces them (empty feature_types
  // keep the learner's own, which training takes from the params).
  virtual ModelInfo GetModelInfo() const { return {}; }
  virtual void SetModelInfo(const ModelInfo& info) { (void)info; }
  // One round from the caller's gradients (XGBoosterBoostOneIter): grad and hess hold
  // rows x output groups values, row-major, for the matrix SetTrainData gave.
  virtual Status BoostFromGradients(const std::vector<float>& grad,
                                    const std::vector<float>& hess) {
    (void)grad, (void)hess;
    return Status::InvalidInput("this booster cannot train from custom gradients");
  }
  // The metrics on each set (in order), margins cached per matrix between calls; a matrix
  // whose data changed must be forgotten first (ForgetMatrix).
  virtual Result<std::vector<EvalResult>> EvalOn(const std::vector<NamedMatrix>& sets) {
    (void)sets;
    return Status::InvalidInput("this booster cannot evaluate sets given per call");
  }
  virtual void ForgetMatrix(const data::DMatrix* dm) { (void)dm; }
  // Changes one parameter of a learner that is training, where that needs nothing rebuilt
  // (a learning-rate schedule changes eta every round): true when applied, false when the
  // learner must be rebuilt for it, an error naming the key for a bad value.
  virtual Result<bool> TuneInPlace(const std::string& key, const std::string& value) {
    (void)key, (void)value;
    return false;
  }
};

}  // namespace treering::booster
