// Learner: the gradient-boosted tree learner (XGBoost 1.7 tree_method=hist semantics) as the
// `treering` CLI drives it: configure from key=value pairs, set training data, add eval sets,
// one boosting round per UpdateOneIter, metrics per EvalOneIter, predictions on any DMatrix.
//
// Contract
// * Every global quantity (feature count, base score, sketches, histograms, metric sums) goes
//   through the rabit::Comm handed to Create, so the same calls run on one process, on many
//   processes (rabit::DefaultComm()) or on ranks that are threads of one process (tests).
// * Data matrices are kept by pointer and must outlive the learner's use of them.
// * Not thread-safe: call from one thread (the one that owns the comm); the learner runs
//   its own parallel loops with `nthread` threads.
// * Same params + same data => byte-identical model, whatever `nthread` is.
#pragma once

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "booster/tree_model.h"  // GBTreeModel (booster/model/include/booster/)
#include "data/dmatrix.h"
#include "base/param_table.h"
#include "base/status.h"
#include "rabit/comm.h"

namespace treering::booster {

using treering::ParamDoc;  // base/param_table.h: key, default, meaning (alias rows: alias_of)
struct EvalResult {
  std::string name;  // "<set>-<metric>", e.g. "test-auc"
  double value;
};
struct TimingReport {
  double setup_s = 0, boost_s = 0, eval_s = 0;  // sketch+binning / trees / metrics
};

class Learner {
 public:
  // Every key Learner::Create accepts, with default and meaning (for --help and the CLI's
  // "unknown key, did you mean" check). Includes objective, eta/learning_rate, max_depth, ...
  static const std::vector<ParamDoc>& Params();
  // Ordered key/value pairs; repeated keys are kept (several eval_metric). Unknown key or bad
  // value => Status kInvalidInput naming the key and the allowed range. Every global quantity
  // goes through `comm` (the ranks training together; must outlive the learner).
  static Result<std::unique_ptr<Learner>> Create(
      const std::vector<std::pair<std::string, std::string>>& params, rabit::Comm* comm);
  virtual ~Learner();
  // model_in: continue training from it / predict with it (objective & num_class must agree
  // with the params unless the params did not set them, then the model's are taken).
  virtual Status LoadModel(GBTreeModel model) = 0;
  virtual const GBTreeModel& Model() const = 0;
  // Training data (kept by pointer; must outlive the learner's training). Agrees num_feature
  // and any global statistic through rabit (single engine now), builds cuts and the binned matrix.
  virtual Status SetTrainData(const data::DMatrix* train) = 0;
  // Eval sets in the order they were given (kept by pointer). "train" may be added by the CLI.
  virtual Status AddEvalSet(const std::string& name, const data::DMatrix* dm) = 0;
  virtual Status UpdateOneIter(int iter) = 0;
  // For each eval set (in order), each metric (in config order; default per objective).
  virtual Result<std::vector<EvalResult>> EvalOneIter(int iter) = 0;
  // Row-major: one value per row, or num_class per row for multi:softprob / pred_margin with
  // multi-class. output_margin = raw margins. multi:softmax gives the class index as float.
  virtual Status Predict(const data::DMatrix& dm, bool output_margin,
                         std::vector<float>* out) const = 0;
  virtual TimingReport Timing() const = 0;
};

}  // namespace treering::booster
