#include "synthetic_data.h"

#include <cmath>
#include <cstdio>
#include <fstream>
#include <random>
#include <vector>

namespace treering::booster::testing {
namespace {

float LabelFor(Task task, const std::vector<float>& x, std::mt19937_64& rng) {
  std::normal_distribution<double> noise(0.0, 0.3);
  const double score = 0.8 * x[0] - 0.6 * x[1] + 0.3 * x[2] * x[3] / 5.0 - 1.0 + noise(rng);
  switch (task) {
    case Task::kBinary:
      return score > 0 ? 1.0f : 0.0f;
    case Task::kRegression:
      return static_cast<float>(score);
    case Task::kMulticlass3:
      return score < -0.7 ? 0.0f : (score < 0.7 ? 1.0f : 2.0f);
    case Task::kCount:
      return static_cast<float>(std::floor(std::exp(0.4 * score) * 2.0));
    case Task::kPositive:
      return static_cast<float>(std::exp(0.4 * score) * 2.0);
    case Task::kSurvival: {
      const float time = static_cast<float>(std::round(std::exp(-0.5 * score) * 30.0) + 1.0);
      return std::uniform_real_distribution<double>(0.0, 1.0)(rng) < 0.3 ? -time : time;
    }
  }
  return 0.0f;
}

}  // namespace

data::DMatrix MakeSynthetic(const SyntheticSpec& spec) {
  std::mt19937_64 rng(spec.seed);
  std::uniform_int_distribution<int> value(0, spec.distinct_values - 1);
  std::bernoulli_distribution missing(spec.missing);
  std::uniform_real_distribution<float> weight(0.5f, 2.0f);
  data::DMatrix dm;
  for (std::size_t r = 0; r < spec.rows; ++r) {
    std::vector<float> x(spec.features);
    for (std::uint32_t f = 0; f < spec.features; ++f) {
      x[f] = static_cast<float>(value(rng)) / 8.0f;
      // Row 0 keeps every feature so both peers see the same feature count.
      if (r == 0 || !missing(rng)) {
        dm.index.push_back(f);
        dm.value.push_back(x[f]);
      }
    }
    dm.row_ptr.push_back(dm.index.size());
    dm.label.push_back(LabelFor(spec.task, x, rng));
    if (spec.weights) dm.weight.push_back(weight(rng));
  }
  dm.num_col = spec.features;
  return dm;
}

void WriteLibSvm(const data::DMatrix& dm, const std::string& path) {
  std::ofstream out(path);
  char buf[64];
  for (std::size_t r = 0; r < dm.NumRows(); ++r) {
    std::snprintf(buf, sizeof(buf), "%.9g", dm.label[r]);
    out << buf;
    if (!dm.weight.empty()) {
      std::snprintf(buf, sizeof(buf), ":%.9g", dm.weight[r]);
      out << buf;
    }
    for (std::uint64_t j = dm.row_ptr[r]; j < dm.row_ptr[r + 1]; ++j) {
      std::snprintf(buf, sizeof(buf), " %u:%.9g", dm.index[j], dm.value[j]);
      out << buf;
    }
    out << '\n';
  }
}

data::DMatrix RowRange(const data::DMatrix& dm, std::size_t begin, std::size_t end) {
  data::DMatrix out;
  out.num_col = dm.num_col;
  out.label_columns = dm.label_columns;
  out.row_ptr.assign(1, 0);
  for (std::size_t r = begin; r < end; ++r) {
    for (std::uint64_t k = dm.row_ptr[r]; k < dm.row_ptr[r + 1]; ++k) {
      out.index.push_back(dm.index[k]);
      out.value.push_back(dm.value[k]);
    }
    out.row_ptr.push_back(out.index.size());
    for (std::size_t c = 0; c < dm.label_columns; ++c) {
      out.label.push_back(dm.label[r * dm.label_columns + c]);
    }
    if (!dm.weight.empty()) out.weight.push_back(dm.weight[r]);
  }
  return out;
}

std::vector<data::DMatrix> ContiguousShards(const data::DMatrix& all, int world) {
  std::vector<data::DMatrix> shards;
  for (int r = 0; r < world; ++r) {
    shards.push_back(RowRange(all, all.NumRows() * r / world, all.NumRows() * (r + 1) / world));
  }
  return shards;
}

}  // namespace treering::booster::testing
