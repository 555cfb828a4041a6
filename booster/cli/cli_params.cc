#include "cli_params.h"

#include <algorithm>
#include <set>

#include "base/context.h"
#include "base/nearest_key.h"
#include "base/param_table.h"
#include "rabit/params.h"

namespace treering::cli {
namespace {

constexpr int kMaxRounds = 100000000;

using O = CliOptions;

// The CLI's wording of a bad value: "num_round = -1: expected an integer in [0, 100000000]".
std::string CliWording(const std::string& key, const std::string& value,
                       const std::string& allowed) {
  return key + " = " + value + ": expected " + allowed;
}

ParamField<O> SilentField() {
  return {"silent", "", "0", "1 is verbosity=0 (XGBoost's old key)",
          [](O* o, const std::string& v) -> Status {
            auto silent = ParseBoolean(v);
            if (silent.ok() && silent.value()) o->context.verbosity = 0;
            return silent.status();
          }};
}

// eval[NAME] is a pattern, handled before the table (EvalSetName); its row documents it.
ParamField<O> EvalSetField() {
  return {"eval[NAME]", "", "",
          "evaluation set; its metrics print as NAME-metric; any number, in config order",
          [](O*, const std::string&) {
            return Status::InvalidInput("a set name in the brackets, e.g. eval[test]");
          }};
}

const ParamTable<O>& CliTable() {
  static const ParamTable<O> kTable(
      {
          EnumField("task", &O::task,
                    {{"train", Task::kTrain},
                     {"pred", Task::kPred},
                     {"dump", Task::kDump},
                     {"importance", Task::kImportance}},
                    ""),
          ChoiceField("booster", &O::booster, {"gbtree", "dart", "gblinear", "mlp"},
                      "dart drops trees while fitting, gblinear is XGBoost's linear booster "
                      "(docs/learner.md); mlp is the neural "
                      "sync-SGD learner (its keys: docs/mlp.md, --help)"),
          StringField("data", &O::data,
                      "training data URI: path, path?format=libsvm, lists, globs (docs/data.md)")
              .Alias("train_path"),
          StringField("test:data", &O::test_data, "data to predict (task=pred)").Alias("test_path"),
          EvalSetField(),
          BoolField("eval_train", &O::eval_train,
                    "also evaluate the training data, printed as train-..., after the eval sets"),
          IntField("num_round", &O::num_round, 0, kMaxRounds,
                   "boosting rounds; 0 loads the data and writes the untrained model"),
          StringField("model_in", &O::model_in,
                      "model to continue training from (train), predict (pred) or dump (dump) "
                      "with; JSON, UBJSON or XGBoost's binary format, told apart by its bytes"),
          StringField("model_out", &O::model_out,
                      "final model file, its format by extension as XGBoost's (.json JSON, .ubj "
                      "UBJSON, else binary); default model_dir/<rounds as %04d>.model (.mlp for "
                      "booster=mlp); NULL: not set"),
          StringField("model_dir", &O::model_dir,
                      "directory for snapshots and the default model file (created if missing)"),
          IntField("save_period", &O::save_period, 0, kMaxRounds,
                   "also save model_dir/%04d.model after every k rounds (0: final only)"),
          StringField("name_pred", &O::name_pred,
                      "prediction file (task=pred); stdout prints the predictions"),
          BoolField("pred_margin", &O::pred_margin,
                    "raw margins instead of transformed predictions"),
          IntField("iteration_begin", &O::iteration_begin, 0, kMaxRounds,
                   "first boosting round used by task=pred"),
          IntField("iteration_end", &O::iteration_end, 0, kMaxRounds,
                   "task=pred uses rounds before this one; 0: every round"),
          IntField("ntree_limit", &O::ntree_limit, 0, kMaxRounds,
                   "deprecated (XGBoost): iteration_end = ntree_limit when not 0"),
          BoolField("pred_leaf", &O::pred_leaf,
                    "task=pred writes each row's leaf id in every tree (rows x trees)"),
          BoolField("pred_contribs", &O::pred_contribs,
                    "task=pred writes SHAP contributions: per class, one per feature, bias last"),
          BoolField("approx_contribs", &O::approx_contribs,
                    "pred_contribs / pred_interactions by Saabas' approximation"),
          BoolField("pred_interactions", &O::pred_interactions,
                    "task=pred writes SHAP interaction values: per class, (F+1) x (F+1)"),
          ChoiceField("importance_type", &O::importance_type,
                      {"weight", "gain", "cover", "total_gain", "total_cover"},
                      "task=importance: the score of each feature (XGBoost's get_score)"),
          StringField("name_importance", &O::name_importance,
                      "task=importance output: `name<TAB>score` lines; stdout prints them"),
          StringField("name_dump", &O::name_dump, "dump file (task=dump)"),
          EnumField("dump_format", &O::dump_format,
                    {{"text", booster::DumpFormat::kText},
                     {"json", booster::DumpFormat::kJson},
                     {"dot", booster::DumpFormat::kDot}},
                    ""),
          BoolField("dump_stats", &O::dump_stats, "include gain and cover in dumps (text, json)"),
          StringField(
              "fmap", &O::fmap,
              "feature map for task=dump and task=importance: lines `index name type`, type i, q, "
              "int, float, c (docs/cli.md)")
              .Alias("name_fmap"),
          ChoiceField("dsplit", &O::dsplit, {"auto", "row", "col"},
                      "data split: rows are always split when distributed; col is not supported"),
          SilentField(),
          IntField("early_stopping_rounds", &O::early_stopping_rounds, 0, kMaxRounds,
                   "stop when the last eval set's last metric has not improved for k rounds "
                   "(0: off)"),
          BoolField("debug_synchronize", &O::debug_synchronize,
                    "after each round check that every rank grew rank 0's trees (exit 1 if "
                    "not); every rank prints its model digest at the end (docs/distributed.md)"),
          RealField("single_worker_seconds", &O::single_worker_seconds, {.lo = 0},
                    "the rounds time of the same job on one worker (from its timing report): "
                    "the timing report adds the measured speedup"),
      },
      CliWording);
  return kTable;
}

// XGBoost's config templates write "NULL" for a path that is not set (`model_out = NULL`): such a
// key keeps its default.
bool IsUnset(const std::string& key, const std::string& value) {
  static const std::set<std::string> kPathKeys = {
      "data",      "train_path", "test:data", "test_path", "model_in",  "model_out",
      "model_dir", "name_pred",  "name_dump", "fmap",      "name_fmap", "name_importance"};
  return value == "NULL" && kPathKeys.count(key) != 0;
}

// "eval[NAME]" -> NAME; empty when `key` is not of that form.
std::string EvalSetName(const std::string& key) {
  if (key.size() < 7 || key.rfind("eval[", 0) != 0 || key.back() != ']') return "";
  return key.substr(5, key.size() - 6);
}

void AddEvalSet(const std::string& name, const std::string& uri, CliOptions* o) {
  for (EvalSetSpec& e : o->evals) {
    if (e.name == name) {  // a later setting (command line) replaces the set in place
      e.uri = uri;
      return;
    }
  }
  o->evals.push_back({name, uri});
}

Status UnknownKey(const ConfigEntry& e, const std::vector<booster::ParamDoc>& learner_docs) {
  std::string hint;
  if (e.key.rfind("eval[", 0) == 0) {
    hint = " (did you mean 'eval[NAME]'?)";  // the pattern, not a key one edit away
  } else {
    std::vector<std::string> candidates = CliTable().Keys();
    for (const std::string& k : Context::Table().Keys()) candidates.push_back(k);
    for (const booster::ParamDoc& d : learner_docs) candidates.push_back(d.key);
    for (const ParamDoc& d : rabit::ParamDocs()) candidates.push_back(d.key);
    hint = DidYouMean(e.key, candidates);
  }
  return Status::InvalidKey(e.key, e.origin + ": unknown key '" + e.key + "'" + hint);
}

Status ApplyEntry(const ConfigEntry& e, const std::set<std::string>& learner_keys,
                  const std::vector<booster::ParamDoc>& learner_docs,
                  const std::set<std::string>& other_learner_keys, CliOptions* o) {
  const bool for_learner = learner_keys.count(e.key) != 0;
  if (for_learner) {
    o->learner_params.emplace_back(e.key, e.value);
    o->learner_origins[e.key] = e.origin;
  }
  if (const std::string name = EvalSetName(e.key); !name.empty()) {
    AddEvalSet(name, e.value, o);
    return Status::Ok();
  }
  if (const ParamField<O>* field = CliTable().Find(e.key); field != nullptr) {
    const std::string& value = IsUnset(e.key, e.value) ? field->default_value : e.value;
    return CliTable().Set(o, e.key, value).WithContext(e.origin);
  }
  if (Context::Table().Find(e.key) != nullptr) {
    return Context::Table().Set(&o->context, e.key, e.value).WithContext(e.origin);
  }
  if (rabit::IsParamKey(e.key)) {
    // rabit checks its keys now, so a typo points at its line instead of failing in Init.
    Status st = rabit::CheckParam(e.key, e.value);
    if (!st.ok()) return st.WithContext(e.origin);
    o->rabit_params.emplace_back(e.key, e.value);
    return Status::Ok();
  }
  if (!for_learner && other_learner_keys.count(e.key) != 0) {
    if (std::find(o->unused_keys.begin(), o->unused_keys.end(), e.key) == o->unused_keys.end()) {
      o->unused_keys.push_back(e.key);
    }
    return Status::Ok();
  }
  return for_learner ? Status::Ok() : UnknownKey(e, learner_docs);
}

// Keys each task cannot do without, and combinations that cannot work.
Status CheckComplete(const CliOptions& o) {
  if (o.task == Task::kTrain && o.data.empty()) {
    return Status::InvalidInput("config: task=train needs data = <training data>");
  }
  if (o.task == Task::kPred && o.test_data.empty()) {
    return Status::InvalidInput("config: task=pred needs test:data = <data to predict>");
  }
  if (o.task != Task::kTrain && o.model_in.empty()) {
    const char* task = o.task == Task::kPred   ? "pred"
                       : o.task == Task::kDump ? "dump"
                                               : "importance";
    return Status::InvalidInput("config: task=" + std::string(task) +
                                " needs model_in = <model.json>");
  }
  if (int(o.pred_leaf) + int(o.pred_contribs) + int(o.pred_interactions) > 1) {
    return Status::InvalidInput(
        "config: pred_leaf, pred_contribs and pred_interactions are different outputs; set one");
  }
  if (o.approx_contribs && !o.pred_contribs && !o.pred_interactions) {
    return Status::InvalidInput(
        "config: approx_contribs = 1 needs pred_contribs = 1 or pred_interactions = 1");
  }
  if (o.dsplit == "col") {
    return Status::InvalidInput(
        "config: dsplit = col: column-split data is not supported; use dsplit = row (what a "
        "distributed job does anyway) or leave dsplit unset");
  }
  if (o.task == Task::kTrain && o.early_stopping_rounds > 0 && o.evals.empty() && !o.eval_train) {
    return Status::InvalidInput(
        "config: early_stopping_rounds needs an eval[NAME] set (or eval_train = 1)");
  }
  return Status::Ok();
}

}  // namespace

// The CLI's keys, then the Context's (which the CLI parses for the loader and the learner).
const std::vector<booster::ParamDoc>& CliParamDocs() {
  static const std::vector<booster::ParamDoc> kDocs = [] {
    std::vector<booster::ParamDoc> docs = CliTable().Docs();
    for (booster::ParamDoc& d : Context::Table().Docs()) docs.push_back(std::move(d));
    return docs;
  }();
  return kDocs;
}

Result<CliOptions> BuildOptions(const std::vector<ConfigEntry>& entries,
                                const std::vector<booster::ParamDoc>& learner_docs,
                                const std::set<std::string>& other_learner_keys) {
  std::set<std::string> learner_keys;
  for (const booster::ParamDoc& d : learner_docs) learner_keys.insert(d.key);
  CliOptions options;
  for (const ConfigEntry& e : entries) {
    Status st = ApplyEntry(e, learner_keys, learner_docs, other_learner_keys, &options);
    if (!st.ok()) return st;
  }
  Status st = CheckComplete(options);
  if (!st.ok()) return st;
  if (options.name_pred == "stdout") options.save_period = 0;  // XGBoost's CLIParam::Configure
  return options;
}

}  // namespace treering::cli
