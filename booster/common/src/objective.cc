#include "booster/objective.h"

#include <cmath>
#include <cstdint>
#include <string>
#include <utility>

#include "base/parallel_for.h"
#include "booster/work_split.h"
#include "objective_impl.h"

namespace treering::booster {

namespace {

// The objective `config.name` names, with its own number of outputs.
Result<std::unique_ptr<Objective>> CreateNamed(const ObjectiveConfig& config) {
  const std::string& n = config.name;
  if (n == "multi:softmax" || n == "multi:softprob") {
    if (config.num_class < 2) {
      return Status::InvalidInput("objective " + n + " needs num_class >= 2");
    }
    return MakeSoftmaxObjective(n, config.num_class);
  }
  if (n == "reg:squarederror" || n == "reg:logistic" || n == "binary:logistic" ||
      n == "binary:logitraw" || n == "count:poisson") {
    return MakeElementwiseObjective(config);
  }
  if (n == "reg:pseudohubererror" && config.huber_slope == 0.0f) {
    return Status::InvalidInput("parameter huber_slope: must not be 0 for " + n);
  }
  if (n == "reg:tweedie" &&
      !(config.tweedie_variance_power >= 1.0f && config.tweedie_variance_power < 2.0f)) {
    return Status::InvalidInput("parameter tweedie_variance_power: must be in [1, 2), got " +
                                std::to_string(config.tweedie_variance_power));
  }
  if (auto objective = MakeRegressionObjective(config)) return objective;
  if (n == "survival:cox") return MakeCoxObjective();
  if (n == "survival:aft") {
    const std::string& d = config.aft_loss_distribution;
    if (d != "normal" && d != "logistic" && d != "extreme") {
      return Status::InvalidInput("parameter aft_loss_distribution: '" + d +
                                  "' is not normal, logistic or extreme");
    }
    if (!(config.aft_loss_distribution_scale > 0.0f)) {
      return Status::InvalidInput("parameter aft_loss_distribution_scale: must be > 0");
    }
    return MakeAftObjective(config);
  }
  if (config.num_pairsample < 1) {
    return Status::InvalidInput("parameter num_pairsample: must be >= 1");
  }
  if (auto objective = MakeRankObjective(config)) return objective;
  if (n == "reg:absoluteerror") return MakeAbsoluteErrorObjective();
  if (n == "reg:quantileerror") return MakeQuantileObjective(config.quantile_alpha);
  return Status::InvalidInput("unknown objective '" + n + "'");
}

}  // namespace

Result<std::unique_ptr<Objective>> Objective::Create(const ObjectiveConfig& config) {
  auto named = CreateNamed(config);
  if (!named.ok()) return named.status();
  std::unique_ptr<Objective> objective = std::move(named).value();
  // num_class > 1 with a one-output objective: XGBoost 1.7 grows num_class trees per round on
  // the caller's gradients (a multi-class objective written in Python).
  if (config.num_class > 1 && objective->NumGroups() == 1) {
    return MakeCustomOutputsObjective(std::move(objective), config.num_class);
  }
  return objective;
}

Status CheckLabelsFinite(const std::string& objective, const LabelView& labels,
                         const std::string& meaning) {
  for (std::size_t i = 0; i < labels.NumRows(); ++i) {
    if (!std::isfinite((*labels.label)[i])) {
      return Status::InvalidInput(objective + ": label of row " + std::to_string(i) +
                                  " is not finite" + (meaning.empty() ? "" : " (" + meaning + ")"));
    }
  }
  return Status::Ok();
}

GradientMaxima MaximaOf(const std::vector<GradientPair>& g, int nthread) {
  const int threads = ResolveThreads(ThreadsFor(g.size(), nthread));
  std::vector<GradientMaxima> partial(threads);
  ParallelForBlocks(static_cast<std::int64_t>(g.size()), threads,
                    [&](int tid, std::int64_t begin, std::int64_t end) {
                      GradientMaxima m;
                      for (std::int64_t i = begin; i < end; ++i) m.Include(g[i]);
                      partial[tid] = m;
                    });
  GradientMaxima maxima;
  for (const GradientMaxima& m : partial) maxima.Include(m);
  return maxima;
}

GradientMaxima Objective::GetGradientAndMaxima(const std::vector<float>& margin,
                                               const LabelView& labels, const Context& ctx,
                                               std::vector<GradientPair>* out) const {
  GetGradient(margin, labels, ctx, out);
  return MaximaOf(*out, ctx.Threads());
}

}  // namespace treering::booster
