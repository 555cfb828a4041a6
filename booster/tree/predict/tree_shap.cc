#include "booster/tree/predict/tree_shap.h"

#include <algorithm>
#include <cstdint>
#include <string>
#include <utility>

#include "base/parallel_for.h"
#include "booster/tree/hist/dense_row.h"
#include "booster/tree/predict/tree_shap_path.h"
#include "booster/work_split.h"

namespace treering::booster {
namespace {

using shap::PathElement;

// Interaction values condition on one feature: sign +1 keeps it always "on" (the row's value),
// -1 always "off" (absent); 0 is plain TreeSHAP (XGBoost's condition / condition_feature).
struct Condition {
  int sign = 0;
  unsigned feature = 0;
};

// A tree with what explaining it needs, computed once per call.
struct ExplainedTree {
  const RegTree* tree = nullptr;
  int group = 0;
  std::vector<float> mean_values;       // cover-weighted mean of the leaves below each node
  std::vector<std::uint32_t> features;  // distinct split features: the columns it can touch
  int depth = 0;                        // of its deepest leaf (a lone root: 0)
  float weight = 1.0f;                  // dart's weight_drop entry: scales the whole tree
};

// XGBoost's FillNodeMeanValues, children before parents: nodes in reverse depth-first preorder.
void Prepare(const RegTree& tree, ExplainedTree* out) {
  const int n = tree.NumNodes();
  out->mean_values.assign(n, 0.0f);
  std::vector<std::pair<int, int>> stack{{0, 0}};
  std::vector<int> preorder;
  while (!stack.empty() && n > 0) {
    const auto [node, depth] = stack.back();
    stack.pop_back();
    preorder.push_back(node);
    out->depth = std::max(out->depth, depth);
    if (tree.IsLeaf(node)) continue;
    out->features.push_back(tree.split_index[node]);
    stack.push_back({tree.right[node], depth + 1});
    stack.push_back({tree.left[node], depth + 1});
  }
  for (auto it = preorder.rbegin(); it != preorder.rend(); ++it) {
    const int node = *it;
    if (tree.IsLeaf(node)) {
      out->mean_values[node] = tree.split_cond[node];
      continue;
    }
    const int l = tree.left[node], r = tree.right[node];
    float mean = out->mean_values[l] * tree.sum_hess[l];
    mean += out->mean_values[r] * tree.sum_hess[r];
    out->mean_values[node] = mean / tree.sum_hess[node];
  }
  std::sort(out->features.begin(), out->features.end());
  out->features.erase(std::unique(out->features.begin(), out->features.end()), out->features.end());
}

// One tree's TreeSHAP walk for one row (XGBoost's RegTree::TreeShap): every path from the root
// is followed, the "hot" child (the row's) with one_fraction 1, the "cold" one with 0; each
// leaf credits its value to the features on the path, weighted by UnwoundPathSum.
class ShapWalk {
 public:
  ShapWalk(const RegTree& tree, const float* row, float* phi, Condition condition)
      : tree_(tree), row_(row), phi_(phi), condition_(condition) {}

  void Run(PathElement* buffer) { Visit(0, 0, buffer, 1, 1, -1, 1); }

 private:
  void Visit(int node, unsigned depth, PathElement* parent_path, float parent_zero,
             float parent_one, int parent_feature, float condition_fraction) {
    if (condition_fraction == 0) return;  // no weight comes down to this node
    PathElement* path = parent_path + depth + 1;
    std::copy(parent_path, parent_path + depth + 1, path);
    if (condition_.sign == 0 || condition_.feature != static_cast<unsigned>(parent_feature)) {
      shap::ExtendPath(path, depth, parent_zero, parent_one, parent_feature);
    }
    if (tree_.IsLeaf(node)) {
      CreditLeaf(path, depth, tree_.split_cond[node], condition_fraction);
    } else {
      Split(node, depth, path, condition_fraction);
    }
  }

  void CreditLeaf(const PathElement* path, unsigned depth, float leaf, float condition_fraction) {
    for (unsigned i = 1; i <= depth; ++i) {
      const float w = shap::UnwoundPathSum(path, depth, i);
      const PathElement& el = path[i];
      phi_[el.feature_index] +=
          w * (el.one_fraction - el.zero_fraction) * leaf * condition_fraction;
    }
  }

