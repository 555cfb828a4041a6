// The histogram learner's per-feature state (sketches, cut pointers, column sizes allreduced
// across ranks, sampler lists) is sized by the feature count, not by the entries present: a
// 3-row file with feature index 1e7 needs ~1.2 GB on every worker. This check refuses, before
// anything is allocated, a count that cannot fit, naming the index that caused it.
#pragma once

#include <cstdint>

#include "base/status.h"
#include "rabit/comm.h"

namespace treering::booster {

// Measured peak RSS per feature of task=train on 3-row files with one large index (2e6 and
// 1e7 features: 129 and 121 bytes), whatever the thread count.
inline constexpr std::uint64_t kHistBytesPerFeature = 128;

// kInvalidInput when num_feature (agreed by all ranks) is over data::kMaxFeatures, or when its
// state would exceed the memory of the tightest rank (MemAvailable, or what RLIMIT_AS leaves).
// A collective: every rank calls it and every rank gets the same answer.
Status CheckFeatureBudget(std::uint64_t num_feature, rabit::Comm& comm);

}  // namespace treering::booster
