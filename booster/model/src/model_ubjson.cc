// ModelToUbjson / ModelFromUbjson: the JSON model document (model_json_writer.cc) in XGBoost
// 1.7's UBJSON encoding, byte for byte as Booster.save_model("m.ubj") writes it: the same keys
// in the same sorted order, parameters as strings, and the node vectors as the typed arrays
// XGBoost uses (float32 stats, int32 links and features, uint8 flags).
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "booster/model_formats.h"
#include "booster/number_format.h"
#include "categorical_fields.h"
#include "model_document.h"
#include "objective_block.h"
#include "ubjson_codec.h"

namespace treering::booster {
namespace {

using ubjson::AppendInteger;
using ubjson::AppendKey;
using ubjson::AppendString;
using ubjson::AppendTypedArray;

// {"k1":v1,...} from already-encoded values; callers list keys in sorted order, as XGBoost's
// std::map-backed objects come out.
using Members = std::vector<std::pair<std::string, std::string>>;
std::string Object(const Members& members) {
  std::string out = "{";
  for (const auto& [key, value] : members) {
    AppendKey(&out, key);
    out.append(value);
  }
  out.push_back('}');
  return out;
}

std::string String(const std::string& s) {
  std::string out;
  AppendString(&out, s);
  return out;
}

std::string Integer(std::int64_t v) {
  std::string out;
  AppendInteger(&out, v);
  return out;
}

std::string StringObject(const std::map<std::string, std::string>& kv) {
  Members members;
  for (const auto& [key, value] : kv) members.emplace_back(key, String(value));
  return Object(members);
}

// A plain (untyped) array of integers, as XGBoost writes tree_info and version.
std::string IntegerArray(const std::vector<int>& values) {
  std::string out;
  ubjson::AppendArrayHeader(&out, values.size());
  for (const int v : values) AppendInteger(&out, v);
  return out;
}

template <typename T>
std::string Typed(const std::vector<T>& values) {
  std::string out;
  AppendTypedArray(&out, values);
  return out;
}

// XGBoost writes feature_types as an untyped array of strings.
std::string StringArray(const std::vector<std::string>& values) {
  std::string out;
  ubjson::AppendArrayHeader(&out, values.size());
  for (const std::string& v : values) AppendString(&out, v);
  return out;
}

std::vector<std::int32_t> ParentsForFile(const std::vector<std::int32_t>& parent) {
  std::vector<std::int32_t> out = parent;
  for (auto& p : out) {
    if (p < 0) p = 2147483647;
  }
  return out;
}

// Split features are int32 unless num_feature does not fit (then XGBoost writes int64).
std::string SplitIndices(const RegTree& tree, std::uint64_t num_feature) {
  if (num_feature > 2147483647u) {
    return Typed(std::vector<std::int64_t>(tree.split_index.begin(), tree.split_index.end()));
  }
  return Typed(std::vector<std::int32_t>(tree.split_index.begin(), tree.split_index.end()));
}

std::string TreeUbjson(const RegTree& tree, std::size_t id, std::uint64_t num_feature) {
  const std::size_t n = tree.left.size();
  const CategoricalFields cats = FlattenCategories(tree);
  const std::map<std::string, std::string> tree_param = {
      {"num_deleted", std::to_string(tree.NumDeleted())},
      {"num_feature", std::to_string(num_feature)},
      {"num_nodes", std::to_string(n)},
      {"size_leaf_vector", "0"}};
  return Object({{"base_weights", Typed(tree.base_weight)},
                 {"categories", Typed(cats.categories)},
                 {"categories_nodes", Typed(cats.categories_nodes)},
                 {"categories_segments", Typed(cats.categories_segments)},
                 {"categories_sizes", Typed(cats.categories_sizes)},
                 {"default_left", Typed(tree.default_left)},
                 {"id", Integer(static_cast<std::int64_t>(id))},
                 {"left_children", Typed(tree.left)},
                 {"loss_changes", Typed(tree.loss_change)},
                 {"parents", Typed(ParentsForFile(tree.parent))},
                 {"right_children", Typed(tree.right)},
                 {"split_conditions", Typed(tree.split_cond)},
                 {"split_indices", SplitIndices(tree, num_feature)},
                 {"split_type", Typed(cats.split_type)},
                 {"sum_hessian", Typed(tree.sum_hess)},
                 {"tree_param", StringObject(tree_param)}});
}

std::string GradientBoosterUbjson(const GBTreeModel& model) {
  if (model.linear) {  // GBLinearModel::SaveModel: the weights as a float32 typed array
    const std::string linear = Object({{"boosted_rounds", Integer(model.linear_rounds)},
                                       {"weights", Typed(model.linear_weights)}});
    return Object({{"model", linear}, {"name", String("gblinear")}});
  }
  const std::map<std::string, std::string> param = {
      {"num_parallel_tree", std::to_string(model.num_parallel_tree)},
      {"num_trees", std::to_string(model.trees.size())},
      {"size_leaf_vector", "0"}};
  std::string trees;
  ubjson::AppendArrayHeader(&trees, model.trees.size());
  for (std::size_t i = 0; i < model.trees.size(); ++i) {
    trees.append(TreeUbjson(model.trees[i], i, model.num_feature));
  }
  const std::string gbtree = Object({{"gbtree_model_param", StringObject(param)},
                                     {"tree_info", IntegerArray(model.tree_info)},
                                     {"trees", trees}});
  const std::string booster = Object({{"model", gbtree}, {"name", String("gbtree")}});
  if (!model.dart) return booster;
  // Dart::SaveModel writes weight_drop as a plain array of numbers (not a typed array, which
  // XGBoost's loader would not take as an Array).
  std::string weights;
  ubjson::AppendArrayHeader(&weights, model.weight_drop.size());
  for (float w : model.weight_drop) ubjson::AppendFloat(&weights, w);
  return Object({{"gbtree", booster}, {"name", String("dart")}, {"weight_drop", weights}});
}

std::string ObjectiveUbjson(const GBTreeModel& model) {
  const ObjectiveBlock block = ObjectiveBlockFor(model);
  Members members = {{"name", String(model.objective)}};
  if (!block.name.empty()) members.emplace_back(block.name, StringObject(block.params));
  return Object(members);
}

std::string LearnerUbjson(const GBTreeModel& model) {
  return Object({{"attributes", StringObject(model.attributes)},
                 // XGBoost writes an empty list of names as an empty typed array.
                 {"feature_names", model.feature_names.empty() ? IntegerArray({})
                                                               : StringArray(model.feature_names)},
                 {"feature_types", StringArray(model.feature_types)},
                 {"gradient_booster", GradientBoosterUbjson(model)},
                 {"learner_model_param", StringObject(LearnerModelParams(model))},
                 {"objective", ObjectiveUbjson(model)}});
}

}  // namespace

Result<std::string> ModelToUbjson(const GBTreeModel& model) {
  if (Status st = CheckModelForSave(model); !st.ok()) return st;
  return Object({{"learner", LearnerUbjson(model)}, {"version", IntegerArray({1, 7, 4})}});
}

Result<GBTreeModel> ModelFromUbjson(std::string_view bytes, const std::string& source) {
  auto doc = ubjson::Decode(bytes, source);
  if (!doc.ok()) return doc.status();
  return ModelFromDocument(doc.value(), source);
}

// XGBoost 1.7's pickle: {"Config": {...}, "Model": {...}} in UBJSON (Learner::Save).
Status SplitUbjsonSnapshot(std::string_view bytes, const std::string& source,
                           std::string* config_json, std::string_view* model_ubj) {
  std::string_view config;
  if (!ubjson::SplitSnapshot(bytes, &config, model_ubj)) {
    return Status::InvalidInput(source + ": not a booster snapshot ({\"Config\", \"Model\"})");
  }
  auto doc = ubjson::Decode(config, source + ": Config");
  if (!doc.ok()) return doc.status();
  *config_json = doc.value().dump();
  return Status::Ok();
}

}  // namespace treering::booster
