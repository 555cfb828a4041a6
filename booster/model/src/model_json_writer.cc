// ModelToJson / SaveModelJson: writes the exact bytes XGBoost 1.7.4 writes for a gbtree model
// (compact, object keys in sorted order, numbers typed as in docs/model-format.md).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "booster/atomic_file.h"
#include "booster/model_io.h"
#include "booster/number_format.h"
#include "categorical_fields.h"
#include "model_document.h"
#include "objective_block.h"

namespace treering::booster {
namespace {

// XGBoost 1.7's reader knows the short escapes but keeps "\uXXXX" literally, so the short
// forms are used wherever they exist.
const char* ShortEscape(unsigned char c) {
  switch (c) {
    case '"':
      return "\\\"";
    case '\\':
      return "\\\\";
    case '\n':
      return "\\n";
    case '\t':
      return "\\t";
    case '\r':
      return "\\r";
    case '\b':
      return "\\b";
    case '\f':
      return "\\f";
    default:
      return nullptr;
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

std::string Quoted(const std::string& s) {
  std::string out;
  AppendQuoted(&out, s);
  return out;
}

using Members = std::vector<std::pair<std::string, std::string>>;

// {"k1":v1,"k2":v2} from already-serialised values; callers list keys in sorted order, as
// XGBoost writes them.
std::string Object(const Members& members) {
  std::string out = "{";
  for (std::size_t i = 0; i < members.size(); ++i) {
    if (i != 0) out.push_back(',');
    AppendQuoted(&out, members[i].first);
    out.push_back(':');
    out.append(members[i].second);
  }
  out.push_back('}');
  return out;
}

// XGBoost's parameter objects: string values; std::map keeps the keys sorted.
std::string StringObject(const std::map<std::string, std::string>& kv) {
  Members members;
  for (const auto& [key, value] : kv) members.emplace_back(key, Quoted(value));
  return Object(members);
}

template <typename Int>
std::string IntArray(const std::vector<Int>& values) {
  std::string out = "[";
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (i != 0) out.push_back(',');
    out.append(std::to_string(values[i]));
  }
  out.push_back(']');
  return out;
}

std::string FloatArray(const std::vector<float>& values) {
  std::string out = "[";
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (i != 0) out.push_back(',');
    out.append(FloatToXgbJson(values[i]));
  }
  out.push_back(']');
  return out;
}

std::string StringArray(const std::vector<std::string>& values) {
  std::string out = "[";
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (i != 0) out.push_back(',');
    AppendQuoted(&out, values[i]);
  }
  out.push_back(']');
  return out;
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
  for (const auto* arr : {&tree.base_weight, &tree.loss_change, &tree.sum_hess}) {
    for (const float v : *arr) {
      if (!std::isfinite(v)) return Status::InvalidInput(where + "holds a non-finite number");
    }
  }
  // A categorical node's condition is NaN in XGBoost's files; any other must be finite.
  for (std::size_t i = 0; i < n; ++i) {
    const float v = tree.split_cond[i];
    if (!std::isfinite(v) && !(std::isnan(v) && tree.IsCategorical(static_cast<int>(i)))) {
      return Status::InvalidInput(where + "holds a non-finite number");
    }
  }
  if (Status st = CheckCategories(tree); !st.ok())
    return st.WithContext("tree " + std::to_string(id));
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

std::string TreeJson(const RegTree& tree, std::size_t id, std::uint64_t num_feature) {
  const std::size_t n = tree.left.size();
  const std::vector<int> default_left(tree.default_left.begin(), tree.default_left.end());
  const CategoricalFields cats = FlattenCategories(tree);
  const std::map<std::string, std::string> tree_param = {
      {"num_deleted", std::to_string(tree.NumDeleted())},
      {"num_feature", std::to_string(num_feature)},
      {"num_nodes", std::to_string(n)},
      {"size_leaf_vector", "0"}};
  return Object(
      {{"base_weights", FloatArray(tree.base_weight)},
       {"categories", IntArray(cats.categories)},
       {"categories_nodes", IntArray(cats.categories_nodes)},
       {"categories_segments", IntArray(cats.categories_segments)},
       {"categories_sizes", IntArray(cats.categories_sizes)},
       {"default_left", IntArray(default_left)},
       {"id", std::to_string(id)},
       {"left_children", IntArray(tree.left)},
       {"loss_changes", FloatArray(tree.loss_change)},
       {"parents", IntArray(ParentsForJson(tree.parent))},
       {"right_children", IntArray(tree.right)},
       {"split_conditions", FloatArray(tree.split_cond)},
       {"split_indices", IntArray(tree.split_index)},
       {"split_type", IntArray(std::vector<int>(cats.split_type.begin(), cats.split_type.end()))},
       {"sum_hessian", FloatArray(tree.sum_hess)},
       {"tree_param", StringObject(tree_param)}});
}

// The trees array is not formatted here: `trees` is the slot text spliced in later.
std::string GradientBoosterJson(const GBTreeModel& model, const std::string& trees) {
  if (model.linear) {  // GBLinearModel::SaveModel: boosted_rounds an integer, weights float32
    const std::string linear = Object({{"boosted_rounds", std::to_string(model.linear_rounds)},
                                       {"weights", FloatArray(model.linear_weights)}});
    return Object({{"model", linear}, {"name", Quoted("gblinear")}});
  }
  const std::map<std::string, std::string> param = {
      {"num_parallel_tree", std::to_string(model.num_parallel_tree)},
      {"num_trees", std::to_string(model.trees.size())},
      {"size_leaf_vector", "0"}};
  const std::string gbtree = Object({{"gbtree_model_param", StringObject(param)},
                                     {"tree_info", IntArray(model.tree_info)},
                                     {"trees", trees}});
  const std::string booster = Object({{"model", gbtree}, {"name", Quoted("gbtree")}});
  if (!model.dart) return booster;
  // Dart::SaveModel: the gbtree object nested, then one weight per tree.
  return Object({{"gbtree", booster},
                 {"name", Quoted("dart")},
                 {"weight_drop", FloatArray(model.weight_drop)}});
}

// The learner fields every format needs consistent before writing.
Status CheckLearnerFields(const GBTreeModel& model) {
  if (model.tree_info.size() != model.trees.size()) {
    return Status::InvalidInput("model has " + std::to_string(model.trees.size()) + " trees but " +
                                std::to_string(model.tree_info.size()) + " tree_info entries");
  }
  if (!std::isfinite(model.base_score)) return Status::InvalidInput("base_score is not finite");
  const std::size_t weights = (model.num_feature + 1) * static_cast<std::size_t>(model.NumGroups());
  if (model.linear && !model.linear_weights.empty() && model.linear_weights.size() != weights) {
    return Status::InvalidInput("gblinear model has " +
                                std::to_string(model.linear_weights.size()) + " weights for " +
                                std::to_string(model.num_feature) + " features");
  }
  if (model.dart && model.weight_drop.size() != model.trees.size()) {
    return Status::InvalidInput("dart model has " + std::to_string(model.trees.size()) +
                                " trees but " + std::to_string(model.weight_drop.size()) +
                                " weight_drop entries");
  }
  return Status::Ok();
}

std::string LearnerJson(const GBTreeModel& model, const std::string& trees) {
  return Object({{"attributes", StringObject(model.attributes)},
                 {"feature_names", StringArray(model.feature_names)},
                 {"feature_types", StringArray(model.feature_types)},
                 {"gradient_booster", GradientBoosterJson(model, trees)},
                 {"learner_model_param", StringObject(LearnerModelParams(model))},
                 {"objective", ObjectiveJson(model)}});
}

// Where the trees array goes in the document: a control character, which AppendQuoted always
// escapes, so it occurs nowhere else in the text.
constexpr char kTreesSlot = '\x01';

}  // namespace

std::map<std::string, std::string> LearnerModelParams(const GBTreeModel& model) {
  return {{"base_score", FloatToXgbJson(model.base_score)},
          {"boost_from_average", model.boost_from_average ? "1" : "0"},
          {"num_class", std::to_string(model.num_class)},
          {"num_feature", std::to_string(model.num_feature)},
          {"num_target", std::to_string(std::max(model.num_target, 1))}};
}

std::string ObjectiveJson(const GBTreeModel& model) {
  const ObjectiveBlock block = ObjectiveBlockFor(model);
  // The block name ("*_param") sorts after "name" for every XGBoost objective.
  Members members = {{"name", Quoted(model.objective)}};
  if (!block.name.empty()) members.emplace_back(block.name, StringObject(block.params));
  return Object(members);
}

Status CheckModelForSave(const GBTreeModel& model) {
  if (Status st = CheckLearnerFields(model); !st.ok()) return st;
  for (std::size_t i = 0; i < model.trees.size(); ++i) {
    if (Status st = CheckTree(model.trees[i], i); !st.ok()) return st;
  }
  return Status::Ok();
}

Status IncrementalModelJson::AppendTo(const GBTreeModel& model, std::string* out) {
  if (Status st = CheckLearnerFields(model); !st.ok()) return st;
  if (model.num_feature != num_feature_ || model.trees.size() < trees_.size()) {
    trees_.clear();
    num_feature_ = model.num_feature;
  }
  for (std::size_t i = 0; i < model.trees.size(); ++i) {
    const RegTree& tree = model.trees[i];
    if (i < trees_.size() && trees_[i].nodes == tree.left.size()) continue;
    Status st = CheckTree(tree, i);
    if (!st.ok()) {
      trees_.resize(std::min(trees_.size(), i));
      return st;
    }
    Formatted formatted{tree.left.size(), TreeJson(tree, i, model.num_feature)};
    if (i < trees_.size()) {
      trees_[i] = std::move(formatted);
    } else {
      trees_.push_back(std::move(formatted));
    }
  }
  const std::string frame =
      Object({{"learner", LearnerJson(model, std::string(1, kTreesSlot))}, {"version", "[1,7,4]"}});
  const std::size_t slot = frame.find(kTreesSlot);
  if (slot == std::string::npos) {  // gblinear: no trees array
    out->append(frame);
    return Status::Ok();
  }
  std::size_t bytes = frame.size() + 1;
  for (const Formatted& t : trees_) bytes += t.text.size() + 1;
  out->reserve(out->size() + bytes);
  out->append(frame, 0, slot);
  out->push_back('[');
  for (std::size_t i = 0; i < trees_.size(); ++i) {
    if (i != 0) out->push_back(',');
    out->append(trees_[i].text);
  }
  out->push_back(']');
  out->append(frame, slot + 1);
  return Status::Ok();
}

Result<std::string> ModelToJson(const GBTreeModel& model) {
  IncrementalModelJson writer;
  std::string out;
  Status st = writer.AppendTo(model, &out);
  if (!st.ok()) return st;
  return out;
}

Status SaveModelJson(const GBTreeModel& model, const std::string& path) {
  auto json = ModelToJson(model);
  if (!json.ok()) return json.status().WithContext("cannot save model " + path);
  return WriteFileAtomic(path, json.value());
}

}  // namespace treering::booster
