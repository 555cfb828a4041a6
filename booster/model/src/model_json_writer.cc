// ModelToJson / SaveModelJson: writes the exact bytes XGBoost 1.7.4 writes for a gbtree model
// (compact, object keys in sorted order, numbers typed as in docs/model-format.md).
#include <cmath>
#include <cstdio>
#include <string>

#include "booster/atomic_file.h"
#include "booster/model_io.h"
#include "booster/number_format.h"
#include "objective_block.h"

namespace treering::booster {
namespace {

// XGBoost 1.7's reader knows the short escapes but keeps "\uXXXX" literally, so the short
// forms are used wherever they exist.
const char* ShortEscape(unsigned char c) {
  switch (c) {
    case '"': return "\\\"";
    case '\\': return "\\\\";
    case '\n': return "\\n";
    case '\t': return "\\t";
    case '\r': return "\\r";
    case '\b': return "\\b";
    case '\f': return "\\f";
    default: return nullptr;
  }
}

void AppendQuoted(std::string* out, const std::string& s) {
  out->push_back('"');
  for (const unsigned char c : s) {
    if (const char* escape = ShortEscape(c)) {
      out->append(escape);
    } else if (c < 0x20) {
      char esc[8];
      std::snprintf(esc, sizeof(esc), "\\u%04x", c);
      out->append(esc);
    } else {
      out->push_back(static_cast<char>(c));
    }
  }
  out->push_back('"');
}

void AppendKey(std::string* out, const char* key) {
  AppendQuoted(out, key);
  out->push_back(':');
}

// {"k":"v",...} with string values (XGBoost's parameter objects); std::map keeps keys sorted.
void AppendStringObject(std::string* out, const std::map<std::string, std::string>& kv) {
  out->push_back('{');
  bool first = true;
  for (const auto& [key, value] : kv) {
    if (!first) out->push_back(',');
    first = false;
    AppendQuoted(out, key);
    out->push_back(':');
    AppendQuoted(out, value);
  }
  out->push_back('}');
}

template <typename Int>
void AppendIntArray(std::string* out, const std::vector<Int>& values) {
  out->push_back('[');
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (i != 0) out->push_back(',');
    out->append(std::to_string(values[i]));
  }
  out->push_back(']');
}

void AppendFloatArray(std::string* out, const std::vector<float>& values) {
  out->push_back('[');
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (i != 0) out->push_back(',');
    out->append(FloatToXgbJson(values[i]));
  }
  out->push_back(']');
}

Status CheckTree(const RegTree& tree, std::size_t id) {
  const std::size_t n = tree.left.size();
  const std::string where = "tree " + std::to_string(id) + ": ";
  if (n == 0) return Status::InvalidInput(where + "has no nodes");
  if (tree.right.size() != n || tree.parent.size() != n || tree.split_index.size() != n ||
      tree.split_cond.size() != n || tree.default_left.size() != n ||
      tree.base_weight.size() != n || tree.loss_change.size() != n || tree.sum_hess.size() != n) {
    return Status::InvalidInput(where + "node arrays differ in length");
  }
  for (const auto* arr : {&tree.split_cond, &tree.base_weight, &tree.loss_change, &tree.sum_hess}) {
    for (const float v : *arr) {
      if (!std::isfinite(v)) return Status::InvalidInput(where + "holds a non-finite number");
    }
  }
  return Status::Ok();
}

// The root's parent is -1 in memory and 2147483647 in XGBoost's files.
std::vector<std::int64_t> ParentsForJson(const std::vector<std::int32_t>& parent) {
  std::vector<std::int64_t> out(parent.begin(), parent.end());
  for (auto& p : out) {
    if (p < 0) p = 2147483647;
  }
  return out;
}

