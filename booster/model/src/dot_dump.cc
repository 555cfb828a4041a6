// XGBoost 1.7's GraphvizGenerator with its default parameters (no node or graph attributes,
// yes_color #0000FF, no_color #FF0000, rankdir TB): a node line per node and an edge line per
// child; the edge a missing value takes is labelled ", missing" and drawn in yes_color.
// Feature map types only change the label: an indicator shows just its name (no threshold);
// integer features keep the float threshold; no stats, whatever with_stats says.
#include "booster/number_format.h"
#include "tree_dump.h"

namespace treering::booster::dump {
namespace {

// A categorical node's right child is its "yes" (the set's branch).
void AppendEdge(const RegTree& tree, int node, bool left, std::string* out) {
  const int child = left ? tree.left[node] : tree.right[node];
  const bool missing = MissingChild(tree, node) == child;
  const bool yes = tree.IsCategorical(node) ? !left : left;
  out->append("    " + std::to_string(node) + " -> " + std::to_string(child) + " [label=\"" +
              (yes ? "yes" : "no") + (missing ? ", missing" : "") + "\" color=\"" +
              (missing ? "#0000FF" : "#FF0000") + "\"]\n");
}

void AppendNode(const RegTree& tree, int node, const FeatureMap& fmap, std::string* out) {
  const std::string id = std::to_string(node);
  if (tree.IsLeaf(node)) {
    out->append("    " + id + " [ label=\"leaf=" + FloatToG9(tree.split_cond[node]) + "\" ]\n");
    return;
  }
  const std::uint32_t feature = tree.split_index[node];
  const bool named = feature < fmap.Size();
  const bool indicator = named && fmap.TypeOf(feature) == FeatureMap::Type::kIndicator;
  const std::string name = named ? fmap.Name(feature) : "f" + std::to_string(feature);
  const std::string test = tree.IsCategorical(node) ? ":" + CategorySet(tree, node, "{", ",", "}")
                           : indicator              ? ""
                                                    : "<" + FloatToG9(tree.split_cond[node]);
  out->append("    " + id + " [ label=\"" + name + test + "\" ]\n");
  AppendEdge(tree, node, true, out);
  AppendEdge(tree, node, false, out);
  out->push_back('\n');
  AppendNode(tree, tree.left[node], fmap, out);
  out->push_back('\n');
  AppendNode(tree, tree.right[node], fmap, out);
}

}  // namespace

void DotTree(const RegTree& tree, const FeatureMap& fmap, std::string* out) {
  out->append("digraph {\n    graph [ rankdir=TB ]\n\n");
  AppendNode(tree, 0, fmap, out);
  out->push_back('}');
}

}  // namespace treering::booster::dump
