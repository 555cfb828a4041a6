#include "booster/learner_support.h"

#include <cmath>

namespace treering::booster {

Status CheckRowInfo(const data::DMatrix& dm, int groups, const std::string& what) {
  if (!dm.weight.empty() && dm.weight.size() != dm.NumRows()) {
    return Status::InvalidInput(what + ": weights do not match the rows");
  }
  const std::size_t margins = dm.NumRows() * static_cast<std::size_t>(groups);
  if (!dm.base_margin.empty() && dm.base_margin.size() != margins) {
    return Status::InvalidInput(what + ": base_margin has " +
                                std::to_string(dm.base_margin.size()) + " values for " +
                                std::to_string(margins) + " (rows x output groups)");
  }
  return Status::Ok();
}

Status CheckCustomGradients(const data::DMatrix* train, int groups, const std::vector<float>& grad,
                            const std::vector<float>& hess) {
  if (train == nullptr) return Status::InvalidInput("no training data set");
  const std::size_t n = train->NumRows() * static_cast<std::size_t>(groups);
  if (grad.size() != n || hess.size() != n) {
    return Status::InvalidInput("gradients: " + std::to_string(grad.size()) + " values for " +
                                std::to_string(train->NumRows()) + " rows x " +
                                std::to_string(groups) + " output groups");
  }
  for (std::size_t i = 0; i < n; ++i) {
    if (!std::isfinite(grad[i]) || !std::isfinite(hess[i])) {
      return Status::InvalidInput("gradients: grad[" + std::to_string(i) + "] or hess[" +
                                  std::to_string(i) + "] is not finite");
    }
  }
  return Status::Ok();
}

GBTreeModel WithAttributes(const GBTreeModel& model,
                           const std::map<std::string, std::string>& attributes) {
  GBTreeModel out = model;
  for (const auto& [key, value] : attributes) out.attributes[key] = value;
  return out;
}

ModelInfo ModelInfoOf(const GBTreeModel& model, const std::map<std::string, std::string>& own) {
  ModelInfo info{model.attributes, model.feature_names, model.feature_types};
  for (const auto& [key, value] : own) info.attributes[key] = value;
  return info;
}

void SetModelInfoOf(const ModelInfo& info, GBTreeModel* model,
                    std::map<std::string, std::string>* own) {
  own->clear();
  model->attributes = info.attributes;
  model->feature_names = info.feature_names;
  if (!info.feature_types.empty()) model->feature_types = info.feature_types;
}

}  // namespace treering::booster
