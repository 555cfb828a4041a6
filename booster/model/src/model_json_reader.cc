// ModelFromJson / LoadModelJson: the learner-level fields of an XGBoost 1.7 JSON model; trees
// are read by tree_json_reader.cc.
#include <algorithm>
#include <cstdlib>
#include <limits>
#include <string>

#include <nlohmann/json.hpp>

#include "booster/atomic_file.h"
#include "booster/model_io.h"
#include "json_cursor.h"
#include "model_document.h"
#include "tree_json_reader.h"

namespace treering::booster {
namespace {

constexpr std::int64_t kMaxClasses = 1 << 20;

Status ReadAttributes(const JsonCursor& learner, GBTreeModel* model) {
  auto attrs = learner.Member("attributes");
  if (!attrs.ok()) return attrs.status();
  auto object = attrs->Object();
  if (!object.ok()) return object.status();
  for (const auto& [key, value] : attrs->node().items()) {
    if (!value.is_string()) {
      return attrs->Error("attribute \"" + key + "\" must be a string, got " + JsonTypeName(value));
    }
    model->attributes[key] = value.get<std::string>();
  }
  return Status::Ok();
}

// An integer parameter (a JSON string) of `param`; a missing key is an error.
Result<std::int64_t> IntParam(const JsonCursor& param, const char* key, std::int64_t lo,
                              std::int64_t hi) {
  auto field = param.Member(key);
  if (!field.ok()) return field.status();
  return field->IntInString(lo, hi);
}

Status ReadModelParam(const JsonCursor& learner, GBTreeModel* model) {
  auto param = learner.Member("learner_model_param");
  if (!param.ok()) return param.status();
  auto base_score = param->Member("base_score");
  if (!base_score.ok()) return base_score.status();
  auto score = base_score->FloatInString();
  if (!score.ok()) return score.status();
  model->base_score = score.value();
  auto num_class = IntParam(param.value(), "num_class", 0, kMaxClasses);
  if (!num_class.ok()) return num_class.status();
  model->num_class = static_cast<int>(num_class.value());
  auto num_feature =
      IntParam(param.value(), "num_feature", 0, std::numeric_limits<std::uint32_t>::max());
  if (!num_feature.ok()) return num_feature.status();
  model->num_feature = static_cast<std::uint64_t>(num_feature.value());
  if (param->Has("num_target")) {  // optional: XGBoost < 1.6 has none
    auto num_target = IntParam(param.value(), "num_target", 0, kMaxClasses);
    if (!num_target.ok()) return num_target.status();
    model->num_target = std::max(1, static_cast<int>(num_target.value()));
    if (model->num_target > 1 && model->num_class > 1) {
      return param->Error("num_class " + std::to_string(model->num_class) + " and num_target " +
                          std::to_string(model->num_target) +
                          ": multi-class multi-output is not supported (as XGBoost)");
    }
  }
  if (param->Has("boost_from_average")) {  // optional
    auto bfa = IntParam(param.value(), "boost_from_average", 0, 1);
    if (!bfa.ok()) return bfa.status();
    model->boost_from_average = bfa.value() == 1;
  }
  return Status::Ok();
}

// The "<block>": {"key": "value", ...} objects next to "name", kept as strings.
Status ReadObjectiveBlocks(const JsonCursor& objective, GBTreeModel* model) {
  for (const auto& [block, params] : objective.node().items()) {
    if (block == "name") continue;
    if (!params.is_object()) {
      return objective.Error("\"" + block + "\" must be an object, got " + JsonTypeName(params));
    }
    model->objective_param_block = block;
    for (const auto& [key, value] : params.items()) {
      if (!value.is_string()) {
        return objective.Error(block + "/" + key + " must be a string, got " + JsonTypeName(value));
      }
      model->objective_params[key] = value.get<std::string>();
    }
  }
  return Status::Ok();
}

// {"name": "...", "<block>": {...}}: the typed field scale_pos_weight is taken out of the
// block, the rest is kept so the model saves back unchanged.
Status ReadObjective(const JsonCursor& learner, GBTreeModel* model) {
  auto objective = learner.Member("objective");
  if (!objective.ok()) return objective.status();
  auto name = objective->Member("name");
  if (!name.ok()) return name.status();
  auto text = name->String();
  if (!text.ok()) return text.status();
  model->objective = text.value();
  Status st = ReadObjectiveBlocks(objective.value(), model);
  if (!st.ok()) return st;
  const auto spw = model->objective_params.find("scale_pos_weight");
  if (spw != model->objective_params.end()) {
    char* end = nullptr;
    model->scale_pos_weight = std::strtof(spw->second.c_str(), &end);
    if (spw->second.empty() || *end != '\0') {
      return objective->Error("scale_pos_weight \"" + spw->second + "\" is not a number");
    }
  }
  return Status::Ok();
}

// gbtree_model_param.num_parallel_tree (XGBoost writes it; older files without the block are
// single-tree rounds). Rounds must be whole: every count of rounds divides by it.
Status ReadParallelTrees(const JsonCursor& gbtree, GBTreeModel* model) {
  if (!gbtree.Has("gbtree_model_param")) return Status::Ok();
  auto param = gbtree.Member("gbtree_model_param");
  if (!param.ok() || !param->Has("num_parallel_tree")) return param.status();
  auto k = param->Member("num_parallel_tree");
  if (!k.ok()) return k.status();
  auto value = k->IntInString(1, 1 << 20);
  if (!value.ok()) return value.status();
  model->num_parallel_tree = static_cast<int>(value.value());
  if (model->trees.size() % static_cast<std::size_t>(model->TreesPerRound()) != 0) {
    return k->Error(std::to_string(model->trees.size()) + " trees are not whole rounds of " +
                    std::to_string(model->TreesPerRound()) + " (classes x num_parallel_tree)");
  }
  return Status::Ok();
}

Status ReadTrees(const JsonCursor& gbtree, GBTreeModel* model) {
  auto trees = gbtree.Member("trees");
  if (!trees.ok()) return trees.status();
  auto elements = trees->Elements();
  if (!elements.ok()) return elements.status();
  for (const JsonCursor& tree : elements.value()) {
    auto t = ReadTree(tree, model->num_feature);
    if (!t.ok()) return t.status();
    model->trees.push_back(std::move(t.value()));
  }
  auto info = gbtree.Member("tree_info");
  if (!info.ok()) return info.status();
  auto groups = info->IntArray(0, model->NumGroups() - 1);
  if (!groups.ok()) return groups.status();
  if (groups->size() != model->trees.size()) {
    return info->Error("has " + std::to_string(groups->size()) + " entries for " +
                       std::to_string(model->trees.size()) + " trees");
  }
  model->tree_info.assign(groups->begin(), groups->end());
  return ReadParallelTrees(gbtree, model);
}

Status ReadGradientBooster(const JsonCursor& booster, const std::string& allowed,
                           GBTreeModel* model);

// GBLinearModel::LoadModel: {"boosted_rounds": n (optional), "weights": [(F + 1) x groups]}.
Status ReadLinear(const JsonCursor& booster, GBTreeModel* model) {
  auto linear = booster.Member("model");
  if (!linear.ok()) return linear.status();
  auto weights = linear->Member("weights");
  if (!weights.ok()) return weights.status();
  auto values = weights->FloatArray();
  if (!values.ok()) return values.status();
  const std::size_t expected =
      (model->num_feature + 1) * static_cast<std::size_t>(model->NumGroups());
  if (!values->empty() && values->size() != expected) {
    return weights->Error("has " + std::to_string(values->size()) + " weights, not (" +
                          std::to_string(model->num_feature) + " features + 1) x " +
                          std::to_string(model->NumGroups()) + " groups");
  }
  model->linear = true;
  model->linear_weights = std::move(values).value();
  model->linear_rounds = 0;
  if (linear->Has("boosted_rounds")) {
    auto rounds = linear->Member("boosted_rounds");
    if (!rounds.ok()) return rounds.status();
    auto n = rounds->Integer(0, std::int64_t{1} << 30);
    if (!n.ok()) return n.status();
    model->linear_rounds = static_cast<int>(n.value());
  }
  return Status::Ok();
}

// Dart::LoadModel: {"gbtree": {gbtree booster}, "name": "dart", "weight_drop": [one per tree]}.
Status ReadDart(const JsonCursor& booster, GBTreeModel* model) {
  auto inner = booster.Member("gbtree");
  if (!inner.ok()) return inner.status();
  if (Status st = ReadGradientBooster(inner.value(), "gbtree", model); !st.ok()) return st;
  auto weights = booster.Member("weight_drop");
  if (!weights.ok()) return weights.status();
  auto values = weights->FloatArray();
  if (!values.ok()) return values.status();
  if (values->size() != model->trees.size()) {
    return weights->Error("has " + std::to_string(values->size()) + " entries for " +
                          std::to_string(model->trees.size()) + " trees");
  }
  model->dart = true;
  model->weight_drop = std::move(values).value();
  return Status::Ok();
}

// `booster` is learner.gradient_booster, or dart's nested gbtree (allowed: gbtree only).
Status ReadGradientBooster(const JsonCursor& booster, const std::string& allowed,
                           GBTreeModel* model) {
  auto name = booster.Member("name");
  if (!name.ok()) return name.status();
  auto text = name->String();
  if (!text.ok()) return text.status();
  if (text.value() == "dart" && allowed != "gbtree") return ReadDart(booster, model);
  if (text.value() == "gblinear" && allowed != "gbtree") return ReadLinear(booster, model);
  if (text.value() != "gbtree") {
    return name->Error("booster \"" + text.value() + "\" is not supported (only " + allowed + ")");
  }
  auto gbtree = booster.Member("model");
  if (!gbtree.ok()) return gbtree.status();
  return ReadTrees(gbtree.value(), model);
}

// XGBoost 1.7 writes a categorical node's split condition as a bare NaN token, which is not
// JSON; outside strings it becomes null (the tree reader takes null only at categorical nodes).
// Copies only when the text has such a token.
std::string_view WithoutNaN(std::string_view text, std::string* storage) {
  if (text.find("NaN") == std::string_view::npos) return text;
  storage->assign(text.begin(), text.end());
  bool in_string = false;
  for (std::size_t i = 0; i < storage->size(); ++i) {
    const char c = (*storage)[i];
    if (in_string) {
      if (c == '\\') {
        ++i;
      } else if (c == '"') {
        in_string = false;
      }
    } else if (c == '"') {
      in_string = true;
    } else if (c == 'N' && storage->compare(i, 3, "NaN") == 0) {
      storage->replace(i, 3, "null");
      i += 3;
    }
  }
  return *storage;
}

Status ReadStringList(const JsonCursor& learner, std::string_view key,
                      std::vector<std::string>* out) {
  if (!learner.Has(key)) return Status::Ok();
  auto list = learner.Member(key);
  if (!list.ok()) return list.status();
  auto elements = list->Elements();
  if (!elements.ok()) return elements.status();
  for (const JsonCursor& e : elements.value()) {
    auto name = e.String();
    if (!name.ok()) return name.status();
    out->push_back(name.value());
  }
  return Status::Ok();
}

Status ReadFeatureTypes(const JsonCursor& learner, GBTreeModel* model) {
  if (Status s = ReadStringList(learner, "feature_names", &model->feature_names); !s.ok()) {
    return s;
  }
  return ReadStringList(learner, "feature_types", &model->feature_types);
}

Status ReadGradientBooster(const JsonCursor& learner, GBTreeModel* model) {
  auto booster = learner.Member("gradient_booster");
  if (!booster.ok()) return booster.status();
  return ReadGradientBooster(booster.value(), "gbtree, dart or gblinear", model);
}

Result<GBTreeModel> ReadModel(const JsonCursor& root) {
  auto learner = root.Member("learner");
  if (!learner.ok()) return learner.status();
  GBTreeModel model;
  for (auto step :
       {ReadAttributes, ReadModelParam, ReadObjective, ReadGradientBooster, ReadFeatureTypes}) {
    Status st = step(learner.value(), &model);
    if (!st.ok()) return st;
  }
  return model;
}

}  // namespace

Result<GBTreeModel> ModelFromDocument(const nlohmann::json& doc, const std::string& source) {
  return ReadModel(JsonCursor(&doc, "", &source));
}

Result<GBTreeModel> ModelFromJson(std::string_view text, const std::string& source) {
  nlohmann::json doc;
  std::string storage;
  text = WithoutNaN(text, &storage);
  try {
    doc = nlohmann::json::parse(text.begin(), text.end());
  } catch (const nlohmann::json::exception& e) {
    // e.what() is "[json.exception.parse_error.101] parse error at line 1, column 7: ..." (or
    // out_of_range.406 for a number too large for a double).
    std::string what = e.what();
    const auto pos = what.find("] ");
    if (pos != std::string::npos) what = what.substr(pos + 2);
    return Status::InvalidInput(source + ": not valid JSON: " + what);
  }
  return ModelFromDocument(doc, source);
}

Result<GBTreeModel> LoadModelJson(const std::string& path) {
  auto text = ReadWholeFile(path);
  if (!text.ok()) return text.status().WithContext("cannot load model");
  return ModelFromJson(text.value(), path);
}

}  // namespace treering::booster
