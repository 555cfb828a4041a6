#include "mlp_dispatch.h"

#include <algorithm>

#include "booster/mlp/mlp_param.h"
#include "booster/mlp/mlp_task.h"
#include "eval_report.h"
#include "timing_report.h"

namespace treering::cli {
namespace {

// "parameter batch_size: bad value ..." -> prefixed with the config line that set batch_size.
Status WithOrigin(const Status& st, const CliOptions& o) {
  const auto it = o.learner_origins.find(st.key());
  return st.WithContext(it != o.learner_origins.end() ? it->second : "config");
}

booster::mlp::MlpTaskOptions TaskOptions(const CliOptions& o) {
  booster::mlp::MlpTaskOptions t;
  t.data = o.data;
  for (const EvalSetSpec& e : o.evals) t.evals.emplace_back(e.name, e.uri);
  t.eval_train = o.eval_train;
  t.model_in = o.model_in;
  t.model_out = o.model_out;
  t.model_dir = o.model_dir;
  t.test_data = o.test_data;
  t.name_pred = o.name_pred;
  t.pred_margin = o.pred_margin;
  t.nthread = o.nthread;
  t.verbosity = o.verbosity;
  t.format_eval_line = FormatEvalLine;
  const double single_worker_seconds = o.single_worker_seconds;
  t.format_timing = [single_worker_seconds](const booster::mlp::SyncTotals& s) {
    RoundTotals r;
    r.workers = s.workers;
    r.rounds = s.epochs;
    r.comp_s = s.comp_s;
    r.sync_s = s.sync_s;
    r.payload_bytes = s.payload_bytes;
    r.calls = s.calls;
    return FormatTimingReport(r, single_worker_seconds);
  };
  return t;
}

}  // namespace

std::string BoosterOf(const std::vector<ConfigEntry>& entries) {
  std::string booster = "gbtree";
  for (const ConfigEntry& e : entries) {
    if (e.key == "booster") booster = e.value;
  }
  return booster;
}

std::string MlpHelpText() {
  std::size_t width = 0;
  for (const auto& d : MlpParamDocs())
    width = std::max(width, d.key.size() + 3 + d.default_value.size());
  std::string out = "\nMLP keys, booster=mlp (key = default  meaning; docs/mlp.md):\n";
  for (const auto& d : MlpParamDocs()) {
    std::string left = d.key + " = " + d.default_value;
    left.resize(width + 2, ' ');
    out += "  " + left + d.description + "\n";
  }
  return out;
}

const std::vector<booster::ParamDoc>& MlpParamDocs() { return booster::mlp::MlpParam::Params(); }

Status RunMlpTask(const CliOptions& options) {
  auto param = booster::mlp::MlpParam::Parse(options.learner_params);
  if (!param.ok()) return WithOrigin(param.status(), options);
  const booster::mlp::MlpTaskOptions t = TaskOptions(options);
  switch (options.task) {
    case Task::kTrain:
      return booster::mlp::RunMlpTrain(param.value(), t);
    case Task::kPred:
      return booster::mlp::RunMlpPredict(param.value(), t);
    case Task::kDump:
      break;
  }
  return Status::InvalidInput("config: task=dump is for tree models; booster=mlp has none");
}

}  // namespace treering::cli
