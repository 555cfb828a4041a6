// task=train and task=pred for booster=mlp, called by the `treering` CLI after rabit::Init.
// The CLI hands over its own keys (data, eval[NAME], model_in/out, ...) in MlpTaskOptions and
// the learner keys already parsed into MlpParam.
#pragma once

#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "booster/learner.h"  // EvalResult
#include "booster/mlp/mlp_param.h"
#include "base/status.h"

namespace treering::booster::mlp {

// Compute / sync totals of a training job, averaged over the workers (for the CLI's timing
// report, the same one the boosting learner prints; its "rounds" are epochs here).
struct SyncTotals {
  int workers = 1;
  int epochs = 0;
  double comp_s = 0, sync_s = 0;
  double payload_bytes = 0, calls = 0;  // handed to gradient allreduces
};

struct MlpTaskOptions {
  std::string data;
  std::vector<std::pair<std::string, std::string>> evals;  // NAME, URI in config order
  bool eval_train = false;
  std::string model_in, model_out, model_dir = "./";
  std::string test_data, name_pred = "pred.txt";
  bool pred_margin = false;
  int nthread = 0;
  int verbosity = 1;
  // Formats one per-epoch metric line (the CLI passes its boosting-round formatter).
  std::function<std::string(int, const std::vector<EvalResult>&)> format_eval_line;
  // The timing report's lines (rank 0 prints them when verbosity >= 1).
  std::function<std::vector<std::string>(const SyncTotals&)> format_timing;
};

Status RunMlpTrain(const MlpParam& param, const MlpTaskOptions& options);
Status RunMlpPredict(const MlpParam& param, const MlpTaskOptions& options);

}  // namespace treering::booster::mlp
