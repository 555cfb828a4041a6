// XGBoost 1.7's JsonGenerator: nested objects, two spaces per level plus two of indentation,
// children in a "children" array; spacing reproduced exactly (e.g. the space before a comma).
#include "booster/number_format.h"
#include "tree_dump.h"

namespace treering::booster::dump {
namespace {

std::string Indent(int depth) { return std::string(2 * (depth + 1), ' '); }
std::string Id(int node) { return std::to_string(node); }

// The split's fields after "{": name and test, or for an indicator only name and branches.
std::string SplitFields(const RegTree& tree, int node, int depth, SplitKind kind,
                        const FeatureMap& fmap) {
  const std::uint32_t feature = tree.split_index[node];
  const std::string name = feature < fmap.Size() ? fmap.Name(feature) : std::to_string(feature);
  const std::string head = " \"nodeid\": " + Id(node) + ", \"depth\": " + std::to_string(depth) +
                           ", \"split\": \"" + name + "\", ";
  if (kind == SplitKind::kIndicator) {
    return head + "\"yes\": " + Id(IndicatorYes(tree, node)) +
           ", \"no\": " + Id(MissingChild(tree, node));
  }
  if (kind == SplitKind::kCategorical) {
    return head + "\"split_condition\": " + CategorySet(tree, node, "[", ", ", "]") +
           ", \"yes\": " + Id(tree.right[node]) + ", \"no\": " + Id(tree.left[node]) +
           ", \"missing\": " + Id(MissingChild(tree, node));
  }
  const float cond = tree.split_cond[node];
  const std::string threshold =
      kind == SplitKind::kInteger ? IntegerThreshold(cond) : FloatToG9(cond);
  return head + "\"split_condition\": " + threshold + ", \"yes\": " + Id(tree.left[node]) +
         ", \"no\": " + Id(tree.right[node]) + ", \"missing\": " + Id(MissingChild(tree, node));
}

Status AppendNode(const RegTree& tree, int node, int depth, const FeatureMap& fmap, bool stats,
                  std::string* out) {
  if (depth != 0) out->push_back('\n');
  out->append(Indent(depth));
  if (tree.IsLeaf(node)) {
    out->append("{ \"nodeid\": " + Id(node) + ", \"leaf\": " + FloatToG9(tree.split_cond[node]) +
                " ");
    if (stats) out->append(", \"cover\": " + FloatToG9(tree.sum_hess[node]) + " ");
    out->push_back('}');
    return Status::Ok();
  }
  auto kind = KindOf(tree, node, fmap);
  if (!kind.ok()) return kind.status();
  out->append("{" + SplitFields(tree, node, depth, kind.value(), fmap) + " ");
  if (stats) {
    out->append(", \"gain\": " + FloatToG9(tree.loss_change[node]) +
                ", \"cover\": " + FloatToG9(tree.sum_hess[node]));
  }
  out->append(", \"children\": [");
  Status st = AppendNode(tree, tree.left[node], depth + 1, fmap, stats, out);
  if (!st.ok()) return st;
  out->append(", ");
  st = AppendNode(tree, tree.right[node], depth + 1, fmap, stats, out);
  out->append("\n" + Indent(depth) + "]}");
  return st;
}

}  // namespace

Status JsonTree(const RegTree& tree, const FeatureMap& fmap, bool with_stats, std::string* out) {
  return AppendNode(tree, 0, 0, fmap, with_stats, out);
}

}  // namespace treering::booster::dump
