// RoundCheckpoint: what a restarted worker needs to continue training exactly where the
// survivors are (rabit::CheckPoint after every round, rabit::LoadCheckPoint before the first):
// the early-stopping bookkeeping and the learner's own checkpoint bytes (the tree: its model as
// JSON; the MLP: its model file, optimizer state included). Everything else is recomputed the
// same way on every rank (margins from the trees; sampling and shuffles from seed and round).
#pragma once

#include <string>

#include "booster/learner.h"
#include "eval_report.h"
#include "rabit/rabit.h"

namespace treering::cli {

class RoundCheckpoint : public rabit::Serializable {
 public:
  RoundCheckpoint(booster::Learner* learner, EarlyStopping* stopping)
      : learner_(learner), stopping_(stopping) {}
  void Save(std::string* out) const override;
  // Keeps the bytes; Restore() applies them (Load cannot fail, Restore can).
  void Load(const std::string& in) override { loaded_ = in; }
  Status Restore();

 private:
  booster::Learner* learner_;
  EarlyStopping* stopping_;
  std::string loaded_;
};

}  // namespace treering::cli