  void Split(int node, unsigned depth, PathElement* path, float condition_fraction) {
    const unsigned feature = tree_.split_index[node];
    const int hot = NextNode(tree_, node, row_);
    const int cold = hot == tree_.left[node] ? tree_.right[node] : tree_.left[node];
    const float w = tree_.sum_hess[node];
    const float hot_zero = tree_.sum_hess[hot] / w;
    const float cold_zero = tree_.sum_hess[cold] / w;
    float incoming_zero = 1, incoming_one = 1;
    // A feature already on the path is unwound so this split can redo it.
    unsigned at = 0;
    while (at <= depth && static_cast<unsigned>(path[at].feature_index) != feature) ++at;
    if (at != depth + 1) {
      incoming_zero = path[at].zero_fraction;
      incoming_one = path[at].one_fraction;
      shap::UnwindPath(path, depth, at);
      depth -= 1;
    }
    float hot_fraction = condition_fraction, cold_fraction = condition_fraction;
    if (condition_.sign > 0 && feature == condition_.feature) {
      cold_fraction = 0;
      depth -= 1;  // unsigned wrap-around as XGBoost's; the calls add the 1 back
    } else if (condition_.sign < 0 && feature == condition_.feature) {
      hot_fraction *= hot_zero;
      cold_fraction *= cold_zero;
      depth -= 1;
    }
    Visit(hot, depth + 1, path, hot_zero * incoming_zero, incoming_one, static_cast<int>(feature),
          hot_fraction);
    Visit(cold, depth + 1, path, cold_zero * incoming_zero, 0, static_cast<int>(feature),
          cold_fraction);
  }

