// What a BoosterHandle names: the learner parameters set so far, the matrices given to
// XGBoosterCreate, and the learner (booster/learner.h) they configure, created lazily as
// XGBoost's Learner::Configure is: SetParam only records, the next training or prediction call
// (re)builds the learner, keeping the model it has.
//
// The learner comes from cli::CreateLearner, the factory the `treering` CLI uses, with the
// same key/value params and the Context built from nthread / seed / verbosity by the same
// table: a model trained here is byte-identical to the CLI's (tests/capi/booster_identity).
//
// Locking: calls that change the booster (SetParam, UpdateOneIter, BoostOneIter, LoadModel,
// LoadJsonConfig, SetAttr, SetStrFeatureInfo, ...) hold `mutex` exclusively; predictions and
// other reads share it (ForPrediction), so predictions from many threads run at once, as
// XGBoost promises for XGBoosterPredictFromDMatrix and inplace prediction.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <shared_mutex>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "base/context.h"
#include "booster/learner.h"
#include "dmatrix_object.h"
#include "handle_table.h"
#include "return_slots.h"

namespace treering::capi {

// A shared mutex that does not starve writers: std::shared_mutex (a glibc rwlock preferring
// readers) never let UpdateOneIter in while 8 threads predicted back to back. A writer takes
// the turnstile before waiting for the readers, and new readers pass the turnstile first, so
// they queue behind a waiting writer. Not recursive for readers (no call path reads twice).
class FairSharedMutex {
 public:
  void lock() {
    std::lock_guard gate(turnstile_);
    rw_.lock();
  }
  bool try_lock() { return rw_.try_lock(); }
  void unlock() { rw_.unlock(); }
  void lock_shared() {
    { std::lock_guard gate(turnstile_); }
    rw_.lock_shared();
  }
  bool try_lock_shared() { return rw_.try_lock_shared(); }
  void unlock_shared() { rw_.unlock_shared(); }

 private:
  std::mutex turnstile_;
  std::shared_mutex rw_;
};

class BoosterObject {
 public:
  static constexpr HandleKind kKind = HandleKind::kBooster;

  explicit BoosterObject(std::vector<std::shared_ptr<DMatrixObject>> cache)
      : cache(std::move(cache)) {}

  // Builds (or rebuilds) the learner if a parameter changed since; caller holds `mutex`
  // exclusively. Errors name the parameter. A rebuilt learner keeps the model (it is carried
  // over as JSON, which round-trips exactly), attributes and feature names.
  void ConfigureLocked();

  // A configured learner, read-locked: concurrent predictions share it. Configuring needs the
  // exclusive lock, so a booster whose params changed is configured first, then read-locked.
  struct ReadView {
    std::shared_lock<FairSharedMutex> lock;
    const booster::Learner* learner;
    const BoosterObject* booster;
  };
  ReadView ForPrediction();

  // --- training (caller holds `mutex` exclusively) ----------------------------------------
  // Configures, and hands dtrain to the learner when it is new or its data changed since
  // (DMatrixObject::version); checks labels and the meta information first. `what` names the
  // C argument in errors.
  void PrepareTraining(const std::shared_ptr<DMatrixObject>& dtrain, const char* what);
  // The learner's metrics on `sets` (their margins cached by the learner).
  std::vector<booster::EvalResult> Evaluate(
      const std::vector<std::pair<std::string, std::shared_ptr<DMatrixObject>>>& sets);
  // Replaces the model with the one in `bytes` (any format): on failure the booster is as it
  // was. `source` names the bytes in errors.
  void LoadModelLocked(std::string_view bytes, const std::string& source);
  // The learner's model file bytes in the format of `path`'s extension, with this booster's
  // attributes and feature info. Configures first.
  std::string SaveModelLocked(const std::string& path);
  // XGBoost's JSON configuration of this booster (save_config, pickles). Configures first.
  std::string ConfigJsonLocked();
  // Params, attributes and feature info from another booster (XGBoosterSlice).
  void CopySettingsFrom(const BoosterObject& other);
  // A configured learner holding its training matrix: the per-round rabit checkpoint can
  // then restore the model into it without handing the data over again (and so without
  // repeating the data's setup collectives, which a restarted worker must not do mid-job).
  bool TrainingPrepared() const { return learner && !needs_configure && train_ != nullptr; }

  FairSharedMutex mutex;
  std::vector<std::pair<std::string, std::string>> params;  // in SetParam order
  std::vector<std::shared_ptr<DMatrixObject>> cache;        // XGBoosterCreate's matrices
  std::unique_ptr<booster::Learner> learner;                // null until configured
  bool needs_configure = true;
  std::map<std::string, std::string> attributes;  // XGBoosterSetAttr / the model's
  std::vector<std::string> feature_names, feature_types;
  Context ctx;  // nthread, seed, verbosity from params
  ReturnSlots returns;

 private:
  // The learner's params: `params` without the Context's keys, plus the training matrix's
  // categorical feature types unless feature_types was set.
  std::vector<std::pair<std::string, std::string>> LearnerParams() const;
  // nthread, seed, verbosity of `params` (errors name the key).
  Context ContextFromParams() const;
  // A learner for `params`; unknown keys fail here, naming the key (and a near one). Keys of
  // another booster are dropped with XGBoost's "are not used" warning when `warn_unused` (not
  // when a model is loaded: a copy or a reload would repeat the trained booster's warning).
  std::unique_ptr<booster::Learner> NewLearner(const Context& context, bool warn_unused) const;
  booster::ModelInfo Info() const;
  void TakeInfo(const booster::Learner& from);

  // The matrix the learner trains on and the version it had when handed over; kept alive.
  std::shared_ptr<DMatrixObject> train_;
  std::uint64_t train_version_ = 0;
  std::string train_feature_types_;  // dtrain's feature types as a feature_types value
  // Eval matrices and the versions the learner's cached margins belong to. Weak: a freed
  // matrix is forgotten by the learner before another may take its address.
  struct Evaluated {
    std::weak_ptr<DMatrixObject> object;
    std::uint64_t version;
  };
  std::map<const data::DMatrix*, Evaluated> evaluated_;
  bool has_model_ = false;  // trained or loaded: a rebuilt learner must carry the model
  // The last "are not used" warning given: a learner rebuilt from the same params does not
  // repeat it, as XGBoost warns once per configuration.
  mutable std::string unused_warning_;
};

}  // namespace treering::capi
