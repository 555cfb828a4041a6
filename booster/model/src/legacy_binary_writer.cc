// ModelToLegacyBinary: the bytes of legacy_binary_layout.h for a GBTreeModel, as XGBoost 1.7.4
// writes them after loading the same model from JSON.
#include <algorithm>
#include <cstring>
#include <map>
#include <string>
#include <utility>

#include "booster/model_formats.h"
#include "legacy_binary_layout.h"
#include "model_document.h"

namespace treering::booster {
namespace {

using namespace legacy_binary;  // NOLINT: the layout constants

// Appends little-endian fields whatever the host's byte order.
class LittleEndianWriter {
 public:
  void U32(std::uint32_t v) {
    for (int i = 0; i < 4; ++i) out_.push_back(static_cast<char>((v >> (8 * i)) & 0xFF));
  }
  void I32(std::int32_t v) { U32(static_cast<std::uint32_t>(v)); }
  void F32(float v) {
    std::uint32_t bits = 0;
    static_assert(sizeof(bits) == sizeof(v));
    std::memcpy(&bits, &v, sizeof(v));
    U32(bits);
  }
  void U64(std::uint64_t v) {
    U32(static_cast<std::uint32_t>(v));
    U32(static_cast<std::uint32_t>(v >> 32));
  }
  void String(const std::string& s) {
    U64(s.size());
    out_.append(s);
  }
  void ZeroInts(std::size_t n) { out_.append(4 * n, '\0'); }
  std::string Take() { return std::move(out_); }

 private:
  std::string out_;
};

void WriteLearnerParam(const GBTreeModel& model, LittleEndianWriter* w) {
  w->F32(model.base_score);
  w->U32(static_cast<std::uint32_t>(model.num_feature));
  w->I32(model.num_class);
  w->I32(1);  // contain_extra_attrs: the objective travels as an attribute
  w->I32(model.eval_metrics.empty() ? 0 : 1);  // contain_eval_metrics
  w->U32(kWrittenMajor);
  w->U32(kWrittenMinor);
  w->U32(static_cast<std::uint32_t>(std::max(model.num_target, 1)));
  w->I32(model.boost_from_average ? 1 : 0);
  w->ZeroInts(kLearnerReservedInts);
}

void WriteGBTreeParam(const GBTreeModel& model, LittleEndianWriter* w) {
  w->I32(static_cast<std::int32_t>(model.trees.size()));
  w->I32(model.num_parallel_tree);
  w->I32(0);  // deprecated num_feature
  w->I32(0);  // pad
  w->U64(0);  // deprecated num_pbuffer
  w->I32(0);  // deprecated num_output_group
  w->I32(0);  // size_leaf_vector
  w->ZeroInts(kGBTreeReservedInts);
}

void WriteTree(const RegTree& tree, std::uint64_t num_feature, LittleEndianWriter* w) {
  const int n = tree.NumNodes();
  w->I32(1);  // num_roots
  w->I32(n);
  w->I32(tree.NumDeleted());
  w->I32(0);  // max_depth: not kept by XGBoost's JSON either
  w->U32(static_cast<std::uint32_t>(num_feature));
  w->I32(0);  // size_leaf_vector
  w->ZeroInts(kTreeReservedInts);
  for (int i = 0; i < n; ++i) {
    const int p = tree.parent[i];
    // XGBoost marks a left child in the parent field's top bit (RegTree::Node::SetParent);
    // python3-xgboost 1.7's files show no bit on a pruned (deleted) child, whose parent no
    // longer points to it.
    const std::uint32_t left_bit = (p >= 0 && tree.left[p] == i) ? kLeftChildBit : 0;
    w->U32(p < 0 ? 0xFFFFFFFFu : (static_cast<std::uint32_t>(p) | left_bit));
    w->I32(tree.left[i]);
    w->I32(tree.right[i]);
    w->U32(tree.split_index[i] | (tree.default_left[i] ? kDefaultLeftBit : 0));
    w->F32(tree.split_cond[i]);
  }
  for (int i = 0; i < n; ++i) {
    w->F32(tree.loss_change[i]);
    w->F32(tree.sum_hess[i]);
    w->F32(tree.base_weight[i]);
    w->I32(0);  // leaf_child_cnt: a pruner's scratch count, 0 after XGBoost loads JSON
  }
}

}  // namespace

Result<std::string> ModelToLegacyBinary(const GBTreeModel& model) {
  if (Status st = CheckModelForSave(model); !st.ok()) return st;
  for (const RegTree& tree : model.trees) {  // XGBoost 1.7's RegTree::Save refuses them too
    if (!tree.categories.empty()) {
      return Status::InvalidInput(
          "the legacy binary format has no categorical splits: save the model as .json or .ubj");
    }
  }
  LittleEndianWriter w;
  std::string out = kMagic;
  WriteLearnerParam(model, &w);
  w.String(model.objective);
  w.String(model.linear ? "gblinear" : model.dart ? "dart" : "gbtree");
  if (model.linear) {  // GBLinearModel::Save: 34 deprecated int32 (zero), a dmlc vector
    for (int i = 0; i < kLinearParamInts; ++i) w.I32(0);
    w.U64(model.linear_weights.size());
    for (const float v : model.linear_weights) w.F32(v);
  } else {
    WriteGBTreeParam(model, &w);
  }
  for (const RegTree& tree : model.trees) WriteTree(tree, model.num_feature, &w);
  for (const int group : model.tree_info) w.I32(group);
  if (model.dart && !model.weight_drop.empty()) {  // Dart::Save
    w.U64(model.weight_drop.size());
    for (const float v : model.weight_drop) w.F32(v);
  }
  std::map<std::string, std::string> attributes = model.attributes;
  attributes["objective"] = ObjectiveJson(model);
  if (!model.eval_metrics.empty()) attributes["metrics"] = model.eval_metrics;
  w.U64(attributes.size());
  for (const auto& [key, value] : attributes) {
    w.String(key);
    w.String(value);
  }
  return out + w.Take();
}

}  // namespace treering::booster
