// One-output objectives: squared error, the logistic family and Poisson. Formulas follow
// XGBoost 1.7 (regression_loss.h, regression_obj.cu) including its float arithmetic.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>
#if defined(__x86_64__)
#include <emmintrin.h>
#endif

#include "base/parallel_for.h"
#include "booster/work_split.h"
#include "exp_simd.h"
#include "objective_impl.h"

namespace treering::booster {
namespace {

enum class Loss { kSquared, kLogistic, kPoisson };

class ElementwiseObjective : public Objective {
 public:
  explicit ElementwiseObjective(const ObjectiveConfig& c) : config_(c) {
    if (c.name == "reg:squarederror")
      loss_ = Loss::kSquared;
    else if (c.name == "count:poisson")
      loss_ = Loss::kPoisson;
    else
      loss_ = Loss::kLogistic;
  }

  const std::string& Name() const override { return config_.name; }

  Status CheckLabels(const LabelView& labels) const override {
    for (std::size_t i = 0; i < labels.NumRows(); ++i) {
      const float y = (*labels.label)[i];
      if (loss_ == Loss::kLogistic && !(y >= 0.0f && y <= 1.0f)) {
        return Status::InvalidInput(config_.name + ": label must be in [0, 1], row " +
                                    std::to_string(i) + " has " + std::to_string(y));
      }
      if (loss_ == Loss::kPoisson && !(y >= 0.0f)) {
        return Status::InvalidInput("count:poisson: label must be >= 0, row " + std::to_string(i) +
                                    " has " + std::to_string(y));
      }
      if (!std::isfinite(y)) {
        return Status::InvalidInput(config_.name + ": label of row " + std::to_string(i) +
                                    " is not finite");
      }
    }
    return Status::Ok();
  }

  void GetGradient(const std::vector<float>& margin, const LabelView& labels, const Context& ctx,
                   std::vector<GradientPair>* out) const override {
    Gradients(margin, labels, ctx, out);
  }

  GradientMaxima GetGradientAndMaxima(const std::vector<float>& margin, const LabelView& labels,
                                      const Context& ctx,
                                      std::vector<GradientPair>* out) const override {
    return Gradients(margin, labels, ctx, out);
  }

  void PredTransform(std::vector<float>* values, const Context& ctx) const override {
    if (config_.name == "binary:logitraw" || loss_ == Loss::kSquared) return;
    // Blocks through ExpFloats (glibc's expf bit for bit, 8 at a time): every round
    // transforms the whole eval set, and one expf call per value was most of that.
    const bool poisson = loss_ == Loss::kPoisson;
    ParallelForBlocks(
        static_cast<std::int64_t>(values->size()), ctx.ThreadsFor(values->size(), kBoosterGrain),
        [&](int, std::int64_t begin, std::int64_t end) {
          constexpr std::int64_t kChunk = 1024;
          float e[kChunk];
          for (std::int64_t first = begin; first < end; first += kChunk) {
            float* v = values->data() + first;
            const std::size_t n = static_cast<std::size_t>(std::min(kChunk, end - first));
            if (poisson) {
              ExpFloats(v, n, v);
              continue;
            }
            for (std::size_t i = 0; i < n; ++i) e[i] = -v[i];
            ExpFloats(e, n, e);
            for (std::size_t i = 0; i < n; ++i) v[i] = 1.0f / (1.0f + e[i]);  // Sigmoid's formula
          }
        });
  }

  Result<float> ProbToMargin(float base_score) const override {
    if (loss_ == Loss::kPoisson) {
      if (!(base_score > 0.0f)) {
        return Status::InvalidInput("base_score must be > 0 for count:poisson");
      }
      return std::log(base_score);
    }
    if (loss_ == Loss::kLogistic && config_.name != "binary:logitraw") {
      if (!(base_score > 0.0f && base_score < 1.0f)) {
        return Status::InvalidInput("base_score must be in (0, 1) for " + config_.name);
      }
      return -std::log(1.0f / base_score - 1.0f);
    }
    return base_score;
  }

  std::string DefaultMetric() const override {
    if (config_.name == "binary:logistic") return "logloss";
    if (config_.name == "binary:logitraw") return "auc";
    if (loss_ == Loss::kPoisson) return "poisson-nloglik";
    return "rmse";
  }

