#include "sync_check.h"

#include <cstdio>
#include <vector>

#include "booster/model_io.h"
#include "rabit/rabit.h"

namespace treering::cli {
namespace {

// The JSON of a one-tree model holding `model.trees[t]`: every field of the tree, in the same
// bytes on every rank that grew the same tree.
Result<std::string> TreeJson(const booster::GBTreeModel& model, std::size_t t) {
  booster::GBTreeModel one;
  one.objective = model.objective;
  one.num_feature = model.num_feature;
  one.num_class = model.num_class;
  one.trees = {model.trees[t]};
  one.tree_info = {model.tree_info[t]};
  return booster::ModelToJson(one);
}

}  // namespace

Status CheckTreesAgree(const booster::GBTreeModel& model, int first_tree, int round) {
  const int rank = rabit::GetRank();
  const int world = rabit::GetWorldSize();
  // The tree count itself must agree before trees can be compared pairwise.
  std::uint64_t count = model.trees.size();
  rabit::Broadcast(&count, sizeof(count), 0);
  std::vector<std::int32_t> first_bad(world, -1);  // first differing tree per rank, -1: none
  if (count != model.trees.size()) first_bad[rank] = first_tree;
  for (std::size_t t = first_tree; t < count; ++t) {
    std::string mine;
    if (t < model.trees.size()) {
      auto json = TreeJson(model, t);
      mine = json.ok() ? json.value() : "unserialisable: " + json.status().message();
    }
    std::string root = mine;
    rabit::Broadcast(&root, 0);
    if (root != mine && first_bad[rank] < 0) first_bad[rank] = static_cast<std::int32_t>(t);
  }
  // Every rank learns which ranks differ, so all of them stop with the same message.
  for (auto& v : first_bad) v += 1;  // 0 = agrees, so Sum merges the per-rank slots
  rabit::Allreduce<rabit::op::Sum>(first_bad.data(), first_bad.size());
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

std::string Fnv1a64Hex(const std::string& bytes) {
  std::uint64_t h = 14695981039346656037ull;
  for (const char c : bytes) {
    h ^= static_cast<unsigned char>(c);
    h *= 1099511628211ull;
  }
  char hex[17];
  std::snprintf(hex, sizeof(hex), "%016llx", static_cast<unsigned long long>(h));
  return hex;
}

void ReportModelDigest(const std::string& model_json) {
  rabit::TrackerPrint("debug_synchronize: model fnv1a64=" + Fnv1a64Hex(model_json) +
                      " bytes=" + std::to_string(model_json.size()));
}

}  // namespace treering::cli
