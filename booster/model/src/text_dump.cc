// XGBoost 1.7's TextGenerator: one line per node, depth-first, left child first, a tab per level.
// Its one quirk is kept: an indicator node is printed without its tabs.
#include "booster/number_format.h"
#include "tree_dump.h"

namespace treering::booster::dump {
namespace {

std::string Id(int node) { return std::to_string(node); }

void AppendLeaf(const RegTree& tree, int node, int depth, bool stats, std::string* out) {
  out->append(static_cast<std::size_t>(depth), '\t');
  out->append(Id(node) + ":leaf=" + FloatToG9(tree.split_cond[node]));
  if (stats) out->append(",cover=" + FloatToG9(tree.sum_hess[node]));
}

// "[f3<0.5]", "[age<31]" or "[is_male]" (the indicator line carries no missing=).
void AppendSplit(const RegTree& tree, int node, int depth, SplitKind kind, const FeatureMap& fmap,
                 std::string* out) {
  const std::uint32_t feature = tree.split_index[node];
  if (kind == SplitKind::kIndicator) {
    out->append(Id(node) + ":[" + fmap.Name(feature) + "] yes=" + Id(IndicatorYes(tree, node)) +
                ",no=" + Id(MissingChild(tree, node)));
    return;
  }
  out->append(static_cast<std::size_t>(depth), '\t');
  if (kind == SplitKind::kCategorical) {  // no "f" before an unnamed index, as in XGBoost 1.7
    const std::string name = feature < fmap.Size() ? fmap.Name(feature) : std::to_string(feature);
    out->append(Id(node) + ":[" + name + ":" + CategorySet(tree, node, "{", ",", "}") +
                "] yes=" + Id(tree.right[node]) + ",no=" + Id(tree.left[node]) +
                ",missing=" + Id(MissingChild(tree, node)));
    return;
  }
  const float cond = tree.split_cond[node];
  std::string test;
  if (kind == SplitKind::kPlain) {
    test = "f" + std::to_string(feature) + "<" + FloatToG9(cond);
  } else {
    test = fmap.Name(feature) + "<" +
           (kind == SplitKind::kInteger ? IntegerThreshold(cond) : FloatToG9(cond));
  }
  out->append(Id(node) + ":[" + test + "] yes=" + Id(tree.left[node]) +
              ",no=" + Id(tree.right[node]) + ",missing=" + Id(MissingChild(tree, node)));
}

Status AppendNode(const RegTree& tree, int node, int depth, const FeatureMap& fmap, bool stats,
                  std::string* out) {
  if (tree.IsLeaf(node)) {
    AppendLeaf(tree, node, depth, stats, out);
    return Status::Ok();
  }
  auto kind = KindOf(tree, node, fmap);
  if (!kind.ok()) return kind.status();
  AppendSplit(tree, node, depth, kind.value(), fmap, out);
  if (stats) {
    out->append(",gain=" + FloatToG9(tree.loss_change[node]) +
                ",cover=" + FloatToG9(tree.sum_hess[node]));
  }
  out->push_back('\n');
  Status st = AppendNode(tree, tree.left[node], depth + 1, fmap, stats, out);
  if (!st.ok()) return st;
  out->push_back('\n');
  return AppendNode(tree, tree.right[node], depth + 1, fmap, stats, out);
}

}  // namespace

Status TextTree(const RegTree& tree, const FeatureMap& fmap, bool with_stats, std::string* out) {
  Status st = AppendNode(tree, 0, 0, fmap, with_stats, out);
  out->push_back('\n');
  return st;
}

}  // namespace treering::booster::dump
