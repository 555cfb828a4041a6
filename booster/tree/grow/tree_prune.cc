#include "booster/tree/grow/tree_prune.h"

namespace treering::booster {
namespace {

int DepthOf(const RegTree& tree, int node) {
  int depth = 0;
  for (; node != 0; node = tree.parent[node]) ++depth;
  return depth;
}

// XGBoost's TrainParam::NeedPrune: the parent's gain, the depth of the leaf below it.
bool NeedPrune(float loss_chg, int depth, float gamma, int max_depth) {
  return loss_chg < gamma || (max_depth != 0 && depth > max_depth);
}

}  // namespace

// Leaves in node order, each pruned upwards while its parent qualifies (TryPruneLeaf's tail
// recursion): the order decides nothing, since a parent qualifies only once both children are
// leaves, but it is XGBoost's.
int PruneTree(float gamma, int max_depth, float eta, RegTree* tree) {
  int pruned = 0;
  for (int leaf = 0; leaf < tree->NumNodes(); ++leaf) {
    if (!tree->IsLeaf(leaf) || tree->IsDeleted(leaf)) continue;
    int depth = DepthOf(*tree, leaf);
    for (int n = leaf; n != 0; --depth) {
      const int pid = tree->parent[n];
      const int l = tree->left[pid], r = tree->right[pid];
      if (!tree->IsLeaf(l) || !tree->IsLeaf(r) ||
          !NeedPrune(tree->loss_change[pid], depth, gamma, max_depth)) {
        break;
      }
      tree->MarkDeleted(l);
      tree->MarkDeleted(r);
      tree->left[pid] = tree->right[pid] = -1;  // SetLeaf keeps the split index, as here
      tree->split_cond[pid] = eta * tree->base_weight[pid];
      pruned += 2;
      n = pid;
    }
  }
  return pruned;
}

}  // namespace treering::booster
