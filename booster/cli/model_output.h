// Where task=train puts model files, for every learner: model_dir (snapshots and the default
// model file) and the atomic write of a learner's model file by rank 0.
#pragma once

#include <string>

#include "base/status.h"
#include "booster/learner.h"

namespace treering::cli {

// Creates model_dir (rank 0; the others do nothing) so that a bad directory fails before any
// training time is spent: kInvalidInput naming model_dir and the OS's reason.
Status PrepareModelDir(const std::string& model_dir);

// model_dir/<rounds as %04d>.<suffix>, e.g. ./0010.json.
std::string SnapshotPath(const std::string& model_dir, int rounds, const std::string& suffix);

// Rank 0 writes the learner's model file atomically; the other ranks hold the same model
// (Learner::CheckRanksAgree) and do nothing.
Status SaveModelRank0(const booster::Learner& learner, const std::string& path);

}  // namespace treering::cli
