// Colmaker's rules, read from XGBoost 1.7.4 src/tree/updater_colmaker.cc, split_evaluator.h,
// param.h and updater_prune.cc:
// - a column is walked backwards always (missing values go left) and forwards only when it has
//   missing values and more than one distinct value (NeedForwardSearch, opt_dense_col = 1);
// - a candidate sits between adjacent distinct values at their float midpoint (the lower value
//   when the midpoint rounds up to the upper one), plus one past the last value (all present
//   values on one side, missing on the other), kRtEps beyond it;
// - ties keep the first candidate: features ascending, forwards before backwards;
// - a node splits when its best loss_chg > kRtEps; gamma is applied afterwards by prune.
#include "booster/tree/grow/exact_grower.h"

#include <algorithm>
#include <cmath>

#include "base/parallel_for.h"
#include "booster/tree/grow/tree_prune.h"

namespace treering::booster {
namespace {

constexpr float kRtEps = 1e-6f;

struct Stats {  // colmaker's GradStats: double sums
  double grad = 0.0, hess = 0.0;
  void Add(const GradientPair& p) {
    grad += p.grad;
    hess += p.hess;
  }
  Stats Minus(const Stats& o) const { return {grad - o.grad, hess - o.hess}; }
};

struct Split {
  float loss_chg = 0.0f;
  std::uint32_t feature = 0;
  float value = 0.0f;
  bool default_left = false;
  Stats left, right;
  // SplitEntry::Update when candidates arrive in tie-break order: strictly better wins.
  void Offer(const Split& c) {
    if (!std::isinf(c.loss_chg) && c.loss_chg > loss_chg) *this = c;
  }
};

struct NodeState {
  Stats stats;
  float weight = 0.0f, root_gain = 0.0f;
  Split best;
};

// TreeEvaluator without constraints: weights and gains in double, rounded to float.
class Gain {
 public:
  explicit Gain(const TreeParam& p) : p_(p) {}
  float Weight(const Stats& s) const {
    if (s.hess < p_.min_child_weight || s.hess <= 0.0) return 0.0f;
    double w = -L1(s.grad) / (s.hess + p_.reg_lambda);
    if (p_.max_delta_step != 0.0f && std::fabs(w) > p_.max_delta_step) {
      w = std::copysign(static_cast<double>(p_.max_delta_step), w);
    }
    return static_cast<float>(w);
  }
  float Of(const Stats& s) const { return GivenWeight(s, Weight(s)); }
  float SplitGain(const Stats& l, const Stats& r) const { return Of(l) + Of(r); }

