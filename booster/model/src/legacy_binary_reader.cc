// ModelFromLegacyBinary: reads legacy_binary_layout.h into the JSON model document, so the
// checks and messages of the JSON loader apply (model_document.h). Every count is checked
// against the bytes left before anything is allocated.
#include <cmath>
#include <cstring>
#include <string>
#include <utility>

#include <nlohmann/json.hpp>

#include "booster/model_formats.h"
#include "booster/number_format.h"
#include "legacy_binary_layout.h"
#include "model_document.h"

namespace treering::booster {
namespace {

using namespace legacy_binary;  // NOLINT: the layout constants
using nlohmann::json;

// Little-endian reads over the file's bytes; the first read past the end records an error
// naming what was being read, and later reads return zeros (callers check ok() per part).
class LittleEndianReader {
 public:
  LittleEndianReader(std::string_view in, const std::string& source) : in_(in), source_(source) {}

  bool ok() const { return error_.ok(); }
  const Status& error() const { return error_; }
  std::size_t left() const { return in_.size() - pos_; }
  std::size_t pos() const { return pos_; }

  void Fail(const std::string& what) {
    if (error_.ok()) {
      error_ = Status::InvalidInput(source_ + ": legacy binary model: at byte " +
                                    std::to_string(pos_) + ": " + what);
    }
  }
  // Makes sure `n` bytes remain for `what`.
  bool Need(std::size_t n, const char* what) {
    if (!ok()) return false;
    if (left() >= n) return true;
    Fail(std::string("the file ends while reading ") + what + " (" + std::to_string(n) +
         " bytes, " + std::to_string(left()) + " left)");
    return false;
  }
  std::uint32_t U32(const char* what) {
    if (!Need(4, what)) return 0;
    std::uint32_t v = 0;
    for (int i = 0; i < 4; ++i) v |= static_cast<std::uint32_t>(Byte(pos_ + i)) << (8 * i);
    pos_ += 4;
    return v;
  }
  std::int32_t I32(const char* what) { return static_cast<std::int32_t>(U32(what)); }
  float F32(const char* what) {
    const std::uint32_t bits = U32(what);
    float v = 0;
    std::memcpy(&v, &bits, sizeof(v));
    return v;
  }
  std::uint64_t U64(const char* what) {
    if (!Need(8, what)) return 0;
    const std::uint64_t lo = U32(what);
    return lo | static_cast<std::uint64_t>(U32(what)) << 32;
  }
  std::string String(const char* what) {
    const std::uint64_t n = U64(what);
    if (!ok()) return "";
    if (n > left()) {
      Fail(std::string(what) + " has length " + std::to_string(n) + " but " +
           std::to_string(left()) + " bytes are left");
      return "";
    }
    std::string s(in_.substr(pos_, n));
    if (!IsValidUtf8(s)) {
      Fail(std::string(what) + " is not valid UTF-8");
      return "";
    }
    pos_ += n;
    return s;
  }
  void Skip(std::size_t n, const char* what) {
    if (Need(n, what)) pos_ += n;
  }

