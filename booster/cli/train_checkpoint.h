// TrainCheckpoint: what a restarted worker needs to continue boosting exactly where the
// survivors are (rabit::CheckPoint after every round, rabit::LoadCheckPoint before the first):
// the model (XGBoost JSON, which round-trips floats exactly) and the early-stopping
// bookkeeping. Margins are recomputed from the trees (same sums in the same order) and the
// sampling streams are functions of (seed, round), so the resumed rank grows the same trees.
// Save formats only the trees added since the last Save (booster::IncrementalModelJson).
#pragma once

#include <string>

#include "booster/learner.h"
#include "booster/model_io.h"
#include "eval_report.h"
#include "rabit/rabit.h"

namespace treering::cli {

class TrainCheckpoint : public rabit::Serializable {
 public:
  TrainCheckpoint(booster::Learner* learner, EarlyStopping* stopping)
      : learner_(learner), stopping_(stopping) {}
  void Save(std::string* out) const override;
  // Keeps the bytes; Restore() applies them (Load cannot fail, Restore can).
  void Load(const std::string& in) override { loaded_ = in; }
  Status Restore();

 private:
  booster::Learner* learner_;
  EarlyStopping* stopping_;
  std::string loaded_;
  // Formatted trees kept from one Save to the next (Save is logically const: a cache).
  mutable booster::IncrementalModelJson json_;
};

}  // namespace treering::cli