 private:
  double L1(double g) const {
    if (g > p_.reg_alpha) return g - p_.reg_alpha;
    if (g < -p_.reg_alpha) return g + p_.reg_alpha;
    return 0.0;
  }
  float GivenWeight(const Stats& s, float w) const {
    if (s.hess <= 0.0) return 0.0f;
    if (p_.max_delta_step == 0.0f) {
      const double t = L1(s.grad);
      return static_cast<float>(t * t / (s.hess + p_.reg_lambda));
    }
    const float g = static_cast<float>(s.grad), h = static_cast<float>(s.hess);
    return static_cast<float>(-(2.0 * g * w + (h + p_.reg_lambda) * (w * w)));
  }
  const TreeParam& p_;
};

// One level's search context: the nodes being expanded and where every row is.
struct Level {
  const std::vector<GradientPair>* gpair;
  const std::vector<int>* position;   // node of each row, -1 if left out
  const std::vector<int>* node_slot;  // index into `nodes` by node id, -1 if not expanding
  const std::vector<NodeState*>* nodes;
};

// Walks one column in one direction for every expanding node at once (colmaker's
// EnumerateSplit); `best` has one entry per expanding node.
template <typename It>
void Enumerate(It first, It last, bool forward, std::uint32_t f, const Level& lv, const Gain& gain,
               float min_child_weight, std::vector<Split>* best) {
  struct Running {
    Stats stats;
    float last = 0.0f;
  };
  std::vector<Running> run(lv.nodes->size());
  auto offer = [&](std::size_t slot, const Stats& seen, const Stats& rest, float value) {
    const NodeState& n = *(*lv.nodes)[slot];
    Split c;
    c.feature = f;
    c.value = value;
    c.default_left = !forward;
    c.left = forward ? seen : rest;
    c.right = forward ? rest : seen;
    c.loss_chg = gain.SplitGain(c.left, c.right) - n.root_gain;
    (*best)[slot].Offer(c);
  };
  for (It it = first; it != last; ++it) {
    const int node = (*lv.position)[it->row];
    if (node < 0 || (*lv.node_slot)[node] < 0) continue;
    const std::size_t slot = static_cast<std::size_t>((*lv.node_slot)[node]);
    Running& r = run[slot];
    const float v = it->value;
    if (r.stats.hess != 0.0 && v != r.last && r.stats.hess >= min_child_weight) {
      const Stats rest = (*lv.nodes)[slot]->stats.Minus(r.stats);
      if (rest.hess >= min_child_weight) {
        const float mid = (v + r.last) * 0.5f;
        offer(slot, r.stats, rest, mid == v ? r.last : mid);
      }
    }
    r.stats.Add((*lv.gpair)[it->row]);
    r.last = v;
  }
  for (std::size_t slot = 0; slot < run.size(); ++slot) {
    const Running& r = run[slot];
    const Stats rest = (*lv.nodes)[slot]->stats.Minus(r.stats);
    if (r.stats.hess >= min_child_weight && rest.hess >= min_child_weight) {
      const float gap = std::fabs(r.last) + kRtEps;
      offer(slot, r.stats, rest, r.last + (forward ? gap : -gap));
    }
  }
}

// The value of feature f in row `row`, or NaN when missing (indices are sorted in a row).
float RowValue(const data::DMatrix& dm, std::size_t row, std::uint32_t f) {
  const auto begin = dm.index.begin() + dm.row_ptr[row];
  const auto end = dm.index.begin() + dm.row_ptr[row + 1];
  const auto it = std::lower_bound(begin, end, f);
  if (it == end || *it != f) return std::nanf("");
  return dm.value[it - dm.index.begin()];
}

// Sums the gradients of the rows now in `nodes` (new nodes: no other node gets rows) and sets
// their weight and gain, as colmaker's InitNewNode.
void InitNodes(const std::vector<int>& nodes, const std::vector<GradientPair>& gpair,
               const std::vector<int>& position, const Gain& gain, int num_nodes,
               std::vector<NodeState>* state) {
  state->resize(num_nodes);
  std::vector<std::uint8_t> is_new(num_nodes, 0);
  for (int n : nodes) is_new[n] = 1;
  for (std::size_t row = 0; row < gpair.size(); ++row) {
    if (position[row] >= 0 && is_new[position[row]]) (*state)[position[row]].stats.Add(gpair[row]);
  }
  for (int n : nodes) {
    (*state)[n].weight = gain.Weight((*state)[n].stats);
    (*state)[n].root_gain = gain.Of((*state)[n].stats);
  }
}

// Splits each node of `expand` whose best loss_chg > kRtEps, else makes it a leaf; returns the
// new children in colmaker's order (node by node, left then right).
std::vector<int> ApplySplits(const std::vector<int>& expand, const std::vector<NodeState>& state,
                             const Gain& gain, float eta, RegTree* tree) {
  std::vector<int> children;
  for (int n : expand) {
    const Split& b = state[n].best;
    if (!(b.loss_chg > kRtEps)) {
      tree->split_cond[n] = state[n].weight * eta;
      continue;
    }
    const float wl = gain.Weight(b.left) * eta, wr = gain.Weight(b.right) * eta;
    const int l = tree->AddNode(n, wl, wl, static_cast<float>(b.left.hess));
    const int r = tree->AddNode(n, wr, wr, static_cast<float>(b.right.hess));
    tree->left[n] = l;
    tree->right[n] = r;
    tree->split_index[n] = b.feature;
    tree->split_cond[n] = b.value;
    tree->default_left[n] = b.default_left ? 1 : 0;
    children.push_back(l);
    children.push_back(r);
  }
  return children;
}

// Moves every row of a node split this level to the child its value (or missing) selects.
void Reposition(const data::DMatrix& dm, const RegTree& tree, int nthread,
                std::vector<int>* position) {
  ParallelFor(position->size(), nthread, [&](std::size_t row) {
    const int n = (*position)[row];
    if (n < 0 || tree.IsLeaf(n)) return;
    const float v = RowValue(dm, row, tree.split_index[n]);
    const bool go_left = std::isnan(v) ? tree.default_left[n] != 0 : v < tree.split_cond[n];
    (*position)[row] = go_left ? tree.left[n] : tree.right[n];
  });
}

}  // namespace

ExactGrower::ExactGrower(const TreeParam& param, const data::DMatrix& dm, std::uint32_t num_feature,
                         const Context& ctx)
    : param_(param), dm_(dm), ctx_(ctx), col_ptr_(num_feature + 1, 0) {
  const int nthread = ctx.Threads();
  for (std::uint32_t f : dm.index) ++col_ptr_[f + 1];
  for (std::uint32_t f = 0; f < num_feature; ++f) col_ptr_[f + 1] += col_ptr_[f];
  entries_.resize(dm.index.size());
  std::vector<std::uint64_t> fill(col_ptr_.begin(), col_ptr_.end() - 1);
  for (std::size_t row = 0; row < dm.NumRows(); ++row) {
    for (std::uint64_t j = dm.row_ptr[row]; j < dm.row_ptr[row + 1]; ++j) {
      entries_[fill[dm.index[j]]++] = {dm.value[j], static_cast<std::uint32_t>(row)};
    }
  }
  forward_.assign(num_feature, 0);
  ParallelFor(num_feature, nthread, [&](std::uint32_t f) {
    auto* b = entries_.data() + col_ptr_[f];
    auto* e = entries_.data() + col_ptr_[f + 1];
    std::stable_sort(b, e,
                     [](const ColumnEntry& x, const ColumnEntry& y) { return x.value < y.value; });
    const bool dense = static_cast<std::size_t>(e - b) >= dm.NumRows();
    const bool one_value = b != e && b->value == (e - 1)->value;
    forward_[f] = !dense && !one_value;
  });
}

std::vector<int> ExactGrower::LevelPositions(const std::vector<GradientPair>& gpair) const {
  std::vector<int> position(gpair.size(), 0);
  for (std::size_t row = 0; row < gpair.size(); ++row) {
    if (gpair[row].hess < 0.0f) position[row] = -1;
  }
  return position;
}

RegTree ExactGrower::Grow(const std::vector<GradientPair>& gpair) const {
  const Gain gain(param_);
  const std::uint32_t num_feature = static_cast<std::uint32_t>(col_ptr_.size() - 1);
  std::vector<int> position = LevelPositions(gpair);
  RegTree tree;
  tree.AddNode(-1, 0.0f, 0.0f, 0.0f);
  std::vector<NodeState> state;
  InitNodes({0}, gpair, position, gain, 1, &state);
  std::vector<int> expand{0};
  for (int depth = 0; depth < param_.max_depth && !expand.empty(); ++depth) {
    std::vector<int> node_slot(tree.NumNodes(), -1);
    std::vector<NodeState*> nodes;
    for (int n : expand) {
      node_slot[n] = static_cast<int>(nodes.size());
      nodes.push_back(&state[n]);
    }
    const Level lv{&gpair, &position, &node_slot, &nodes};
    std::vector<std::vector<Split>> per_feature(num_feature, std::vector<Split>(nodes.size()));
    ParallelFor(num_feature, ctx_.Threads(), [&](std::uint32_t f) {
      const ColumnEntry* b = entries_.data() + col_ptr_[f];
      const ColumnEntry* e = entries_.data() + col_ptr_[f + 1];
      if (forward_[f]) Enumerate(b, e, true, f, lv, gain, param_.min_child_weight, &per_feature[f]);
      Enumerate(std::make_reverse_iterator(e), std::make_reverse_iterator(b), false, f, lv, gain,
                param_.min_child_weight, &per_feature[f]);
    });
    for (std::size_t s = 0; s < nodes.size(); ++s) {  // features ascending: colmaker's ties
      for (std::uint32_t f = 0; f < num_feature; ++f) nodes[s]->best.Offer(per_feature[f][s]);
    }
    std::vector<int> children = ApplySplits(expand, state, gain, param_.eta, &tree);
    Reposition(dm_, tree, ctx_.Threads(), &position);
    InitNodes(children, gpair, position, gain, tree.NumNodes(), &state);
    expand.swap(children);
  }
  for (int n : expand) tree.split_cond[n] = state[n].weight * param_.eta;
  for (int n = 0; n < tree.NumNodes(); ++n) {
    tree.loss_change[n] = state[n].best.loss_chg;
    tree.base_weight[n] = state[n].weight;
    tree.sum_hess[n] = static_cast<float>(state[n].stats.hess);
  }
  // 1.7's exact default is grow_colmaker,prune (gamma applied after growing).
  PruneTree(param_.min_split_loss, param_.max_depth, param_.eta, &tree);
  return tree;
}

}  // namespace treering::booster
