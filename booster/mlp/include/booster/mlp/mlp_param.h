// MlpParam: every key of the neural learner (booster=mlp), typed, with defaults chosen so that
// users run with them (docs/mlp.md). One table is the source for parsing, for `treering --help`
// and for the CLI's "did you mean" hints, as for the tree learner's keys.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "base/status.h"
#include "booster/learner.h"  // ParamDoc

namespace treering::booster::mlp {

enum class Activation { kRelu, kTanh };
enum class OptimizerKind { kSgd, kAdam };
enum class LrSchedule { kConstant, kStep, kCosine };

struct MlpParam {
  std::vector<int> hidden_layers{256, 128};
  Activation activation = Activation::kRelu;
  OptimizerKind optimizer = OptimizerKind::kSgd;
  double learning_rate = 0.05;  // per effective batch of 64 rows; see lr_scaling
  double momentum = 0.9;
  double adam_beta1 = 0.9, adam_beta2 = 0.999, adam_epsilon = 1e-8;
  double lambda = 0.0;  // L2 on weights (not biases), added to the averaged gradient
  int batch_size = 64;  // rows per worker per step
  int epochs = 10;
  int save_every = 0;  // epochs between snapshots; 0: final model only
  int seed = 0;        // not a key: MlpLearner::Create sets it from the Context's seed
  LrSchedule lr_schedule = LrSchedule::kCosine;
  double warmup_epochs = 0.5;  // linear ramp from 0 over this many epochs
  int lr_step_epochs = 3;      // kStep: multiply by lr_step_gamma every this many epochs
  double lr_step_gamma = 0.3;
  bool lr_scaling = true;  // learning rate x sqrt(world): larger effective batches, larger steps
  bool standardize = true;
  bool shuffle = true;
  long long bucket_bytes = 256 * 1024;  // gradient fusion bucket (Horovod / DDP style)
  long long first_bucket_bytes = 32 * 1024;
  std::string objective = "multi:softmax";
  int num_class = 0;
  std::vector<std::string> eval_metrics;  // empty: the objective's default

  // Every key with default and meaning, in table order.
  static const std::vector<ParamDoc>& Params();
  // Ordered key/value pairs (later wins, eval_metric accumulates). Unknown key or bad value:
  // kInvalidInput naming the key ("parameter batch_size: bad value '0', allowed: ...").
  static Result<MlpParam> Parse(const std::vector<std::pair<std::string, std::string>>& kv);
  // Output units: num_class for multi:*, else 1.
  int NumOutputs() const;
};

const char* ActivationName(Activation a);
const char* OptimizerName(OptimizerKind o);
const char* LrScheduleName(LrSchedule s);

}  // namespace treering::booster::mlp