 private:
  // One contiguous block of rows per thread (the logistic block runs vectorised, see
  // exp_simd.h); the blocks' maxima are combined here, so neither depends on the thread count.
  GradientMaxima Gradients(const std::vector<float>& margin, const LabelView& labels,
                           const Context& ctx, std::vector<GradientPair>* out) const {
    out->resize(margin.size());
    const std::int64_t n = static_cast<std::int64_t>(margin.size());
    const int threads = ctx.ThreadsFor(margin.size(), kBoosterGrain);
    std::vector<GradientMaxima> partial(threads);
    const bool weighted = labels.weight != nullptr && !labels.weight->empty();
    const float* weight = weighted ? labels.weight->data() : nullptr;
    ParallelForBlocks(n, threads, [&](int tid, std::int64_t begin, std::int64_t end) {
      partial[tid] = Block(margin.data() + begin, labels.label->data() + begin,
                           weight != nullptr ? weight + begin : nullptr,
                           static_cast<std::size_t>(end - begin), out->data() + begin);
    });
    GradientMaxima maxima;
    for (const GradientMaxima& m : partial) maxima.Include(m);
    return maxima;
  }

  GradientMaxima Block(const float* margin, const float* label, const float* weight, std::size_t n,
                       GradientPair* out) const {
    if (loss_ == Loss::kLogistic) {
      return LogisticGradients(margin, label, weight, config_.scale_pos_weight, n, out);
    }
    if (loss_ == Loss::kSquared) return SquaredErrorGradients(margin, label, weight, n, out);
    GradientMaxima maxima;
    for (std::size_t i = 0; i < n; ++i) {
      out[i] = PoissonRow(margin[i], label[i], weight != nullptr ? weight[i] : 1.0f);
      maxima.Include(out[i]);
    }
    return maxima;
  }

  // (margin - y) w and w, 4 rows at a time (SSE2, the x86-64 baseline): XGBoost's float
  // operations, and the maxima as std::max(m, |v|) takes them (maxps returns
  // its second operand when the first is NaN, so a NaN gradient is skipped alike). One row at
  // a time the loop did not vectorise (the max reduction is not associative for the compiler).
  static GradientMaxima SquaredErrorGradients(const float* margin, const float* label,
                                              const float* weight, std::size_t n,
                                              GradientPair* out) {
    static_assert(sizeof(GradientPair) == 2 * sizeof(float), "pairs are stored as 4 floats");
    std::size_t i = 0;
    GradientMaxima maxima;
#if defined(__x86_64__)
    const __m128 abs_mask = _mm_castsi128_ps(_mm_set1_epi32(0x7fffffff));
    __m128 max_grad = _mm_setzero_ps(), max_hess = _mm_setzero_ps();
    for (; i + 4 <= n; i += 4) {
      const __m128 w = weight != nullptr ? _mm_loadu_ps(weight + i) : _mm_set1_ps(1.0f);
      const __m128 diff = _mm_sub_ps(_mm_loadu_ps(margin + i), _mm_loadu_ps(label + i));
      const __m128 g = _mm_mul_ps(diff, w);
      float* dst = reinterpret_cast<float*>(out + i);
      _mm_storeu_ps(dst, _mm_unpacklo_ps(g, w));
      _mm_storeu_ps(dst + 4, _mm_unpackhi_ps(g, w));
      max_grad = _mm_max_ps(_mm_and_ps(g, abs_mask), max_grad);
      max_hess = _mm_max_ps(_mm_and_ps(w, abs_mask), max_hess);
    }
    alignas(16) float lanes[8];
    _mm_store_ps(lanes, max_grad);
    _mm_store_ps(lanes + 4, max_hess);
    for (int k = 0; k < 4; ++k) maxima.Include(GradientMaxima{lanes[k], lanes[4 + k]});
#endif
    for (; i < n; ++i) {
      const float w = weight != nullptr ? weight[i] : 1.0f;
      out[i] = {(margin[i] - label[i]) * w, w};
      maxima.Include(out[i]);
    }
    return maxima;
  }

  // Poisson (the logistic rows are in exp_simd.cc, squared error above).
  GradientPair PoissonRow(float margin, float y, float w) const {
    return {(std::exp(margin) - y) * w, std::exp(margin + config_.max_delta_step) * w};
  }

  ObjectiveConfig config_;
  Loss loss_;
};

}  // namespace

std::unique_ptr<Objective> MakeElementwiseObjective(const ObjectiveConfig& config) {
  return std::make_unique<ElementwiseObjective>(config);
}

}  // namespace treering::booster
