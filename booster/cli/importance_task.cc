// task=importance: the feature importance of model_in (XGBoost's Booster.get_score, which its
// CLI lacks) to name_importance, one `name<TAB>score` line per feature split on, by feature
// index (get_score's dict order). Names come from fmap, else f<index> (XGBoost's default).
#include <cstdio>
#include <string>
#include <utility>
#include <vector>

#include "booster/feature_map.h"
#include "output_check.h"
#include "task_support.h"
#include "tasks.h"

namespace treering::cli {
namespace {

std::string ImportanceLines(const std::vector<booster::FeatureScore>& scores,
                            const booster::FeatureMap& fmap) {
  std::string text;
  char value[32];
  for (const booster::FeatureScore& s : scores) {
    text += s.feature < fmap.Size() ? fmap.Name(s.feature) : "f" + std::to_string(s.feature);
    std::snprintf(value, sizeof(value), "\t%.9g\n", static_cast<double>(s.score));
    text += value;
  }
  return text;
}

}  // namespace

Status RunImportance(const CliOptions& options) {
  if (Status st = CheckOutputsWritable({{"name_importance", options.name_importance}}); !st.ok()) {
    return st;
  }
  booster::FeatureMap fmap;
  if (!options.fmap.empty()) {
    auto read = booster::FeatureMap::Read(options.fmap);
    if (!read.ok()) return read.status();
    fmap = std::move(read.value());
  }
  auto learner = CreateLearnerFromConfig(options);
  if (!learner.ok()) return learner.status();
  booster::Learner& model = *learner.value();
  Status st = model.LoadModelFile(options.model_in, booster::ModelUse::kPredict);
  if (!st.ok()) return st;
  auto scores = model.FeatureImportance(options.importance_type);
  if (!scores.ok()) return scores.status();
  st = WriteOutputRank0(options.name_importance, ImportanceLines(scores.value(), fmap));
  if (!st.ok()) return st.WithContext("name_importance");
  LogRank0(options, 1, "Writing importance to " + options.name_importance);
  return Status::Ok();
}

}  // namespace treering::cli
