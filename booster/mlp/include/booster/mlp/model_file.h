// The MLP model file (docs/mlp.md, "Model file"): everything needed to predict and to resume
// training exactly: architecture, objective, input scaling, parameters, optimizer state, step
// and epoch counters.
//
//   bytes 0..7    magic "TRRMLP01"
//   bytes 8..15   header length H, uint64 little-endian
//   H bytes       JSON header: architecture, objective, counters, and the list of float sections
//   sections      float32 little-endian arrays in header order (params, inv_std, center, slots)
//   last 8 bytes  FNV-1a 64 of every byte before them, uint64 little-endian
//
// Writes are atomic (temporary file + rename); loads verify magic, sizes and checksum, and
// reject anything else with a one-line kInvalidInput naming the file.
#pragma once

#include <string>
#include <vector>

#include "base/status.h"
#include "booster/mlp/mlp_param.h"
#include "booster/mlp/network.h"
#include "booster/mlp/trainer.h"

namespace treering::booster::mlp {

struct MlpModel {
  std::vector<int> widths;  // input, hidden..., outputs
  Activation activation = Activation::kRelu;
  std::string objective;
  int num_class = 0;
  OptimizerKind optimizer = OptimizerKind::kSgd;
  int seed = 0;
  InputScaling scaling;
  TrainerState state;
};

std::string SerializeModel(const MlpModel& model);
Result<MlpModel> ParseModel(const std::string& bytes, const std::string& path);

Status SaveModelFile(const MlpModel& model, const std::string& path);
Result<MlpModel> LoadModelFile(const std::string& path);

}  // namespace treering::booster::mlp
