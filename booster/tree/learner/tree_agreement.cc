#include "booster/tree/learner/tree_agreement.h"

#include <cstdint>
#include <string>
#include <vector>

#include "booster/model_io.h"

namespace treering::booster {
namespace {

// The JSON of a one-tree model holding `model.trees[t]`: every field of the tree, in the same
// bytes on every rank that grew the same tree.
Result<std::string> TreeJson(const GBTreeModel& model, std::size_t t) {
  GBTreeModel one;
  one.objective = model.objective;
  one.num_feature = model.num_feature;
  one.num_class = model.num_class;
  one.num_target = model.num_target;
  one.trees = {model.trees[t]};
  one.tree_info = {model.tree_info[t]};
  return ModelToJson(one);
}

}  // namespace

Status CheckTreesAgree(const GBTreeModel& model, int first_tree, int round, rabit::Comm& comm) {
  const int rank = comm.Rank();
  const int world = comm.WorldSize();
  // The tree count itself must agree before trees can be compared pairwise.
  std::uint64_t count = model.trees.size();
  comm.Broadcast(&count, sizeof(count), 0);
  std::vector<std::int32_t> first_bad(world, -1);  // first differing tree per rank, -1: none
  if (count != model.trees.size()) first_bad[rank] = first_tree;
  for (std::size_t t = first_tree; t < count; ++t) {
    std::string mine;
    if (t < model.trees.size()) {
      auto json = TreeJson(model, t);
      mine = json.ok() ? json.value() : "unserialisable: " + json.status().message();
    }
    std::string root = mine;
    comm.Broadcast(&root, 0);
    if (root != mine && first_bad[rank] < 0) first_bad[rank] = static_cast<std::int32_t>(t);
  }
  // Every rank learns which ranks differ, so all of them stop with the same message.
  for (auto& v : first_bad) v += 1;  // 0 = agrees, so Sum merges the per-rank slots
  comm.Allreduce<rabit::op::Sum>(first_bad.data(), first_bad.size());
  std::string ranks;
  int tree = -1;
  for (int r = 0; r < world; ++r) {
    if (first_bad[r] == 0) continue;
    ranks += (ranks.empty() ? "" : ", ") + std::to_string(r);
    if (tree < 0) tree = first_bad[r] - 1;
  }
  if (ranks.empty()) return Status::Ok();
  return Status::Internal("debug_synchronize: round " + std::to_string(round) + ": tree " +
                          std::to_string(tree) + " of rank(s) " + ranks +
                          " differs from rank 0's (the ranks are not training the same model)");
}

}  // namespace treering::booster
