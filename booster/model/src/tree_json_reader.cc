#include "tree_json_reader.h"

#include <cmath>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "categorical_fields.h"

namespace treering::booster {
namespace {

constexpr std::int64_t kRootParent = 2147483647;  // XGBoost writes the root's parent like this
constexpr std::int64_t kMaxNodes = std::numeric_limits<std::int32_t>::max();

// Reads `key` as an integer array of exactly n entries in [lo, hi].
Result<std::vector<std::int64_t>> IntField(const JsonCursor& tree, const char* key, std::size_t n,
                                           std::int64_t lo, std::int64_t hi) {
  auto field = tree.Member(key);
  if (!field.ok()) return field.status();
  auto values = field->IntArray(lo, hi);
  if (values.ok() && values->size() != n) {
    return field->Error("has " + std::to_string(values->size()) + " entries, num_nodes is " +
                        std::to_string(n));
  }
  return values;
}

Result<std::vector<float>> FloatField(const JsonCursor& tree, const char* key, std::size_t n) {
  auto field = tree.Member(key);
  if (!field.ok()) return field.status();
  auto values = field->FloatArray();
  if (values.ok() && values->size() != n) {
    return field->Error("has " + std::to_string(values->size()) + " entries, num_nodes is " +
                        std::to_string(n));
  }
  return values;
}

// default_left holds 0/1 integers (booleans are accepted too, as XGBoost does).
Result<std::vector<std::uint8_t>> DefaultLeft(const JsonCursor& tree, std::size_t n) {
  auto field = tree.Member("default_left");
  if (!field.ok()) return field.status();
  auto elements = field->Elements();
  if (!elements.ok()) return elements.status();
  if (elements->size() != n) {
    return field->Error("has " + std::to_string(elements->size()) + " entries, num_nodes is " +
                        std::to_string(n));
  }
  std::vector<std::uint8_t> out(n);
  for (std::size_t i = 0; i < n; ++i) {
    const JsonCursor& e = elements.value()[i];
    if (e.node().is_boolean()) {
      out[i] = e.node().get<bool>() ? 1 : 0;
      continue;
    }
    auto v = e.Integer(0, 1);
    if (!v.ok()) return v.status();
    out[i] = static_cast<std::uint8_t>(v.value());
  }
  return out;
}

// split_conditions: XGBoost 1.7 writes NaN at categorical nodes (a bare NaN token in JSON,
// read as null, see model_json_reader.cc; a float NaN in UBJSON). Anywhere else a value must be
// finite.
Result<std::vector<float>> SplitConditions(const JsonCursor& tree, const RegTree& t) {
  auto field = tree.Member("split_conditions");
  if (!field.ok()) return field.status();
  auto elements = field->Elements();
  if (!elements.ok()) return elements.status();
  const std::size_t n = t.left.size();
  if (elements->size() != n) {
    return field->Error("has " + std::to_string(elements->size()) + " entries, num_nodes is " +
                        std::to_string(n));
  }
  std::vector<float> out(n);
  for (std::size_t i = 0; i < n; ++i) {
    const JsonCursor& e = elements.value()[i];
    const bool categorical = t.IsCategorical(static_cast<int>(i));
    if (e.node().is_null() && categorical) {
      out[i] = std::numeric_limits<float>::quiet_NaN();
      continue;
    }
    if (!e.node().is_number()) return e.Error("expected a number, got " + JsonTypeName(e.node()));
    const double d = e.node().get<double>();
    if (!std::isfinite(d) && !(categorical && std::isnan(d))) {
      return e.Error("expected a finite number");
    }
    out[i] = static_cast<float>(d);
  }
  return out;
}

// Walks from the root: every reachable internal node has two children that point back to it
// and no node is reached twice, so the links form a tree.
Status CheckLinks(const JsonCursor& tree, const RegTree& t, std::uint64_t num_feature) {
  const std::size_t n = t.left.size();
  std::vector<std::uint8_t> seen(n, 0);
  if (t.parent[0] != -1) {
    return tree.Error("node 0 (the root) has parent " + std::to_string(t.parent[0]) +
                      ", expected 2147483647");
  }
  std::vector<int> stack{0};
  seen[0] = 1;
  while (!stack.empty()) {
    const int node = stack.back();
    stack.pop_back();
    const std::string at = "node " + std::to_string(node) + ": ";
    if ((t.left[node] < 0) != (t.right[node] < 0)) {
      return tree.Error(at + "has exactly one child (left " + std::to_string(t.left[node]) +
                        ", right " + std::to_string(t.right[node]) + ")");
    }
    if (t.left[node] < 0) continue;
    if (num_feature != 0 && t.split_index[node] >= num_feature) {
      return tree.Error(at + "splits on feature " + std::to_string(t.split_index[node]) +
                        " but num_feature is " + std::to_string(num_feature));
    }
    for (const int child : {t.left[node], t.right[node]}) {
      if (seen[child]) {
        return tree.Error(at + "child " + std::to_string(child) + " is reached twice");
      }
      if (t.parent[child] != node) {
        return tree.Error("node " + std::to_string(child) + ": parent is " +
                          std::to_string(t.parent[child]) + ", expected " + std::to_string(node));
      }
      seen[child] = 1;
      stack.push_back(child);
    }
  }
  return Status::Ok();
}

// The integer arrays: node links, split features, missing-value directions.
Status ReadLinks(const JsonCursor& tree, std::size_t n, RegTree* t) {
  const auto last = static_cast<std::int64_t>(n) - 1;
  auto left = IntField(tree, "left_children", n, -1, last);
  if (!left.ok()) return left.status();
  auto right = IntField(tree, "right_children", n, -1, last);
  if (!right.ok()) return right.status();
  auto parent = IntField(tree, "parents", n, -1, kRootParent);
  if (!parent.ok()) return parent.status();
  auto split_index =
      IntField(tree, "split_indices", n, 0, std::numeric_limits<std::uint32_t>::max());
  if (!split_index.ok()) return split_index.status();
  auto default_left = DefaultLeft(tree, n);
  if (!default_left.ok()) return default_left.status();
  t->left.assign(left->begin(), left->end());
  t->right.assign(right->begin(), right->end());
  t->parent.resize(n);
  for (std::size_t i = 0; i < n; ++i) {
    const std::int64_t p = parent.value()[i];
    t->parent[i] = p == kRootParent ? -1 : static_cast<std::int32_t>(p);
  }
  t->split_index.assign(split_index->begin(), split_index->end());
  t->default_left = std::move(default_left.value());
  return Status::Ok();
}

// The float arrays: thresholds / leaf values and the node statistics.
Status ReadNodeValues(const JsonCursor& tree, std::size_t n, RegTree* t) {
  auto cond = SplitConditions(tree, *t);
  if (!cond.ok()) return cond.status();
  t->split_cond = std::move(cond.value());
  const std::pair<const char*, std::vector<float>*> arrays[] = {{"base_weights", &t->base_weight},
                                                                {"loss_changes", &t->loss_change},
                                                                {"sum_hessian", &t->sum_hess}};
  for (const auto& [key, dst] : arrays) {
    auto values = FloatField(tree, key, n);
    if (!values.ok()) return values.status();
    *dst = std::move(values.value());
  }
  return Status::Ok();
}

Result<std::size_t> NumNodes(const JsonCursor& tree) {
  auto param = tree.Member("tree_param");
  if (!param.ok()) return param.status();
  auto num_nodes = param->Member("num_nodes");
  if (!num_nodes.ok()) return num_nodes.status();
  auto n = num_nodes->IntInString(1, kMaxNodes);
  if (!n.ok()) return n.status();
  return static_cast<std::size_t>(n.value());
}

}  // namespace

Result<RegTree> ReadTree(const JsonCursor& tree, std::uint64_t num_feature) {
  auto n = NumNodes(tree);
  if (!n.ok()) return n.status();
  RegTree t;
  Status st = ReadLinks(tree, n.value(), &t);
  if (st.ok()) st = ReadCategories(tree, n.value(), &t);
  if (st.ok()) st = ReadNodeValues(tree, n.value(), &t);
  if (st.ok()) st = CheckLinks(tree, t, num_feature);
  if (st.ok()) {
    st = CheckCategories(t);
    if (!st.ok()) st = tree.Error(st.message());
  }
  if (!st.ok()) return st;
  return t;
}

}  // namespace treering::booster