  const RegTree& tree_;
  const float* row_;
  float* phi_;
  Condition condition_;
};

// Saabas: the change of the node mean along the row's path goes to each split's feature
// (XGBoost's CalculateContributionsApprox).
void ApproxContributions(const ExplainedTree& t, const float* row, float* phi, std::size_t bias) {
  const RegTree& tree = *t.tree;
  float node_value = t.mean_values[0];
  phi[bias] += node_value;
  if (tree.IsLeaf(0)) return;
  int node = 0;
  unsigned feature = 0;
  while (!tree.IsLeaf(node)) {
    feature = tree.split_index[node];
    node = NextNode(tree, node, row);
    const float next_value = t.mean_values[node];
    phi[feature] += next_value - node_value;
    node_value = next_value;
  }
  phi[feature] += tree.split_cond[node] - node_value;
}

struct Ensemble {
  std::vector<ExplainedTree> trees;
  std::size_t columns = 0;  // features + the bias
  int groups = 1;
  std::size_t path_size = 0;  // PathElements a walk of the deepest tree needs
};

Result<Ensemble> Explain(const GBTreeModel& model, int tree_end, int nthread) {
  Ensemble e;
  e.columns = model.num_feature + 1;
  e.groups = model.NumGroups();
  e.trees.resize(tree_end);
  for (int i = 0; i < tree_end; ++i) {
    if (model.trees[i].NumNodes() == 0)
      return Status::InvalidInput("model: tree " + std::to_string(i) + " has no nodes");
  }
  ParallelFor(tree_end, ThreadsFor(std::size_t(tree_end) * 256, nthread), [&](int i) {
    e.trees[i].tree = &model.trees[i];
    e.trees[i].group = model.tree_info[i];
    if (model.dart && static_cast<std::size_t>(i) < model.weight_drop.size()) {
      e.trees[i].weight = model.weight_drop[i];
    }
    Prepare(model.trees[i], &e.trees[i]);
  });
  int depth = 0;
  for (const ExplainedTree& t : e.trees) {
    if (!t.features.empty() && t.features.back() >= model.num_feature) {
      return Status::InvalidInput("model: a tree splits on feature " +
                                  std::to_string(t.features.back()) + " but num_feature is " +
                                  std::to_string(model.num_feature));
    }
    depth = std::max(depth, t.depth);
  }
  const std::size_t max_depth = depth + 2;  // XGBoost's MaxDepth() + 2
  e.path_size = max_depth * (max_depth + 1) / 2;
  return e;
}

// One thread's buffers.
struct Scratch {
  std::vector<float> tree_phi;  // one tree's contributions, zero between trees
  std::vector<PathElement> path;
  explicit Scratch(const Ensemble& e) : tree_phi(e.columns, 0.0f), path(e.path_size) {}
};

// Adds one row's contributions to out[groups x columns] (zero on entry) as XGBoost's
// PredictContribution: per class, each TreeSHAP tree into a zeroed buffer, then added; the bias
// gets base_margin. Only the columns a tree can touch are added and re-zeroed (the others stay
// 0).
void RowContributions(const Ensemble& e, const float* row, const ShapRequest& request,
                      Condition condition, Scratch* s, float* out) {
  const std::size_t bias = e.columns - 1;
  float* phi = s->tree_phi.data();
  for (int gid = 0; gid < e.groups; ++gid) {
    float* contribs = out + gid * e.columns;
    for (const ExplainedTree& t : e.trees) {
      if (t.group != gid) continue;
      if (request.approximate && t.weight == 1.0f) {
        // A handful of additions per tree: straight into the sums (XGBoost's per-tree buffer
        // changes only the last bits, and cost as much as the walk).
        ApproxContributions(t, row, contribs, bias);
        continue;
      }
      if (request.approximate) {
        ApproxContributions(t, row, phi, bias);
      } else {
        if (condition.sign == 0) phi[bias] += t.mean_values[0];
        ShapWalk(*t.tree, row, phi, condition).Run(s->path.data());
      }
      // XGBoost's PredictContribution: each tree's buffer times its dart weight (1 for gbtree).
      for (std::uint32_t f : t.features) {
        contribs[f] += phi[f] * t.weight;
        phi[f] = 0;
      }
      contribs[bias] += phi[bias] * t.weight;
      phi[bias] = 0;
    }
    contribs[bias] += request.base_margin;
  }
}

// One row's interaction matrix from its contributions with each feature conditioned off and
// on (XGBoost's PredictInteractionContributions, row by row instead of pass by pass).
void RowInteractions(const Ensemble& e, const float* row, const ShapRequest& request, Scratch* s,
                     std::vector<float> (&buffers)[3], float* out) {
  const std::size_t cols = e.columns;
  auto contributions = [&](Condition c, std::vector<float>* v) {
    std::fill(v->begin(), v->end(), 0.0f);
    RowContributions(e, row, request, c, s, v->data());
  };
  std::vector<float>& diag = buffers[0];
  std::vector<float>& off = buffers[1];
  std::vector<float>& on = buffers[2];
  contributions({0, 0}, &diag);
  for (std::size_t i = 0; i < cols; ++i) {
    contributions({-1, static_cast<unsigned>(i)}, &off);
    contributions({1, static_cast<unsigned>(i)}, &on);
    for (int l = 0; l < e.groups; ++l) {
      float* o = out + (l * cols + i) * cols;
      const std::size_t c = l * cols;
      o[i] = 0;
      for (std::size_t k = 0; k < cols; ++k) {
        if (k == i) {
          o[i] += diag[c + k];
        } else {
          o[k] = (on[c + k] - off[c + k]) / 2.0;
          o[i] -= o[k];
        }
      }
    }
  }
}

// Runs fn(row values, row index, scratch) over the rows in parallel blocks.
template <typename Fn>
void ForEachRow(const Ensemble& e, const data::DMatrix& dm, int nthread, std::size_t row_work,
                Fn&& fn) {
  const std::size_t rows = dm.NumRows();
  ParallelForBlocks(static_cast<std::int64_t>(rows), ThreadsFor(rows * row_work, nthread),
                    [&](int, std::int64_t begin, std::int64_t end) {
                      DenseRow row(e.columns - 1);
                      Scratch scratch(e);
                      for (std::int64_t r = begin; r < end; ++r) {
                        row.Fill(dm, r);
                        fn(row.Values(), static_cast<std::size_t>(r), &scratch);
                        row.Drop(dm, r);
                      }
                    });
}

}  // namespace

Status PredictContributions(const GBTreeModel& model, const data::DMatrix& dm,
                            const ShapRequest& request, std::vector<float>* out) {
  auto e = Explain(model, request.tree_end, request.nthread);
  if (!e.ok()) return e.status();
  const std::size_t stride = e->groups * e->columns;
  out->assign(dm.NumRows() * stride, 0.0f);
  ForEachRow(*e, dm, request.nthread, std::size_t(request.tree_end) * 64,
             [&](const float* row, std::size_t r, Scratch* s) {
               RowContributions(*e, row, request, {}, s, out->data() + r * stride);
             });
  return Status::Ok();
}

Status PredictInteractions(const GBTreeModel& model, const data::DMatrix& dm,
                           const ShapRequest& request, std::vector<float>* out) {
  auto e = Explain(model, request.tree_end, request.nthread);
  if (!e.ok()) return e.status();
  const std::size_t stride = e->groups * e->columns * e->columns;
  out->assign(dm.NumRows() * stride, 0.0f);
  ForEachRow(*e, dm, request.nthread, std::size_t(request.tree_end) * 64 * e->columns,
             [&](const float* row, std::size_t r, Scratch* s) {
               std::vector<float> buffers[3];
               for (auto& b : buffers) b.resize(e->groups * e->columns);
               RowInteractions(*e, row, request, s, buffers, out->data() + r * stride);
             });
  return Status::Ok();
}

}  // namespace treering::booster
