// Split evaluation with XGBoost 1.7's formulas (tree/param.h, split_evaluator.h,
// hist/evaluate_splits.h), including where it rounds to float, so that equal histograms give
// equal trees:
//   weight w(G, H)   = -ThresholdL1(G, alpha) / (H + lambda), clipped to +-max_delta_step;
//                      0 when H < min_child_weight or H <= 0
//   gain(G, H)       = ThresholdL1(G, alpha)^2 / (H + lambda)       (max_delta_step = 0)
//                    = -(2 G w + (H + lambda) w^2)                   (otherwise)
//   loss_chg         = gain(left) + gain(right) - gain(parent)      (no 1/2, no gamma)
// Missing values: a forward scan sends them right, a backward scan left; the better wins
// (both run as one pass over the bins here, with XGBoost's preference order kept).
// Ties: larger gain wins; equal gain -> the smaller feature index (then the earlier scan).
// Monotone constraints (XGBoost's TreeEvaluator): a node's weights are clamped to its bounds,
// every gain then comes from the clamped weight, -(2 G w + (H + lambda) w^2), and a split on a
// constrained feature whose children's weights go the wrong way is no candidate. A split
// hands its children the bounds cut at the mean of their two weights (ChildBounds).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>
#if defined(__x86_64__)
#include <emmintrin.h>
#endif

#include "booster/tree/hist/gradient_quantiser.h"
#include "booster/tree/hist/histogram.h"
#include "booster/tree/sketch/hist_cuts.h"
#include "booster/tree_param.h"

namespace treering::booster {

struct SplitCandidate {
  float loss_chg = 0.0f;
  std::uint32_t feature = 0;
  int split_bin = -1;        // local bin: rows with bin <= split_bin go left
  float split_value = 0.0f;  // go left iff value < split_value
  bool default_left = false;
  GradientPairInt left_sum, right_sum;
  // Categorical splits (categorical_split.cc): kNone for a numerical split. kOneHot sends the
  // category split_bin right; kPartition the first cat_count categories of the node's gradient
  // order right (CategorySet rebuilds them from the node's histogram, so the candidate stays a
  // fixed-size record that ranks can exchange).
  enum CatKind : std::uint8_t { kNone = 0, kOneHot = 1, kPartition = 2 };
  CatKind cat_kind = kNone;
  std::int32_t cat_count = 0;

  // XGBoost's SplitEntry::NeedReplace.
  bool NeedReplace(float new_loss_chg, std::uint32_t new_feature) const;
  void Update(const SplitCandidate& other) {
    if (NeedReplace(other.loss_chg, other.feature)) *this = other;
  }
};

// The weights a node's leaf value may take under monotone constraints (unbounded without).
struct WeightBounds {
  float lower = -std::numeric_limits<float>::max();
  float upper = std::numeric_limits<float>::max();
};

// Which (node, feature) pairs of an evaluation this caller scans, and which features' slices
// of a derived sibling it writes: every pair (the default), every world-th pair in input
// order (ranks holding the same histograms deal the pairs round-robin), or the features whose
// owner_of_feature is `rank` (ranks holding only their own features' sums). The histogram
// sync strategy (booster/tree/sync/histogram_sync.h) chooses it and combines the shares.
struct ScanShare {
  int world = 1;
  int rank = 0;
  const std::vector<int>* owner_of_feature = nullptr;  // not owned
};

// Holds references: param, cuts and quantiser must outlive the evaluator.
class SplitEvaluator {
 public:
  SplitEvaluator(const TreeParam& param, const HistogramCuts& cuts,
                 const GradientQuantiser& quantiser)
      : param_(param), cuts_(cuts), quantiser_(quantiser) {
    for (int c : param.monotone_constraints) constrained_ = constrained_ || c != 0;
  }

  // The AVX-512 scan (split_scan.h) is used when the CPU has it and max_delta_step is 0; it
  // gives the scalar scan's results bit for bit. Off: the scalar scan always (tests, A/B).
  void SetVectorScan(bool on) { vector_scan_ = on; }
  bool VectorScanActive() const;

