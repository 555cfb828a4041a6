// The MLP's first layer is inputs x hidden_layers[0] weights, each kept several times (parameter,
// gradient sum, optimizer slots, allreduce bucket, model-file copy): a 3-row file with feature
// index 2e6 asks for 16 GB. This check refuses such a network before anything is allocated,
// naming the input count that caused it, as the tree learner's feature budget does.
#pragma once

#include <cstdint>
#include <vector>

#include "base/context.h"
#include "base/status.h"
#include "booster/mlp/mlp_param.h"
#include "rabit/comm.h"

namespace treering::booster::mlp {

// Measured peak RSS per parameter of task=train, 3 rows, inputs 2e5, hidden 256,128: 32.6 bytes
// with sgd (1 slot) and 40.4 with adam (2 slots) (docs/benchmarks.md, "Measurements behind code
// comments"): 24 bytes plus 8 per optimizer slot.
inline constexpr std::uint64_t kBytesPerParamBase = 24;
inline constexpr std::uint64_t kBytesPerParamPerSlot = 8;

// Weights and biases of a network with these layer widths (inputs first, outputs last).
std::uint64_t CountParams(const std::vector<std::uint64_t>& widths);

// kInvalidInput when the network would not fit in the memory budget (ctx.MemoryBudget()) of the
// tightest rank. A collective (one allreduce): every rank calls it and gets the same answer.
Status CheckNetworkBudget(std::uint64_t inputs, const MlpParam& param, const Context& ctx,
                          rabit::Comm* comm);

}  // namespace treering::booster::mlp
