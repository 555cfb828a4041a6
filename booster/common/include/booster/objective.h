// Objective: turns margins into gradient pairs and predictions (XGBoost 1.7 formulas, float
// arithmetic as XGBoost does it, so trees match bit for bit on easy data).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "base/context.h"
#include "base/status.h"

namespace treering::booster {

struct GradientPair {
  float grad = 0.0f;
  float hess = 0.0f;
};

// Largest |grad| and |hess| over a set of gradient pairs, each accumulated from 0 as
// m = std::max(m, std::fabs(v)) (so NaN values are skipped): the inputs of GradientQuantiser's
// scales.
struct GradientMaxima {
  float grad = 0.0f;
  float hess = 0.0f;
  void Include(GradientPair g) {
    grad = std::max(grad, std::fabs(g.grad));
    hess = std::max(hess, std::fabs(g.hess));
  }
  void Include(const GradientMaxima& o) {  // o holds no NaN
    grad = std::max(grad, o.grad);
    hess = std::max(hess, o.hess);
  }
};

// The maxima of `gpair` (a pass over it, parallel; a max does not depend on the split).
GradientMaxima MaximaOf(const std::vector<GradientPair>& gpair, int nthread);

struct ObjectiveConfig {
  std::string name = "reg:squarederror";
  int num_class = 0;
  float scale_pos_weight = 1.0f;
  float max_delta_step = 0.7f;          // count:poisson's own hessian safeguard
  float huber_slope = 1.0f;             // reg:pseudohubererror (pseudo_huber_param)
  float tweedie_variance_power = 1.5f;  // reg:tweedie, in [1, 2) (tweedie_regression_param)
  int num_pairsample = 1;               // rank:*: pairs drawn per document (lambda_rank_param)
  float fix_list_weight = 0.0f;         // rank:*: list weight normaliser, 0 = none
  std::string aft_loss_distribution = "normal";  // survival:aft: normal, logistic or extreme
  float aft_loss_distribution_scale = 1.0f;      // survival:aft: sigma of the noise
  // reg:quantileerror (XGBoost 2.x's quantile_loss_param): one output per alpha, each in (0, 1).
  std::vector<float> quantile_alpha{0.5f};
};

// Labels and optional weights of the rows an objective or metric looks at.
struct LabelView {
  const std::vector<float>* label = nullptr;
  const std::vector<float>* weight = nullptr;  // empty = all 1
  // Query groups (XGBoost's group_ptr_): group g is rows [group_ptr[g], group_ptr[g + 1]).
  // Null or empty = all rows form one group. Only rank:* objectives and metrics look at it.
  const std::vector<std::uint64_t>* group_ptr = nullptr;
  // The boosting round being grown: rank:* seeds its pair sampler with it as XGBoost does.
  int iteration = 0;
  // survival:aft's interval per row (XGBoost's label_lower_bound / label_upper_bound); null or
  // empty when unset. Only survival:aft and the survival metrics look at them.
  const std::vector<float>* lower_bound = nullptr;
  const std::vector<float>* upper_bound = nullptr;
  float Weight(std::size_t row) const { return weight->empty() ? 1.0f : (*weight)[row]; }
  std::size_t NumRows() const { return label->size(); }
  // Multi-target labels (data::DMatrix::label_columns): `label` is rows x label_columns,
  // row-major, `weight` still one per row. Objectives and metrics that see one label per
  // element get ElementLabels' view instead, where this is 1 again.
  std::size_t label_columns = 1;
};

// `rows` seen one element at a time, as XGBoost 1.7's elementwise objectives and metrics see a
// rows x targets label matrix: every label element is a "row" whose weight is its row's.
// `weights` holds the expanded weights (left empty when `rows` has none); the view points into
// it and into rows.label.
LabelView ElementLabels(const LabelView& rows, std::vector<float>* weights);

class Objective {
 public:
  static Result<std::unique_ptr<Objective>> Create(const ObjectiveConfig& config);
  virtual ~Objective() = default;

  virtual const std::string& Name() const = 0;
  // Outputs (margins) per row: num_class for multi-class (and for any objective given
  // num_class > 1), else 1.
  virtual int NumGroups() const { return 1; }
  // Rejects labels the objective cannot learn from (e.g. a logistic label outside [0, 1]).
  virtual Status CheckLabels(const LabelView& labels) const = 0;
  // Whether GetGradient can be used: not for a one-output objective asked for num_class > 1
  // outputs, which trains only on the caller's gradients (a Python custom objective).
  virtual Status CanComputeGradients() const { return Status::Ok(); }
  // margin: NumGroups() values per row. out: one pair per margin value (row-major).
  virtual void GetGradient(const std::vector<float>& margin, const LabelView& labels,
                           const Context& ctx, std::vector<GradientPair>* out) const = 0;
  // GetGradient (the same pairs) that also returns the maxima over all of `out` (every group),
  // taken while the objective has the values at hand, so a caller can skip its own pass. They
  // describe the pairs as returned: rows a caller later drops (subsampling) still count. The
  // default calls GetGradient and scans `out`.
  virtual GradientMaxima GetGradientAndMaxima(const std::vector<float>& margin,
                                              const LabelView& labels, const Context& ctx,
                                              std::vector<GradientPair>* out) const;
  // In place, margins -> what `predict` returns (probabilities, class index, counts).
  virtual void PredTransform(std::vector<float>* values, const Context& ctx) const = 0;
  // In place, margins -> what metrics look at (multi:softmax gives probabilities here).
  virtual void EvalTransform(std::vector<float>* values, const Context& ctx) const {
    PredTransform(values, ctx);
  }
  // User-space base_score -> margin (logit for logistic, log for poisson).
  virtual Result<float> ProbToMargin(float base_score) const { return base_score; }
  // XGBoost 1.7's default metric for this objective.
  virtual std::string DefaultMetric() const = 0;
  // XGBoost 1.7's adaptive objectives (ObjInfo::UpdateTreeLeaf, reg:absoluteerror): the quantile
  // each hist tree's leaves are reset to (of their rows' residuals), and an unset base_score
  // starts at the weighted median of the labels. nullopt: leaves stay as grown.
  virtual std::optional<double> LeafQuantile() const { return std::nullopt; }
  // LeafQuantile for the trees of output group `group` (reg:quantileerror: that group's alpha).
  virtual std::optional<double> LeafQuantileOf(int /*group*/) const { return LeafQuantile(); }
  // Whether each refreshed leaf is scaled by eta (XGBoost 2.x's UpdateTreeLeaf does, 1.7's
  // reg:absoluteerror does not).
  virtual bool LeafRefreshScaledByEta() const { return false; }
  // XGBoost 2.x's intercept of reg:quantileerror: an unset base_score starts at the mean over
  // these alphas of the labels' weighted alpha-quantiles. Empty for every other objective.
  virtual std::vector<float> InterceptQuantiles() const { return {}; }
};

// XGBoost 1.7's multi-target regression (one_output_per_tree): `one` (an elementwise objective
// with one output per row) applied to every element of rows x `targets` labels, NumGroups() =
// targets. Refused, naming the objective, for objectives 1.7 refuses ("multioutput is not
// supported by current objective function"): all but reg:squarederror, reg:squaredlogerror,
// reg:logistic, binary:logistic, binary:logitraw and reg:pseudohubererror.
Result<std::unique_ptr<Objective>> WithTargets(std::unique_ptr<Objective> one, int targets);
// WithTargets' refusal, without consuming the objective.
Status CheckTargets(const Objective& one, int targets);

}  // namespace treering::booster