void AppendTree(std::string* out, const RegTree& tree, std::size_t id, std::uint64_t num_feature) {
  const std::size_t n = tree.left.size();
  const std::vector<int> zeros(n, 0);
  const std::vector<int> default_left(tree.default_left.begin(), tree.default_left.end());
  out->append("{");
  AppendKey(out, "base_weights"); AppendFloatArray(out, tree.base_weight);
  out->append(R"(,"categories":[],"categories_nodes":[],"categories_segments":[],)"
              R"("categories_sizes":[],)");
  AppendKey(out, "default_left"); AppendIntArray(out, default_left);
  out->append(",\"id\":" + std::to_string(id) + ",");
  AppendKey(out, "left_children"); AppendIntArray(out, tree.left);
  out->push_back(','); AppendKey(out, "loss_changes"); AppendFloatArray(out, tree.loss_change);
  out->push_back(','); AppendKey(out, "parents"); AppendIntArray(out, ParentsForJson(tree.parent));
  out->push_back(','); AppendKey(out, "right_children"); AppendIntArray(out, tree.right);
  out->push_back(','); AppendKey(out, "split_conditions"); AppendFloatArray(out, tree.split_cond);
  out->push_back(','); AppendKey(out, "split_indices"); AppendIntArray(out, tree.split_index);
  out->push_back(','); AppendKey(out, "split_type"); AppendIntArray(out, zeros);
  out->push_back(','); AppendKey(out, "sum_hessian"); AppendFloatArray(out, tree.sum_hess);
  out->push_back(','); AppendKey(out, "tree_param");
  AppendStringObject(out, {{"num_deleted", "0"},
                           {"num_feature", std::to_string(num_feature)},
                           {"num_nodes", std::to_string(n)},
                           {"size_leaf_vector", "0"}});
  out->push_back('}');
}

void AppendGradientBooster(std::string* out, const GBTreeModel& model) {
  out->append(R"("gradient_booster":{"model":{)");
  AppendKey(out, "gbtree_model_param");
  AppendStringObject(out, {{"num_parallel_tree", "1"},
                           {"num_trees", std::to_string(model.trees.size())},
                           {"size_leaf_vector", "0"}});
  out->push_back(','); AppendKey(out, "tree_info"); AppendIntArray(out, model.tree_info);
  out->append(",\"trees\":[");
  for (std::size_t i = 0; i < model.trees.size(); ++i) {
    if (i != 0) out->push_back(',');
    AppendTree(out, model.trees[i], i, model.num_feature);
  }
  out->append(R"(]},"name":"gbtree"})");
}

void AppendObjective(std::string* out, const GBTreeModel& model) {
  const ObjectiveBlock block = ObjectiveBlockFor(model);
  AppendKey(out, "objective");
  out->push_back('{');
  // Sorted keys: the block name ("*_param") sorts after "name" for every XGBoost objective.
  AppendKey(out, "name");
  AppendQuoted(out, model.objective);
  if (!block.name.empty()) {
    out->push_back(',');
    AppendQuoted(out, block.name);
    out->push_back(':');
    AppendStringObject(out, block.params);
  }
  out->push_back('}');
}

void AppendLearner(std::string* out, const GBTreeModel& model) {
  out->append("\"learner\":{");
  AppendKey(out, "attributes"); AppendStringObject(out, model.attributes);
  out->append(R"(,"feature_names":[],"feature_types":[],)");
  AppendGradientBooster(out, model);
  out->push_back(','); AppendKey(out, "learner_model_param");
  AppendStringObject(out, {{"base_score", FloatToXgbJson(model.base_score)},
                           {"boost_from_average", model.boost_from_average ? "1" : "0"},
                           {"num_class", std::to_string(model.num_class)},
                           {"num_feature", std::to_string(model.num_feature)},
                           {"num_target", "1"}});
  out->push_back(',');
  AppendObjective(out, model);
  out->push_back('}');
}

}  // namespace

Result<std::string> ModelToJson(const GBTreeModel& model) {
  if (model.tree_info.size() != model.trees.size()) {
    return Status::InvalidInput("model has " + std::to_string(model.trees.size()) +
                                " trees but " + std::to_string(model.tree_info.size()) +
                                " tree_info entries");
  }
  if (!std::isfinite(model.base_score)) return Status::InvalidInput("base_score is not finite");
  for (std::size_t i = 0; i < model.trees.size(); ++i) {
    Status st = CheckTree(model.trees[i], i);
    if (!st.ok()) return st;
  }
  std::string out = "{";
  AppendLearner(&out, model);
  out.append(R"(,"version":[1,7,4]})");
  return out;
}

Status SaveModelJson(const GBTreeModel& model, const std::string& path) {
  auto json = ModelToJson(model);
  if (!json.ok()) return json.status().WithContext("cannot save model " + path);
  return WriteFileAtomic(path, json.value());
}

}  // namespace treering::booster
