// Small sparse classification / regression sets for the MLP tests: rows with a random subset of
// features (so the CSR path and standardisation's centring both matter) and labels that depend
// on them.
#pragma once

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "data/dmatrix.h"

namespace treering::booster::mlp::testing {

inline data::DMatrix SyntheticRows(std::size_t rows, int features, int classes, std::uint32_t seed,
                                   bool regression = false) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> u(0.0f, 1.0f);
  data::DMatrix m;
  m.num_col = static_cast<std::uint64_t>(features);
  for (std::size_t r = 0; r < rows; ++r) {
    double score = 0;
    for (int j = 0; j < features; ++j) {
      if (u(rng) < 0.4f) continue;  // absent
      const float v = 3.0f * u(rng) + static_cast<float>(j % 3);
      m.index.push_back(static_cast<std::uint32_t>(j));
      m.value.push_back(v);
      score += (j % 2 == 0 ? 1.0 : -0.7) * v;
    }
    m.row_ptr.push_back(m.index.size());
    if (regression) {
      m.label.push_back(static_cast<float>(0.1 * score));
    } else {
      const int label = static_cast<int>(std::fabs(score) * 1.7) % classes;
      m.label.push_back(static_cast<float>(label));
    }
  }
  return m;
}

// Rows [begin, end) of m, in order, as their own matrix.
inline data::DMatrix SliceRows(const data::DMatrix& m, const std::vector<std::size_t>& rows) {
  data::DMatrix out;
  out.num_col = m.num_col;
  for (std::size_t r : rows) {
    for (std::uint64_t e = m.row_ptr[r]; e < m.row_ptr[r + 1]; ++e) {
      out.index.push_back(m.index[e]);
      out.value.push_back(m.value[e]);
    }
    out.row_ptr.push_back(out.index.size());
    out.label.push_back(m.label[r]);
  }
  return out;
}

}  // namespace treering::booster::mlp::testing
