#include "booster/tree/learner/feature_budget.h"

#include <string>

#include "base/memory_budget.h"
#include "data/dmatrix.h"

namespace treering::booster {

Status CheckFeatureBudget(std::uint64_t num_feature, rabit::Comm& comm) {
  if (num_feature > data::kMaxFeatures) {  // data is checked at parse time; model_in is not
    return Status::InvalidInput("num_feature " + std::to_string(num_feature) + " is over the " +
                                "limit of " + std::to_string(data::kMaxFeatures) +
                                " features (docs/data.md)");
  }
  std::uint64_t available = AvailableMemoryBytes();
  comm.Allreduce<rabit::op::Min>(&available, 1);
  const std::uint64_t needed = num_feature * kHistBytesPerFeature;
  if (needed <= available) return Status::Ok();
  return Status::InvalidInput("feature index " + std::to_string(num_feature - 1) + " makes " +
                              std::to_string(num_feature) +
                              " features: the histogram learner needs ~" + Mebibytes(needed) +
                              " for them on each worker (" + std::to_string(kHistBytesPerFeature) +
                              " bytes per feature, however few are present), more than the " +
                              Mebibytes(available) + " available; renumber the features densely");
}

}  // namespace treering::booster
