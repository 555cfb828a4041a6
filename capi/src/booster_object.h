// What a BoosterHandle names: the learner parameters set so far, the matrices given to
// XGBoosterCreate, and the learner (booster/learner.h) they configure, created lazily as
// XGBoost's Learner::Configure is: SetParam only records, the next training or prediction call
// (re)builds the learner, keeping the model it has.
//
// Locking: calls that change the booster (SetParam, UpdateOneIter, BoostOneIter, LoadModel,
// LoadJsonConfig, SetAttr, SetStrFeatureInfo, ...) hold `mutex` exclusively; predictions and
// other reads share it (ForPrediction), so predictions from many threads run at once, as
// XGBoost promises for XGBoosterPredictFromDMatrix and inplace prediction.
#pragma once

#include <map>
#include <memory>
#include <mutex>
#include <shared_mutex>
#include <string>
#include <utility>
#include <vector>

#include "base/context.h"
#include "booster/learner.h"
#include "dmatrix_object.h"
#include "handle_table.h"
#include "return_slots.h"

namespace treering::capi {

class BoosterObject {
 public:
  static constexpr HandleKind kKind = HandleKind::kBooster;

  explicit BoosterObject(std::vector<std::shared_ptr<DMatrixObject>> cache)
      : cache(std::move(cache)) {}

  // Builds (or rebuilds) the learner if a parameter changed since; caller holds `mutex`
  // exclusively. Errors name the parameter.
  void ConfigureLocked();

  // A configured learner, read-locked: concurrent predictions share it.
  struct ReadView {
    std::shared_lock<std::shared_mutex> lock;
    const booster::Learner* learner;
    const BoosterObject* booster;
  };
  ReadView ForPrediction();

  std::shared_mutex mutex;
  std::vector<std::pair<std::string, std::string>> params;  // in SetParam order
  std::vector<std::shared_ptr<DMatrixObject>> cache;        // XGBoosterCreate's matrices
  std::unique_ptr<booster::Learner> learner;                // null until configured
  bool needs_configure = true;
  std::map<std::string, std::string> attributes;  // XGBoosterSetAttr / the model's
  std::vector<std::string> feature_names, feature_types;
  Context ctx;  // nthread, seed, verbosity from params
  ReturnSlots returns;
};

}  // namespace treering::capi
