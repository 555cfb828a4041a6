#include "booster_config.h"

#include <cctype>
#include <cstdlib>
#include <optional>

#include <nlohmann/json.hpp>

#include "api_error.h"
#include "base/context.h"
#include "booster/tree/dart/dart_param.h"

namespace treering::capi {
namespace {

using nlohmann::ordered_json;

bool IsLearnerTrainKey(const std::string& key) {
  return key == "booster" || key == "objective" || key == "disable_default_eval_metric";
}

// The characters that can end or nest a value outside strings; everything else (digits, signs,
// letters of true/false/null) passes in one table lookup (a model's trees are megabytes of
// numbers and commas, skipped once per save_config).
struct Structural {
  bool at[256] = {};
  constexpr Structural() {
    for (unsigned char c : {'"', '{', '[', '}', ']', ','}) at[c] = true;
  }
};
constexpr Structural kStructural;

// Skips one JSON value starting at text[*pos] (after whitespace); false on malformed text.
bool SkipValue(std::string_view text, std::size_t* pos) {
  int depth = 0;
  const std::size_t n = text.size();
  for (std::size_t i = *pos; i < n; ++i) {
    const unsigned char c = static_cast<unsigned char>(text[i]);
    if (!kStructural.at[c] || (c == ',' && depth > 0)) continue;
    if (c == '"') {  // to the closing quote, past escapes
      for (++i; i < n && text[i] != '"'; ++i) {
        if (text[i] == '\\') ++i;
      }
      if (i >= n) return false;
      if (depth == 0) {
        *pos = i + 1;
        return true;
      }
    } else if (c == '{' || c == '[') {
      ++depth;
    } else if (depth == 0) {  // ',' '}' ']' after a number or literal: its end
      *pos = i;
      return true;
    } else if (--depth == 0) {  // '}' or ']' closing the value
      *pos = i + 1;
      return true;
    }
  }
  return false;
}

void SkipSpace(std::string_view text, std::size_t* pos) {
  while (*pos < text.size() && std::isspace(static_cast<unsigned char>(text[*pos]))) ++*pos;
}

// Reads `"key"` then ':' at *pos.
bool ReadKey(std::string_view text, std::size_t* pos, std::string_view* key) {
  SkipSpace(text, pos);
  if (*pos >= text.size() || text[*pos] != '"') return false;
  const std::size_t end = text.find('"', *pos + 1);
  if (end == std::string_view::npos) return false;
  *key = text.substr(*pos + 1, end - *pos - 1);
  *pos = end + 1;
  SkipSpace(text, pos);
  if (*pos >= text.size() || text[*pos] != ':') return false;
  ++*pos;
  SkipSpace(text, pos);
  return true;
}

// Calls visit(name, value text) for each member of the JSON object `object` in order, until it
// returns false; the values are skipped unparsed (a model's header sits beside megabytes of
// trees, so each byte should be passed over once).
template <typename Visit>
void ForEachMember(std::string_view object, Visit visit) {
  std::size_t pos = 0;
  SkipSpace(object, &pos);
  if (pos >= object.size() || object[pos] != '{') return;
  ++pos;
  for (;;) {
    SkipSpace(object, &pos);
    if (pos >= object.size() || object[pos] == '}') return;
    std::string_view name;
    if (!ReadKey(object, &pos, &name)) return;
    const std::size_t begin = pos;
    if (!SkipValue(object, &pos)) return;
    if (!visit(name, object.substr(begin, pos - begin))) return;
    SkipSpace(object, &pos);
    if (pos < object.size() && object[pos] == ',') ++pos;
  }
}

// `text` parsed when it is a JSON object, else `fallback`.
ordered_json ObjectOr(std::optional<std::string_view> text, ordered_json fallback) {
  if (!text) return fallback;
  ordered_json parsed = ordered_json::parse(*text, nullptr, false);
  return parsed.is_object() ? parsed : fallback;
}

// Every string member of an object tree, by its key (the last one wins).
void CollectStrings(const ordered_json& node, ParamList* out) {
  if (!node.is_object()) return;
  for (const auto& [key, value] : node.items()) {
    if (value.is_string()) out->emplace_back(key, value.get<std::string>());
    if (value.is_object()) CollectStrings(value, out);
  }
}

}  // namespace

// GBLinear::SaveConfig: the booster's and its updater's parameters with XGBoost's defaults,
// overlaid with the ones set (a key and its alias both appear, as XGBoost writes them).
ordered_json LinearConfig(const ParamList& params) {
  std::map<std::string, std::string> train = {
      {"max_row_perbatch", "18446744073709551615"}, {"tolerance", "0"}, {"updater", "shotgun"}};
  std::map<std::string, std::string> linear = {
      {"alpha", "0"},     {"eta", "0.5"},           {"feature_selector", "cyclic"},
      {"lambda", "0"},    {"learning_rate", "0.5"}, {"reg_alpha", "0"},
      {"reg_lambda", "0"}};
  std::string top_k = "0";
  const std::map<std::string, std::string> alias = {
      {"eta", "learning_rate"}, {"lambda", "reg_lambda"}, {"alpha", "reg_alpha"}};
  for (const auto& [key, value] : params) {
    if (key == "tolerance" || key == "updater") train[key] = value;
    if (key == "top_k") top_k = value;
    if (key == "feature_selector") linear[key] = value;
    for (const auto& [a, full] : alias) {
      if (key == a || key == full) linear[a] = linear[full] = value;
    }
  }
  ordered_json updater = {{"linear_train_param", linear}};
  if (train["updater"] == "coord_descent") updater["coordinate_param"] = {{"top_k", top_k}};
  return {{"gblinear_train_param", train}, {"name", "gblinear"}, {"updater", updater}};
}

std::string ConfigJson(const ParamList& params, std::string_view model_json,
                       std::int64_t num_trees) {
  ordered_json generic = ordered_json::object(), train = ordered_json::object(),
               tree = ordered_json::object(), dart = ordered_json::object();
  ordered_json metrics = ordered_json::array(), ordered = ordered_json::array();
  std::string booster = "gbtree", objective = "reg:squarederror";
  for (const auto& [key, value] : params) {
    ordered.push_back({key, value});
    if (key == "eval_metric") {
      metrics.push_back({{"name", value}});
    } else if (Context::Table().Find(key) != nullptr) {
      generic[key] = value;
    } else if (IsLearnerTrainKey(key)) {
      train[key] = value;
      if (key == "booster") booster = value;
      if (key == "objective") objective = value;
    } else if (booster::DartParam::Table().Find(key) != nullptr) {
      dart[key] = value;
    } else {
      tree[key] = value;
    }
  }
  train["booster"] = booster;
  train["objective"] = objective;
  // What the model knows: the objective with its parameter block and learner_model_param,
  // which XGBoost's LoadConfig needs (it reads them from the config, not the model).
  ordered_json objective_json = {{"name", objective}}, model_param = ordered_json::object();
  std::string trees = "0";
  // Trees per class per round: the model's once it has one, else the parameter as set.
  std::string parallel = tree.value("num_parallel_tree", std::string("1"));
  // Only the header is read: parsing the whole model to get it cost 0.2 s for 100 deep trees
  // (3 MB), once per save_config and per copy or pickle (docs/benchmarks.md).
  std::optional<std::string_view> learner, objective_text, model_param_text, gb, gb_model;
  ForEachMember(model_json, [&](std::string_view name, std::string_view value) {
    if (name == "learner") learner = value;
    return !learner;
  });
  if (learner) {
    ForEachMember(*learner, [&](std::string_view name, std::string_view value) {
      if (name == "objective") objective_text = value;
      if (name == "learner_model_param") model_param_text = value;
      if (name == "gradient_booster") gb = value;
      return true;
    });
  }
  // gbtree: {"model": {"gbtree_model_param": ..., "trees": ...}, ...}; dart: {"gbtree": {that},
  // ...}. Each comes first in its object, so the walks stop before the trees.
  for (int depth = 0; gb && !gb_model && depth < 2; ++depth) {
    std::optional<std::string_view> inner;
    ForEachMember(*gb, [&](std::string_view name, std::string_view value) {
      if (name == "model") gb_model = value;
      if (name == "gbtree") inner = value;
      return !gb_model && !inner;
    });
    gb = inner;
  }
  objective_json = ObjectOr(objective_text, objective_json);
  model_param = ObjectOr(model_param_text, model_param);
  if (gb_model) {
    std::optional<std::string_view> header_text;
    ForEachMember(*gb_model, [&](std::string_view name, std::string_view value) {
      if (name == "gbtree_model_param") header_text = value;
      return !header_text;
    });
    const ordered_json header = ObjectOr(header_text, ordered_json::object());
    trees = header.value("num_trees", trees);
    parallel = header.value("num_parallel_tree", parallel);
  }
  if (num_trees >= 0) trees = std::to_string(num_trees);
  ordered_json gbtree = {
      {"gbtree_model_param",
       {{"num_parallel_tree", parallel}, {"num_trees", trees}, {"size_leaf_vector", "0"}}},
      {"gbtree_train_param",
       {{"process_type", "default"},
        {"tree_method", "hist"},
        {"updater", "grow_quantile_histmaker"}}},
      {"name", "gbtree"},
      {"specified_updater", false},
      {"updater", {{"grow_quantile_histmaker", {{"train_param", tree}}}}}};
  ordered_json gradient = gbtree;
  if (booster == "gblinear") gradient = LinearConfig(params);
  if (booster == "dart") {
    gradient = {{"dart_train_param", dart}, {"gbtree", gbtree}, {"name", "dart"}};
  }
  ordered_json doc = {{"learner",
                       {{"generic_param", generic},
                        {"gradient_booster", gradient},
                        {"learner_model_param", model_param},
                        {"learner_train_param", train},
                        {"metrics", metrics},
                        {"objective", objective_json}}},
                      {"version", {1, 7, 4}},
                      {"treering_params", ordered}};
  return doc.dump();
}

namespace {

// XGBoost 1.7 restores a configuration without putting `objective` back among the keys its
// user set, so its next Configure (learner.cc, ConfigureObjective) turns num_class > 1 with a
// one-output objective (a custom multi-class objective's set-up) into multi:softmax: a copied
// or unpickled booster then predicts class indices. The same here.
void ObjectiveAsXGBoostRestoresIt(ParamList* params) {
  int num_class = 0;
  for (const auto& [key, value] : *params) {
    if (key == "num_class") num_class = std::atoi(value.c_str());
  }
  if (num_class < 2) return;
  for (auto& [key, value] : *params) {
    if (key == "objective" && value.rfind("multi:", 0) != 0) value = "multi:softmax";
  }
}

}  // namespace

ParamList ParamsFromConfig(std::string_view json, const char* what,
                           const std::function<bool(const std::string&)>& known) {
  const ordered_json doc = ordered_json::parse(json, nullptr, false);
  if (doc.is_discarded() || !doc.is_object() || !doc.contains("learner") ||
      !doc["learner"].is_object()) {
    throw ApiError(std::string(what) + ": not a booster configuration ({\"learner\": {...}})");
  }
  ParamList out;
  if (const auto it = doc.find("treering_params"); it != doc.end() && it->is_array()) {
    for (const auto& kv : *it) {
      if (!kv.is_array() || kv.size() != 2 || !kv[0].is_string() || !kv[1].is_string()) {
        throw ApiError(std::string(what) + ": treering_params: expected [key, value] strings");
      }
      out.emplace_back(kv[0].get<std::string>(), kv[1].get<std::string>());
    }
    ObjectiveAsXGBoostRestoresIt(&out);
    return out;
  }
  // XGBoost's own config: the sections that hold training parameters.
  const ordered_json& learner = doc["learner"];
  for (const char* section : {"generic_param", "learner_train_param", "gradient_booster"}) {
    if (learner.contains(section)) CollectStrings(learner[section], &out);
  }
  if (learner.contains("objective")) CollectStrings(learner["objective"], &out);
  if (const auto m = learner.find("learner_model_param"); m != learner.end() && m->is_object()) {
    if (m->contains("num_class") && (*m)["num_class"] != "0") {
      out.emplace_back("num_class", (*m)["num_class"].get<std::string>());
    }
  }
  if (const auto metrics = learner.find("metrics"); metrics != learner.end()) {
    for (const auto& m : *metrics) {
      if (m.is_object() && m.contains("name") && m["name"].is_string()) {
        out.emplace_back("eval_metric", m["name"].get<std::string>());
      }
    }
  }
  // XGBoost lists every parameter; an empty value (interaction_constraints) means unset.
  std::erase_if(out, [&](const auto& kv) { return kv.second.empty() || !known(kv.first); });
  ObjectiveAsXGBoostRestoresIt(&out);
  return out;
}

bool SplitSnapshot(std::string_view bytes, std::string_view* config, std::string_view* model) {
  std::size_t pos = 0;
  SkipSpace(bytes, &pos);
  if (pos >= bytes.size() || bytes[pos] != '{') return false;
  ++pos;
  bool have_config = false, have_model = false;
  for (int member = 0; member < 2; ++member) {
    std::string_view key;
    if (!ReadKey(bytes, &pos, &key)) return false;
    const std::size_t begin = pos;
    if (!SkipValue(bytes, &pos)) return false;
    const std::string_view value = bytes.substr(begin, pos - begin);
    if (key == "Config") *config = value, have_config = true;
    if (key == "Model") *model = value, have_model = true;
    SkipSpace(bytes, &pos);
    if (pos < bytes.size() && bytes[pos] == ',') ++pos;
  }
  SkipSpace(bytes, &pos);
  return have_config && have_model && pos < bytes.size() && bytes[pos] == '}';
}

}  // namespace treering::capi
