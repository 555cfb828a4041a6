// Small generated data sets for the booster tests, and LibSVM text for the XGBoost peer.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "data/dmatrix.h"

namespace treering::booster::testing {

// kPositive: continuous labels > 0 (gamma, mape); kSurvival: survival times with ties, a
// third of them censored (negative), for survival:cox.
enum class Task { kBinary, kRegression, kMulticlass3, kCount, kPositive, kSurvival };

struct SyntheticSpec {
  Task task = Task::kBinary;
  std::size_t rows = 2000;
  std::uint32_t features = 6;
  double missing = 0.1;      // probability that an entry is absent
  int distinct_values = 40;  // values are k/8 for k in [0, distinct) (exact cuts for max_bin>=)
  bool weights = false;
  std::uint64_t seed = 7;
};

data::DMatrix MakeSynthetic(const SyntheticSpec& spec);
// LibSVM text with 0-based indices and exactly printed floats ("label[:weight] i:v ...").
void WriteLibSvm(const data::DMatrix& dm, const std::string& path);
// Rows [begin, end) of dm (labels and weights with them), keeping dm's column count.
data::DMatrix RowRange(const data::DMatrix& dm, std::size_t begin, std::size_t end);
// `world` contiguous shards of all, rank r's from rows [N r / world, N (r+1) / world): how the
// thread-rank tests stand in for data::Load's sharding.
std::vector<data::DMatrix> ContiguousShards(const data::DMatrix& all, int world);

}  // namespace treering::booster::testing
