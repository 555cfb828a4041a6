// The loss each objective implies, on the logits of a minibatch: softmax cross-entropy for
// multi:softmax / multi:softprob, log loss on a sigmoid for binary:logistic, half squared error
// for reg:squarederror. Gradients are weighted sums over rows (the trainer divides by the global
// row weight after the allreduce, so R workers with batch B equal one worker with batch R*B).
#pragma once

#include <string>

#include "booster/mlp/network.h"

namespace treering::booster::mlp {

struct LossSum {
  double loss = 0;    // sum over rows of weight * loss
  double weight = 0;  // sum of row weights
};

// logits: rows x outputs (ws->act.back()); writes d loss / d logits into `grad` (same shape).
LossSum OutputGradient(const std::string& objective, const float* logits, int outputs,
                       const Batch& batch, float* grad);

}  // namespace treering::booster::mlp