  float Weight(double grad, double hess) const {
    if (hess < param_.min_child_weight || hess <= 0.0) return 0.0f;
    double w = -ThresholdL1(grad, param_.reg_alpha) / (hess + param_.reg_lambda);
    if (param_.max_delta_step != 0.0f && std::fabs(w) > param_.max_delta_step) {
      w = std::copysign(static_cast<double>(param_.max_delta_step), w);
    }
    return static_cast<float>(w);
  }
  float Gain(double grad, double hess) const {
    if (hess <= 0.0) return 0.0f;
    if (param_.max_delta_step == 0.0f) {
      const double t = ThresholdL1(grad, param_.reg_alpha);
      return static_cast<float>(t * t / (hess + param_.reg_lambda));
    }
    const double w = Weight(grad, hess);
    return static_cast<float>(-(2.0 * grad * w + (hess + param_.reg_lambda) * w * w));
  }
  float Weight(GradientPairInt sum) const { return Weight(G(sum), H(sum)); }
  // The weight of a child of a node with bounds b (XGBoost's TreeEvaluator::CalcWeight).
  float Weight(GradientPairInt sum, const WeightBounds& b) const {
    const float w = Weight(sum);
    if (!constrained_) return w;
    return std::min(std::max(w, b.lower), b.upper);
  }
  // A node's gain: from its bounded weight when any feature is constrained.
  float Gain(GradientPairInt sum, const WeightBounds& b) const {
    if (!constrained_) return Gain(sum);
    return GainGivenWeight(sum, Weight(sum, b));
  }
  bool Constrained() const { return constrained_; }
  // The bounds of the children of a split of a node with bounds `parent` on feature f whose
  // children have weights wl and wr (XGBoost's TreeEvaluator::AddSplit).
  void ChildBounds(const WeightBounds& parent, std::uint32_t f, float wl, float wr,
                   WeightBounds* left, WeightBounds* right) const;
  // Gain(a) + Gain(b) as float, bit for bit (both sides of a candidate split at once). Inline:
  // it runs once per histogram bin of every node and feature.
  float GainSum(GradientPairInt a, GradientPairInt b) const {
#if defined(__x86_64__)
    // The two divisions are most of a candidate's cost; one divpd does both with the same
    // IEEE results, and ThresholdL1 becomes max(g - a, 0) + min(g + a, 0), which equals its
    // branches for a >= 0 (alpha is checked >= 0).
    if (param_.max_delta_step == 0.0f) {
      const __m128d zero = _mm_setzero_pd();
      const __m128d g = _mm_set_pd(G(b), G(a));
      const __m128d h = _mm_set_pd(H(b), H(a));
      const __m128d alpha = _mm_set1_pd(param_.reg_alpha);
      const __m128d t = _mm_add_pd(_mm_max_pd(_mm_sub_pd(g, alpha), zero),
                                   _mm_min_pd(_mm_add_pd(g, alpha), zero));
      __m128d q = _mm_div_pd(_mm_mul_pd(t, t), _mm_add_pd(h, _mm_set1_pd(param_.reg_lambda)));
      q = _mm_and_pd(q, _mm_cmpgt_pd(h, zero));  // a side without hessian gains 0
      const __m128 f = _mm_cvtpd_ps(q);
      return _mm_cvtss_f32(f) + _mm_cvtss_f32(_mm_shuffle_ps(f, f, 1));
    }
#endif
    return Gain(a) + Gain(b);
  }
  float Gain(GradientPairInt sum) const { return Gain(G(sum), H(sum)); }
  // The least hessian a child of a node (gradient sum `sum`, `rows` rows) may hold:
  // min_child_weight, raised by min_data_in_leaf. LightGBM counts a child's rows as
  // RoundInt(H_child * rows / H_node), which is below m exactly when H_child < (m - 0.5) *
  // H_node / rows, so the row limit is a hessian floor and the scans stay as they are.
  double MinChildHess(GradientPairInt sum, std::uint64_t rows) const {
    const double weight_floor = param_.min_child_weight;
    if (param_.min_data_in_leaf <= 0 || rows == 0) return weight_floor;
    const double row_floor = (param_.min_data_in_leaf - 0.5) * H(sum) / static_cast<double>(rows);
    return std::max(weight_floor, row_floor);
  }
  double H(GradientPairInt sum) const { return quantiser_.Hess(sum.hess); }
  double G(GradientPairInt sum) const { return quantiser_.Grad(sum.grad); }
  const GradientQuantiser& Quantiser() const { return quantiser_; }

  // Best split of a node over `features` (ascending), parallel over features.
  SplitCandidate EvaluateNode(const Histogram& hist, GradientPairInt node_sum,
                              const std::vector<std::uint32_t>& features, int nthread) const;

