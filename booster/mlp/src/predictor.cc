#include "booster/mlp/predictor.h"

#include <algorithm>
#include <numeric>

namespace treering::booster::mlp {

Status CheckFeatureRange(const data::DMatrix& m, int num_inputs, const std::string& key) {
  for (std::size_t r = 0; r < m.NumRows(); ++r) {
    for (std::uint64_t e = m.row_ptr[r]; e < m.row_ptr[r + 1]; ++e) {
      if (m.index[e] >= static_cast<std::uint32_t>(num_inputs)) {
        const Status st = Status::InvalidInput("row " + std::to_string(r + 1) + " uses feature " +
                                               std::to_string(m.index[e]) + " but the model has " +
                                               std::to_string(num_inputs) + " inputs (0.." +
                                               std::to_string(num_inputs - 1) + ")");
        return key.empty() ? st : st.WithContext(key);
      }
    }
  }
  return Status::Ok();
}

std::vector<float> PredictLogits(const Architecture& arch, const std::vector<float>& params,
                                 const InputScaling& scaling, const data::DMatrix& scaled,
                                 int nthread) {
  constexpr std::size_t kChunk = 512;
  const auto outputs = static_cast<std::size_t>(arch.NumOutputs());
  std::vector<float> logits(scaled.NumRows() * outputs);
  std::vector<std::uint32_t> rows(kChunk);
  Workspace ws;
  for (std::size_t begin = 0; begin < scaled.NumRows(); begin += kChunk) {
    const std::size_t n = std::min(kChunk, scaled.NumRows() - begin);
    rows.resize(n);
    std::iota(rows.begin(), rows.end(), static_cast<std::uint32_t>(begin));
    Forward(arch, params.data(), scaling, Batch{&scaled, rows}, nthread, &ws);
    std::copy(ws.act.back().begin(), ws.act.back().end(),
              logits.begin() + static_cast<std::ptrdiff_t>(begin * outputs));
  }
  return logits;
}

}  // namespace treering::booster::mlp
