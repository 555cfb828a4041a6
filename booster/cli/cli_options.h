// CliOptions: the typed result of a `treering` configuration (file + command line). Keys the
// CLI itself understands become fields, the Context's keys its Context; learner keys and rabit
// keys are passed on in order.
#pragma once

#include <map>
#include <string>
#include <utility>
#include <vector>

#include "base/context.h"
#include "booster/model_dump.h"

namespace treering::cli {

using KeyValues = std::vector<std::pair<std::string, std::string>>;

enum class Task { kTrain, kPred, kDump, kImportance };

struct EvalSetSpec {
  std::string name;  // eval[NAME]: the prefix of its metrics ("test-auc")
  std::string uri;
};

struct CliOptions {
  Task task = Task::kTrain;
  std::string booster = "gbtree";  // gbtree | mlp (booster/mlp)
  std::string data;                // data / train_path
  std::string test_data;           // test:data / test_path (task=pred)
  std::vector<EvalSetSpec> evals;  // in config order
  bool eval_train = false;
  int num_round = 10;
  std::string model_in, model_out;
  std::string model_dir = "./";
  int save_period = 0;
  std::string name_pred = "pred.txt";
  bool pred_margin = false;
  int ntree_limit = 0;  // XGBoost's deprecated spelling of iteration_end (trees per class)
  int iteration_begin = 0, iteration_end = 0;  // rounds [begin, end) predict; end 0: all
  // What task=pred writes instead of predictions (at most one; docs/cli.md).
  bool pred_leaf = false, pred_contribs = false, pred_interactions = false;
  bool approx_contribs = false;            // with pred_contribs / pred_interactions: Saabas
  std::string importance_type = "weight";  // task=importance
  std::string name_importance = "importance.txt";
  std::string name_dump = "dump.txt";
  booster::DumpFormat dump_format = booster::DumpFormat::kText;
  bool dump_stats = false;
  std::string fmap;             // feature map for dumps (name_fmap)
  std::string dsplit = "auto";  // auto | row (col is refused)
  // nthread, seed (random_state), verbosity: the job's Context, parsed here once (by its own
  // table, base/context.h) and handed to the loader and the learner by const reference.
  Context context;
  int early_stopping_rounds = 0;     // 0: off
  bool debug_synchronize = false;    // compare every rank's trees with rank 0's each round
  double single_worker_seconds = 0;  // > 0: the timing report prints the measured speedup
  KeyValues learner_params;          // every key the learner's table knows, in config order
  KeyValues rabit_params;            // rabit_*, dmlc_*, DMLC_*, mock
  // Where each learner key was last set, to point a learner error at file:line.
  std::map<std::string, std::string> learner_origins;
  // Keys of another learner (gbtree's under booster=gblinear...): XGBoost 1.7 trains on and
  // warns that they "are not used"; so does the CLI (UnusedKeysWarning).
  std::vector<std::string> unused_keys;
};

}  // namespace treering::cli
