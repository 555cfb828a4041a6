#include "cli_params.h"

#include <algorithm>
#include <cstdint>
#include <set>

#include "base/nearest_key.h"
#include "value_parsers.h"

namespace treering::cli {
namespace {

constexpr std::int64_t kMaxRounds = 100000000;
constexpr std::int64_t kMaxThreads = 4096;

using Apply = Status (*)(const std::string& value, CliOptions* options);

struct CliKey {
  booster::ParamDoc doc;
  Apply apply;
};

Status SetInt(const std::string& value, std::int64_t lo, std::int64_t hi, int* field) {
  auto v = ParseIntIn(value, lo, hi);
  if (!v.ok()) return v.status();
  *field = static_cast<int>(v.value());
  return Status::Ok();
}

Status SetBool(const std::string& value, bool* field) {
  auto v = ParseBool(value);
  if (!v.ok()) return v.status();
  *field = v.value();
  return Status::Ok();
}

Status SetTask(const std::string& value, CliOptions* o) {
  auto v = ParseOneOf(value, {"train", "pred", "dump"});
  if (!v.ok()) return v.status();
  o->task = value == "train" ? Task::kTrain : value == "pred" ? Task::kPred : Task::kDump;
  return Status::Ok();
}

Status SetDumpFormat(const std::string& value, CliOptions* o) {
  auto v = ParseOneOf(value, {"text", "json"});
  if (!v.ok()) return v.status();
  o->dump_format = value == "text" ? booster::DumpFormat::kText : booster::DumpFormat::kJson;
  return Status::Ok();
}

Status SetSilent(const std::string& value, CliOptions* o) {
  bool silent = false;
  Status st = SetBool(value, &silent);
  if (st.ok() && silent) o->verbosity = 0;
  return st;
}

const std::vector<CliKey>& CliKeys() {
  static const std::vector<CliKey> kKeys = {
      {{"task", "train", "train | pred | dump"}, SetTask},
      {{"booster", "gbtree", "gbtree | mlp (neural sync-SGD: MLP keys below)"},
       [](const std::string& v, CliOptions* o) {
         o->booster = v;
         return ParseOneOf(v, {"gbtree", "mlp"}).status();
       }},
      {{"data", "", "training data URI (path[?format=libsvm])"},
       [](const std::string& v, CliOptions* o) {
         o->data = v;
         return Status::Ok();
       }},
      {{"train_path", "", "alias of data"},
       [](const std::string& v, CliOptions* o) {
         o->data = v;
         return Status::Ok();
       }},
      {{"test:data", "", "data to predict (task=pred)"},
       [](const std::string& v, CliOptions* o) {
         o->test_data = v;
         return Status::Ok();
       }},
      {{"test_path", "", "alias of test:data"},
       [](const std::string& v, CliOptions* o) {
         o->test_data = v;
         return Status::Ok();
       }},
      {{"eval[NAME]", "", "evaluation set; metrics print as NAME-metric (any number)"}, nullptr},
      {{"eval_train", "0", "also evaluate the training data, as \"train\" (last)"},
       [](const std::string& v, CliOptions* o) { return SetBool(v, &o->eval_train); }},
      {{"num_round", "10", "boosting rounds; 0 writes the untrained model"},
       [](const std::string& v, CliOptions* o) { return SetInt(v, 0, kMaxRounds, &o->num_round); }},
      {{"model_in", "", "JSON model to continue training from / to predict or dump with"},
       [](const std::string& v, CliOptions* o) {
         o->model_in = v;
         return Status::Ok();
       }},
      {{"model_out", "", "final model file (JSON); default model_dir/<rounds as %04d>.json"},
       [](const std::string& v, CliOptions* o) {
         o->model_out = v;
         return Status::Ok();
       }},
      {{"model_dir", "./", "directory of periodic and default model files"},
       [](const std::string& v, CliOptions* o) {
         o->model_dir = v;
         return Status::Ok();
       }},
      {{"save_period", "0", "also save model_dir/%04d.json every k rounds (0: final only)"},
       [](const std::string& v, CliOptions* o) {
         return SetInt(v, 0, kMaxRounds, &o->save_period);
       }},
      {{"name_pred", "pred.txt", "prediction output file (task=pred); stdout prints them"},
       [](const std::string& v, CliOptions* o) {
         o->name_pred = v;
         return Status::Ok();
       }},
      {{"pred_margin", "0", "predict raw margins instead of transformed outputs"},
       [](const std::string& v, CliOptions* o) { return SetBool(v, &o->pred_margin); }},
      {{"name_dump", "dump.txt", "dump output file (task=dump)"},
       [](const std::string& v, CliOptions* o) {
         o->name_dump = v;
         return Status::Ok();
       }},
      {{"dump_format", "text", "text | json"}, SetDumpFormat},
      {{"dump_stats", "0", "include gain and cover in dumps"},
       [](const std::string& v, CliOptions* o) { return SetBool(v, &o->dump_stats); }},
      {{"nthread", "0", "threads for loading (and the learner); 0: all cores"},
       [](const std::string& v, CliOptions* o) { return SetInt(v, 0, kMaxThreads, &o->nthread); }},
      {{"verbosity", "1", "0: only metric lines, 1: also the timing summary, 2-3: progress"},
       [](const std::string& v, CliOptions* o) { return SetInt(v, 0, 3, &o->verbosity); }},
      {{"silent", "0", "1 is verbosity=0 (XGBoost's old key)"}, SetSilent},
      {{"early_stopping_rounds", "0",
        "stop when the last eval set's last metric has not improved for k rounds (0: off)"},
       [](const std::string& v, CliOptions* o) {
         return SetInt(v, 0, kMaxRounds, &o->early_stopping_rounds);
       }},
      {{"debug_synchronize", "0",
        "after each round check that every rank grew rank 0's trees (fail if not); every rank "
        "prints its model digest at the end"},
       [](const std::string& v, CliOptions* o) { return SetBool(v, &o->debug_synchronize); }},
      {{"single_worker_seconds", "0",
        "rounds time of the same job on one worker (from its timing report): adds the measured "
        "speedup to the timing report"},
       [](const std::string& v, CliOptions* o) {
         auto seconds = ParseNonNegative(v);
         if (seconds.ok()) o->single_worker_seconds = seconds.value();
         return seconds.status();
       }},
  };
  return kKeys;
}

const CliKey* FindCliKey(const std::string& key) {
  for (const CliKey& k : CliKeys()) {
    if (k.doc.key == key && k.apply != nullptr) return &k;
  }
  return nullptr;
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
  std::vector<std::string> candidates;
  for (const CliKey& k : CliKeys()) candidates.push_back(k.doc.key);
  for (const booster::ParamDoc& d : learner_docs) candidates.push_back(d.key);
  std::string message = e.origin + ": unknown key '" + e.key + "'";
  const std::string nearest = NearestKey(e.key, candidates);
  if (!nearest.empty()) message += " (did you mean '" + nearest + "'?)";
  return Status::InvalidInput(message);
}

Status ApplyEntry(const ConfigEntry& e, const std::set<std::string>& learner_keys,
                  const std::vector<booster::ParamDoc>& learner_docs, CliOptions* o) {
  const bool for_learner = learner_keys.count(e.key) != 0;
  if (for_learner) {
    o->learner_params.emplace_back(e.key, e.value);
    o->learner_origins[e.key] = e.origin;
  }
  if (const CliKey* k = FindCliKey(e.key)) {
    Status st = k->apply(e.value, o);
    if (!st.ok()) {
      return Status::InvalidInput(e.origin + ": " + e.key + " = " + e.value + ": " + st.message());
    }
    return Status::Ok();
  }
  if (const std::string name = EvalSetName(e.key); !name.empty()) {
    AddEvalSet(name, e.value, o);
    return Status::Ok();
  }
  if (IsRabitKey(e.key)) {
    o->rabit_params.emplace_back(e.key, e.value);
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
    return Status::InvalidInput(
        "config: task=" + std::string(o.task == Task::kPred ? "pred" : "dump") +
        " needs model_in = <model.json>");
  }
  if (o.task == Task::kTrain && o.early_stopping_rounds > 0 && o.evals.empty() && !o.eval_train) {
    return Status::InvalidInput(
        "config: early_stopping_rounds needs an eval[NAME] set (or eval_train = 1)");
  }
  return Status::Ok();
}

}  // namespace

const std::vector<booster::ParamDoc>& CliParamDocs() {
  static const std::vector<booster::ParamDoc> kDocs = [] {
    std::vector<booster::ParamDoc> docs;
    for (const CliKey& k : CliKeys()) docs.push_back(k.doc);
    return docs;
  }();
  return kDocs;
}

bool IsRabitKey(const std::string& key) {
  return key.rfind("rabit_", 0) == 0 || key.rfind("dmlc_", 0) == 0 || key.rfind("DMLC_", 0) == 0 ||
         key == "mock";
}

Result<CliOptions> BuildOptions(const std::vector<ConfigEntry>& entries,
                                const std::vector<booster::ParamDoc>& learner_docs) {
  std::set<std::string> learner_keys;
  for (const booster::ParamDoc& d : learner_docs) learner_keys.insert(d.key);
  CliOptions options;
  for (const ConfigEntry& e : entries) {
    Status st = ApplyEntry(e, learner_keys, learner_docs, &options);
    if (!st.ok()) return st;
  }
  Status st = CheckComplete(options);
  if (!st.ok()) return st;
  return options;
}

}  // namespace treering::cli