  struct NodeInput {
    const Histogram* hist;
    GradientPairInt sum;
    std::vector<std::uint32_t> features;  // ascending
    WeightBounds bounds = {};             // monotone constraints' bounds of the node
    std::uint64_t rows = 0;  // the node's rows over all ranks; read only with min_data_in_leaf
    // A sibling derived by subtraction: when set (with hist == derive), *derive = *parent -
    // *built is written feature by feature by the task that scans that feature (and by extra
    // tasks for the features not sampled), so each slice is scanned while in cache and no
    // separate subtraction pass runs; a share writes only its own features' slices (so a
    // round-robin share may not derive). derive is sized to all bins.
    Histogram* derive = nullptr;
    const Histogram* parent = nullptr;
    const Histogram* built = nullptr;
  };
  // Best split of every node over the pairs of `share`, all in one parallel region; each
  // node's winner is reduced in feature order, so the result is independent of the thread
  // count. A node none of whose pairs is in the share gets an empty candidate (loss_chg 0).
  std::vector<SplitCandidate> EvaluateNodes(const std::vector<NodeInput>& nodes, int nthread,
                                            const ScanShare& share = {}) const;

  // The categories a categorical candidate sends right, ascending; `hist` is the histogram of
  // the node it was found in (categorical_split.cc).
  std::vector<std::int32_t> CategorySet(const Histogram& hist, const SplitCandidate& c) const;

 private:
  static double ThresholdL1(double g, double alpha) {
    if (g > alpha) return g - alpha;
    if (g < -alpha) return g + alpha;
    return 0.0;
  }
  // `floor`: a loss_chg another feature of the node reaches (the vector scan skips bins
  // that cannot reach it; the node's winner is the same).
  // `min_child`: MinChildHess of the node.
  SplitCandidate EvaluateFeature(const Histogram& hist, GradientPairInt node_sum, float root_gain,
                                 std::uint32_t f, float floor, const WeightBounds& bounds,
                                 double min_child) const;
  // XGBoost 1.7's EnumerateOneHot / EnumeratePart for categorical feature f.
  SplitCandidate EvaluateCategorical(const Histogram& hist, GradientPairInt node_sum,
                                     float root_gain, std::uint32_t f,
                                     const WeightBounds& bounds) const;
  SplitCandidate EvaluateOneHot(const Histogram& hist, GradientPairInt node_sum, float root_gain,
                                std::uint32_t f, const WeightBounds& bounds) const;
  SplitCandidate EvaluatePartition(const Histogram& hist, GradientPairInt node_sum, float root_gain,
                                   std::uint32_t f, const WeightBounds& bounds) const;
  // The feature's local bins stably sorted by their weight (XGBoost's CalcWeightCat order).
  std::vector<std::uint32_t> CategoryOrder(const Histogram& hist, std::uint32_t f) const;
  // loss_chg of sending `left` and `right` apart, or -inf when a side is too light.
  float CategoricalLoss(std::uint32_t f, GradientPairInt left, GradientPairInt right,
                        const WeightBounds& bounds, float root_gain) const;
  SplitCandidate EvaluateFeatureVector(const Histogram& hist, GradientPairInt node_sum,
                                       float root_gain, std::uint32_t f, float floor,
                                       double min_child) const;
  float GainGivenWeight(GradientPairInt sum, float w) const {
    const double h = H(sum);
    if (h <= 0.0) return 0.0f;
    return static_cast<float>(-(2.0 * G(sum) * w + (h + param_.reg_lambda) * w * w));
  }
  int Monotone(std::uint32_t f) const {
    return f < param_.monotone_constraints.size() ? param_.monotone_constraints[f] : 0;
  }
  // gain(left) + gain(right) from the bounded weights, -inf when they break f's constraint.
  float ConstrainedGainSum(std::uint32_t f, GradientPairInt left, GradientPairInt right,
                           const WeightBounds& b, bool right_first) const;
  template <bool kMissing>
  void Scan(const Histogram& hist, GradientPairInt node_sum, GradientPairInt present,
            float root_gain, std::uint32_t f, const WeightBounds& bounds, double min_child,
            SplitCandidate* best) const;
  void SetForward(SplitCandidate* c, float loss_chg, std::uint32_t f, int i, GradientPairInt left,
                  GradientPairInt node_sum) const;
  void SetBackward(SplitCandidate* c, float loss_chg, std::uint32_t f, int i, GradientPairInt left,
                   GradientPairInt right) const;

  const TreeParam& param_;
  const HistogramCuts& cuts_;
  const GradientQuantiser& quantiser_;
  bool vector_scan_ = true;
  bool constrained_ = false;  // some feature has a monotone constraint
};

}  // namespace treering::booster