 private:
  unsigned char Byte(std::size_t i) const { return static_cast<unsigned char>(in_[i]); }
  std::string_view in_;
  const std::string& source_;
  std::size_t pos_ = 0;
  Status error_;
};

struct LearnerHeader {
  json model_param;
  bool has_attributes = false;
};

LearnerHeader ReadLearnerParam(LittleEndianReader* r) {
  LearnerHeader h;
  if (!r->Need(kLearnerParamBytes, "the learner parameters")) return h;
  const float base_score = r->F32("base_score");
  const std::uint32_t num_feature = r->U32("num_feature");
  const std::int32_t num_class = r->I32("num_class");
  h.has_attributes = r->I32("contain_extra_attrs") != 0;
  r->I32("contain_eval_metrics");
  const std::uint32_t major = r->U32("major_version");
  r->U32("minor_version");
  const std::uint32_t num_target = r->U32("num_target");
  const std::int32_t boost_from_average = r->I32("boost_from_average");
  r->Skip(4 * kLearnerReservedInts, "reserved");
  if (major == 0) {
    // Before 1.0 base_score was stored as a margin and the objective's config was not saved.
    r->Fail(
        "saved by XGBoost < 1.0, which is not supported; load and save it with a newer "
        "XGBoost first");
  } else if (!std::isfinite(base_score)) {
    r->Fail("base_score is not finite");
  }
  h.model_param = {{"base_score", FloatToXgbJson(base_score)},
                   {"boost_from_average", std::to_string(boost_from_average)},
                   {"num_class", std::to_string(num_class)},
                   {"num_feature", std::to_string(num_feature)},
                   {"num_target", std::to_string(num_target == 0 ? 1 : num_target)}};
  return h;
}

// Returns the tree count and sets *parallel (num_parallel_tree); the rest of GBTreeModelParam
// is deprecated or must be 0.
std::size_t ReadGBTreeParam(LittleEndianReader* r, std::int32_t* parallel) {
  if (!r->Need(kGBTreeParamBytes, "the gbtree parameters")) return 0;
  const std::int32_t num_trees = r->I32("num_trees");
  *parallel = r->I32("num_parallel_tree");
  r->Skip(4 * 2 + 8 + 4, "deprecated gbtree parameters");
  const std::int32_t size_leaf_vector = r->I32("size_leaf_vector");
  r->Skip(4 * kGBTreeReservedInts, "reserved");
  const std::size_t smallest_tree = kTreeParamBytes + kNodeBytes + kStatBytes;
  if (num_trees < 0 || static_cast<std::size_t>(num_trees) > r->left() / smallest_tree) {
    r->Fail("num_trees " + std::to_string(num_trees) + " does not fit in the " +
            std::to_string(r->left()) + " bytes left");
    return 0;
  }
  if (size_leaf_vector != 0) r->Fail("vector leaves (size_leaf_vector != 0) are not supported");
  return static_cast<std::size_t>(num_trees);
}

json ReadTree(LittleEndianReader* r) {
  if (!r->Need(kTreeParamBytes, "a tree's parameters")) return {};
  r->I32("num_roots");
  const std::int32_t n = r->I32("num_nodes");
  r->Skip(4 * 4, "tree parameters");  // num_deleted, max_depth, num_feature, size_leaf_vector
  r->Skip(4 * kTreeReservedInts, "reserved");
  if (n < 1 || static_cast<std::size_t>(n) > r->left() / (kNodeBytes + kStatBytes)) {
    r->Fail("num_nodes " + std::to_string(n) + " does not fit in the " + std::to_string(r->left()) +
            " bytes left");
    return {};
  }
  json left = json::array(), right = json::array(), parents = json::array();
  json split_indices = json::array(), default_left = json::array(), conds = json::array();
  for (std::int32_t i = 0; i < n; ++i) {
    const std::uint32_t parent = r->U32("a node");
    parents.push_back(parent & kIndexMask);  // the root's -1 becomes JSON's 2147483647
    left.push_back(r->I32("a node"));
    right.push_back(r->I32("a node"));
    const std::uint32_t sindex = r->U32("a node");
    split_indices.push_back(sindex & kIndexMask);
    default_left.push_back(sindex >> 31);
    conds.push_back(static_cast<double>(r->F32("a node")));
  }
  json loss = json::array(), hess = json::array(), weight = json::array();
  for (std::int32_t i = 0; i < n; ++i) {
    loss.push_back(static_cast<double>(r->F32("a node's stats")));
    hess.push_back(static_cast<double>(r->F32("a node's stats")));
    weight.push_back(static_cast<double>(r->F32("a node's stats")));
    r->I32("a node's stats");
  }
  return {{"tree_param", {{"num_nodes", std::to_string(n)}}},
          {"left_children", std::move(left)},
          {"right_children", std::move(right)},
          {"parents", std::move(parents)},
          {"split_indices", std::move(split_indices)},
          {"default_left", std::move(default_left)},
          {"split_conditions", std::move(conds)},
          {"base_weights", std::move(weight)},
          {"loss_changes", std::move(loss)},
          {"sum_hessian", std::move(hess)}};
}

json ReadAttributes(LittleEndianReader* r) {
  json attributes = json::object();
  const std::uint64_t n = r->U64("the attribute count");
  if (r->ok() && n > r->left() / 16) {
    r->Fail("attribute count " + std::to_string(n) + " does not fit in the " +
            std::to_string(r->left()) + " bytes left");
  }
  for (std::uint64_t i = 0; r->ok() && i < n; ++i) {
    std::string key = r->String("an attribute name");
    attributes[key] = r->String("an attribute value");
  }
  return attributes;
}

// XGBoost >= 1.0 keeps the objective's JSON config as the "objective" attribute. "metrics" is
// a training setting XGBoost's CLI stores; it is not an attribute once loaded.
json TakeObjective(const std::string& name, json* attributes, LittleEndianReader* r) {
  json objective = json::object();
  const auto it = attributes->find("objective");
  if (it != attributes->end()) {
    objective = json::parse(it->get<std::string>(), nullptr, /*allow_exceptions=*/false);
    attributes->erase(it);
    if (!objective.is_object()) {
      r->Fail("attribute \"objective\" is not a JSON object");
      return json::object();
    }
  }
  objective["name"] = name;
  return objective;
}

// GBLinearModel::Save: the deprecated parameter block, then the weights as a dmlc vector; the
// format keeps no boosted_rounds (XGBoost reads 0 then).
Result<json> ReadLinearDocument(LearnerHeader header, const std::string& objective,
                                LittleEndianReader* r) {
  r->Skip(4 * kLinearParamInts, "the gblinear parameters");
  const std::uint64_t n = r->ok() ? r->U64("the weight count") : 0;
  if (r->ok() && n > r->left() / 4) {
    r->Fail("weight count " + std::to_string(n) + " does not fit in the " +
            std::to_string(r->left()) + " bytes left");
  }
  json weights = json::array();
  for (std::uint64_t i = 0; r->ok() && i < n; ++i) weights.push_back(r->F32("a weight"));
  json attributes = header.has_attributes ? ReadAttributes(r) : json::object();
  json objective_block = r->ok() ? TakeObjective(objective, &attributes, r) : json();
  if (r->ok() && r->left() != 0) {
    r->Fail(std::to_string(r->left()) + " bytes after the end of the model");
  }
  if (!r->ok()) return r->error();
  json model = {{"boosted_rounds", 0}, {"weights", std::move(weights)}};
  json learner = {{"attributes", std::move(attributes)},
                  {"learner_model_param", std::move(header.model_param)},
                  {"objective", std::move(objective_block)},
                  {"gradient_booster", {{"name", "gblinear"}, {"model", std::move(model)}}}};
  return json{{"learner", std::move(learner)}};
}

Result<json> ReadDocument(LittleEndianReader* r) {
  LearnerHeader header = ReadLearnerParam(r);
  const std::string objective = r->String("the objective name");
  const std::string booster = r->String("the booster name");
  if (r->ok() && booster != "gbtree" && booster != "dart" && booster != "gblinear") {
    r->Fail("booster \"" + booster + "\" is not supported (only gbtree, dart or gblinear)");
  }
  if (booster == "gblinear") return ReadLinearDocument(std::move(header), objective, r);
  std::int32_t parallel = 1;
  const std::size_t num_trees = ReadGBTreeParam(r, &parallel);
  json trees = json::array();
  for (std::size_t i = 0; r->ok() && i < num_trees; ++i) trees.push_back(ReadTree(r));
  json tree_info = json::array();
  for (std::size_t i = 0; r->ok() && i < num_trees; ++i) tree_info.push_back(r->I32("tree_info"));
  // Dart::Save: a dmlc vector (u64 count, then floats) when there are trees.
  json weight_drop = json::array();
  if (r->ok() && booster == "dart" && num_trees != 0) {
    const std::uint64_t n = r->U64("the weight_drop count");
    if (r->ok() && n != num_trees) {
      r->Fail("weight_drop has " + std::to_string(n) + " entries for " + std::to_string(num_trees) +
              " trees");
    }
    for (std::size_t i = 0; r->ok() && i < num_trees; ++i) {
      weight_drop.push_back(r->F32("weight_drop"));
    }
  }
  json attributes = header.has_attributes ? ReadAttributes(r) : json::object();
  json objective_block = r->ok() ? TakeObjective(objective, &attributes, r) : json();
  if (r->ok() && r->left() != 0) {
    r->Fail(std::to_string(r->left()) + " bytes after the end of the model");
  }
  if (!r->ok()) return r->error();
  // The JSON reader checks the value (>= 1, whole rounds) as it does for JSON files.
  json gbtree = {{"gbtree_model_param", {{"num_parallel_tree", std::to_string(parallel)}}},
                 {"trees", std::move(trees)},
                 {"tree_info", std::move(tree_info)}};
  json learner = {{"attributes", std::move(attributes)},
                  {"learner_model_param", std::move(header.model_param)},
                  {"objective", std::move(objective_block)},
                  {"gradient_booster", {{"name", "gbtree"}, {"model", std::move(gbtree)}}}};
  if (booster == "dart") {
    json inner = std::move(learner["gradient_booster"]);
    learner["gradient_booster"] = {
        {"name", "dart"}, {"gbtree", std::move(inner)}, {"weight_drop", std::move(weight_drop)}};
  }
  return json{{"learner", std::move(learner)}};
}

}  // namespace

Result<GBTreeModel> ModelFromLegacyBinary(std::string_view bytes, const std::string& source) {
  LittleEndianReader reader(bytes, source);
  // "binf" is optional: models older than XGBoost 0.80 start with the learner parameters.
  if (bytes.substr(0, 4) == kMagic) reader.Skip(4, "the header");
  auto doc = ReadDocument(&reader);
  if (!doc.ok()) return doc.status();
  auto& attributes = doc.value()["learner"]["attributes"];
  std::string metrics;
  if (const auto it = attributes.find("metrics"); it != attributes.end()) {
    metrics = it->get<std::string>();
    attributes.erase(it);
  }
  auto model = ModelFromDocument(doc.value(), source);
  if (model.ok()) model->eval_metrics = std::move(metrics);
  return model;
}

}  // namespace treering::booster
