#include "booster/tree/predict/predictor.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>

#include "base/parallel_for.h"
#include "booster/work_split.h"

namespace treering::booster {

namespace {

// One step of the checked walk: missing (NaN) takes the default branch; a categorical node
// sends its set right (XGBoost 1.7's Decision), a numerical one values below the condition left.
bool GoesLeft(const RegTree& tree, int node, float v) {
  if (std::isnan(v)) return tree.default_left[node] != 0;
  if (!tree.categories.empty()) {
    const auto it = tree.categories.find(node);
    if (it != tree.categories.end()) return CategoryGoesLeft(it->second, v);
  }
  return v < tree.split_cond[node];
}

}  // namespace

int LeafOf(const RegTree& tree, const std::vector<float>& features) {
  int node = 0;
  while (!tree.IsLeaf(node)) {
    const std::uint32_t f = tree.split_index[node];
    const float v = f < features.size() ? features[f] : std::numeric_limits<float>::quiet_NaN();
    node = GoesLeft(tree, node, v) ? tree.left[node] : tree.right[node];
  }
  return node;
}

namespace {

// Rows walked through a tree together: each step of a walk waits on the last (load the
// node's feature value, compare, pick a child), so one row at a time leaves the core idle;
// several independent walks interleaved keep it busy (docs/benchmarks.md, "Measurements behind code
// comments").
constexpr int kLanes = 8;
constexpr std::size_t kMaxLaneFeatures = 1 << 16;  // 8 lanes x 64 Ki floats = 2 MiB per thread
// Lane groups walked tree by tree together (64 rows), while their scatter vectors fit in
// 2 MiB per thread.
constexpr int kBlockLanes = 8;
constexpr std::size_t kMaxBlockFeatures = std::size_t{1} << 19;
// Fewer rows walk the trees as they are (AddTreesToRow; same sums, bit for bit: every walk
// reaches the same leaf and adds split_cond x weight in tree order).
constexpr std::size_t kMinRowsToFlatten = 64;

// Lane k's feature f is values[k][f] for f < limit, missing beyond.
struct Lanes {
  const float* values[kLanes];
  std::size_t limit;
  int count;
  bool complete = false;  // every lane's features 0..limit-1 present and not NaN
};

// A tree laid out for branch-free walking: one 16-byte record per node, children picked by
// indexing ({right, left}[go_left]) and a leaf pointing at itself, so every row takes the same
// number of steps (the tree's depth) and nothing depends on a compare's outcome but a load
// address. The branchy walk mispredicted about every other step (left or right is a coin
// flip).
// Nodes are renumbered breadth-first with each node's children side by side (right = left + 1),
// so a row with no missing value steps with next = left + !(value < cond) and never waits on a
// load of the child it picked. A leaf's cond is NaN (no value is below it) and its left is
// itself - 1, so both step rules keep a row on its leaf.
struct FlatNode {
  std::uint32_t feature;  // split feature; 0 for a leaf (read, never used)
  float cond;             // go left iff value < cond; NaN for a leaf
  std::int32_t child[2];  // [0] right, [1] left (= right - 1); a leaf: itself, itself - 1
};

struct FlatTree {
  std::vector<FlatNode> nodes;
  std::vector<std::uint8_t> default_left;
  std::vector<float> leaf_value;  // by node: a leaf's output x the tree's weight
  int depth = 0;
  std::uint32_t max_feature = 0;  // largest split feature (0 without splits)
  std::int64_t leaf_depth_sum = 0;
  std::int64_t leaves = 0;
  // Every row takes `depth` steps: worth it unless the tree is lopsided (lossguide without a
  // depth limit can grow a few long branches), where the checked walk stops at each leaf.
  bool Balanced() const {
    return depth <= 2 * leaf_depth_sum / std::max<std::int64_t>(1, leaves) + 2;
  }
};

FlatTree Flatten(const RegTree& tree, float weight) {
  FlatTree flat;
  if (tree.NumNodes() == 0) return flat;
  // Breadth-first from the root (loaded trees are checked to be trees, see
  // tree_json_reader.cc; node ids need not grow with depth): order[i] is new node i's old id.
  std::vector<int> order{0}, depth_of{0};
  for (std::size_t i = 0; i < order.size(); ++i) {
    const int old = order[i];
    if (tree.IsLeaf(old)) continue;
    order.push_back(tree.left[old]);
    order.push_back(tree.right[old]);
    depth_of.push_back(depth_of[i] + 1);
    depth_of.push_back(depth_of[i] + 1);
  }
  const int n = static_cast<int>(order.size());
  flat.nodes.resize(n);
  flat.default_left.resize(n);
  flat.leaf_value.resize(n);
  int next_child = 1;  // children are numbered in the order the loop above appended them
  for (int i = 0; i < n; ++i) {
    const int old = order[i];
    FlatNode& node = flat.nodes[i];
    flat.depth = std::max(flat.depth, depth_of[i]);
    if (tree.IsLeaf(old)) {
      node.feature = 0;
      node.cond = std::numeric_limits<float>::quiet_NaN();
      node.child[0] = i;
      node.child[1] = i - 1;
      flat.default_left[i] = 0;
      flat.leaf_value[i] = tree.split_cond[old] * weight;
      flat.leaf_depth_sum += depth_of[i];
      ++flat.leaves;
      continue;
    }
    node.feature = tree.split_index[old];
    node.cond = tree.split_cond[old];
    node.child[1] = next_child;
    node.child[0] = next_child + 1;
    next_child += 2;
    flat.default_left[i] = tree.default_left[old] != 0;
    flat.max_feature = std::max(flat.max_feature, node.feature);
  }
  return flat;
}

// Every split feature of `flat` is below lanes.limit (checked by the caller), so a value is
// always in the row: missing means NaN, which takes the default direction.
// kCount > 0: exactly that many lanes, known at compile time, so the loop unrolls and each
// lane's node stays in a register (with a run-time count the node array lived on the stack and
// every step paid a store-to-load round trip on top of its dependent loads).
// kComplete: no lane has a missing value, so a step is one compare (the same branch a NaN
// check would pick for every present value).
template <int kCount, bool kComplete>
void WalkFlatLanes(const FlatTree& flat, const Lanes& lanes, float* out, int groups, int group) {
  const FlatNode* nodes = flat.nodes.data();
  const std::uint8_t* default_left = flat.default_left.data();
  const int count = kCount > 0 ? kCount : lanes.count;
  std::int32_t node[kLanes] = {};
  for (int step = 0; step < flat.depth; ++step) {
    for (int k = 0; k < count; ++k) {
      const FlatNode& nd = nodes[node[k]];
      const float v = lanes.values[k][nd.feature];
      if (kComplete) {
        node[k] = nd.child[1] + int(!(v < nd.cond));
      } else {
        node[k] = nd.child[(v < nd.cond) | (int(v != v) & int(default_left[node[k]]))];
      }
    }
  }
  for (int k = 0; k < count; ++k) out[k * groups + group] += flat.leaf_value[node[k]];
}

void AddFlatTreeLanes(const FlatTree& flat, const Lanes& lanes, float* out, int groups, int group) {
  if (lanes.count == kLanes && lanes.complete) {
    WalkFlatLanes<kLanes, true>(flat, lanes, out, groups, group);
  } else if (lanes.count == kLanes) {
    WalkFlatLanes<kLanes, false>(flat, lanes, out, groups, group);
  } else {
    WalkFlatLanes<0, false>(flat, lanes, out, groups, group);
  }
}

// Any tree: a split feature at or beyond lanes.limit reads as missing.
void AddTreeLanes(const RegTree& tree, float weight, const Lanes& lanes, float* out, int groups,
                  int group) {
  std::int32_t node[kLanes] = {};
  bool walking = true;
  while (walking) {
    walking = false;
    for (int k = 0; k < lanes.count; ++k) {
      const std::int32_t n = node[k];
      const std::int32_t left = tree.left[n];
      if (left < 0) continue;
      walking = true;
      const std::uint32_t f = tree.split_index[n];
      const float v =
          f < lanes.limit ? lanes.values[k][f] : std::numeric_limits<float>::quiet_NaN();
      node[k] = GoesLeft(tree, n, v) ? left : tree.right[n];
    }
  }
  for (int k = 0; k < lanes.count; ++k) {
    out[k * groups + group] += tree.split_cond[node[k]] * weight;
  }
}

// A few rows: each row walks kLanes trees at once (one tree's walk is a chain of dependent
// loads; independent trees interleaved keep the core busy, as lanes of rows do for many rows),
// then adds their leaves in tree order, so the sums are those of the other walks bit for bit.
// Features at or beyond `limit` read as missing.
template <typename Weight>
void AddTreesToRow(const GBTreeModel& model, int tree_begin, int tree_end, const Weight& weight,
                   const float* row, std::size_t limit, float* out) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  for (int first = tree_begin; first < tree_end; first += kLanes) {
    const int count = std::min(kLanes, tree_end - first);
    const RegTree* trees[kLanes];
    bool numerical[kLanes];
    std::int32_t node[kLanes] = {};
    for (int k = 0; k < count; ++k) {
      trees[k] = &model.trees[first + k];
      numerical[k] = trees[k]->categories.empty();
    }
    for (bool walking = true; walking;) {
      walking = false;
      for (int k = 0; k < count; ++k) {
        const RegTree& tree = *trees[k];
        const std::int32_t n = node[k];
        const std::int32_t left = tree.left[n];
        if (left < 0) continue;
        walking = true;
        const std::uint32_t f = tree.split_index[n];
        const float v = f < limit ? row[f] : nan;
        const bool go_left =
            numerical[k] ? (v < tree.split_cond[n]) | (std::isnan(v) & (tree.default_left[n] != 0))
                         : GoesLeft(tree, n, v);
        node[k] = go_left ? left : tree.right[n];
      }
    }
    for (int k = 0; k < count; ++k) {
      out[model.tree_info[first + k]] += trees[k]->split_cond[node[k]] * weight(first + k);
    }
  }
}

}  // namespace

void AddTreeOutputs(const GBTreeModel& model, const data::DMatrix& dm, int tree_begin, int tree_end,
                    int nthread, std::vector<float>* margins,
                    const std::vector<float>* tree_weights) {
  if (tree_begin >= tree_end) return;
  if (tree_weights == nullptr && model.dart) tree_weights = &model.weight_drop;
  // A tree's output times its weight, as Dart::PredictBatchImpl adds it (x * 1 is x: gbtree
  // margins keep their bits).
  auto weight = [&](int t) {
    return tree_weights != nullptr && std::size_t(t) < tree_weights->size() ? (*tree_weights)[t]
                                                                            : 1.0f;
  };
  const int groups = model.NumGroups();
  // Indices strictly increase within a row, so rows of num_col entries hold features
  // 0..num_col-1 in order: dense data (higgs) is read in place; other rows are scattered into
  // a NaN-filled vector per lane. A feature at or beyond `limit` is missing either way.
  const bool dense = dm.NumNonZero() == dm.NumRows() * dm.num_col;
  const std::size_t width = dm.num_col;
  // Very wide sparse data walks one row at a time: eight scatter vectors of millions of
  // features per thread would cost more memory than the interleaving saves.
  const int max_lanes = dense || width <= kMaxLaneFeatures ? kLanes : 1;
  const float nan = std::numeric_limits<float>::quiet_NaN();
  // Flat copies of the trees whose split features all lie inside the rows (every tree grown
  // on this data); others (a loaded model splitting beyond num_col) take the checked walk.
  // A few rows (serving one request) are walked faster than the trees are copied: flattening
  // writes every node once per call, a row reads only its depth's worth of them.
  const int num_trees = tree_end - tree_begin;
  const bool flatten = dm.NumRows() >= kMinRowsToFlatten;
  std::vector<FlatTree> flat(flatten ? num_trees : 0);
  std::vector<std::uint8_t> use_flat(num_trees);  // 0: the checked walk
  if (flatten)
    ParallelFor(num_trees, ThreadsFor(std::size_t(num_trees) * 256, nthread), [&](int i) {
      const RegTree& tree = model.trees[tree_begin + i];
      flat[i] = Flatten(tree, weight(tree_begin + i));
      // Categorical splits take the checked walk: the flat record has room for a threshold only.
      use_flat[i] = tree.NumNodes() > 0 && flat[i].max_feature < width && flat[i].Balanced() &&
                    tree.categories.empty();
    });
  // Rows go through the trees a block at a time (kBlockLanes groups of lanes): each tree is
  // walked by the whole block before the next one, so its nodes are read from L1 by 64 rows
  // instead of being fetched again from L2 for every 8 (the model is larger than L2's share).
  // Each row still adds its trees in model order. Sparse rows need a scatter vector per row of
  // the block, so wide sparse data keeps one group.
  const int block_groups =
      dense || std::size_t(max_lanes) * kBlockLanes * width <= kMaxBlockFeatures ? kBlockLanes : 1;
  const std::int64_t block_rows = std::int64_t(max_lanes) * block_groups;
  ParallelForBlocks(
      static_cast<std::int64_t>(dm.NumRows()),
      ThreadsFor(dm.NumRows() * std::size_t(tree_end - tree_begin), nthread),
      [&](int, std::int64_t begin, std::int64_t end) {
        std::vector<float> features(dense ? 0 : block_rows * width, nan);
        Lanes lanes[kBlockLanes];
        for (std::int64_t block = begin; block < end; block += block_rows) {
          const std::int64_t block_end = std::min(end, block + block_rows);
          int count = 0;  // lane groups in this block
          for (std::int64_t first = block; first < block_end; first += max_lanes, ++count) {
            Lanes& group = lanes[count];
            group.limit = width;
            group.count = static_cast<int>(std::min<std::int64_t>(max_lanes, block_end - first));
            // Dense rows without NaN (checked here: 28 compares a row against 800 steps of a
            // 100-tree depth-8 model) take the one-compare step.
            group.complete = dense;
            for (int k = 0; k < group.count; ++k) {
              const std::int64_t row = first + k;
              if (dense) {
                const float* values = dm.value.data() + dm.row_ptr[row];
                group.values[k] = values;
                for (std::size_t f = 0; f < width; ++f) group.complete &= !std::isnan(values[f]);
                continue;
              }
              float* row_features = features.data() + (row - block) * width;
              for (std::uint64_t j = dm.row_ptr[row]; j < dm.row_ptr[row + 1]; ++j) {
                row_features[dm.index[j]] = dm.value[j];
              }
              group.values[k] = row_features;
            }
          }
          for (int g = 0; g < count; ++g) {
            float* out = margins->data() + (block + std::int64_t(g) * max_lanes) * groups;
            for (int k = 0; !flatten && k < lanes[g].count; ++k) {
              AddTreesToRow(model, tree_begin, tree_end, weight, lanes[g].values[k], width,
                            out + k * groups);
            }
          }
          for (int t = tree_begin; flatten && t < tree_end; ++t) {
            for (int g = 0; g < count; ++g) {
              float* out = margins->data() + (block + std::int64_t(g) * max_lanes) * groups;
              if (use_flat[t - tree_begin]) {
                AddFlatTreeLanes(flat[t - tree_begin], lanes[g], out, groups, model.tree_info[t]);
              } else {
                AddTreeLanes(model.trees[t], weight(t), lanes[g], out, groups, model.tree_info[t]);
              }
            }
          }
          if (dense) continue;
          for (std::int64_t row = block; row < block_end; ++row) {
            for (std::uint64_t j = dm.row_ptr[row]; j < dm.row_ptr[row + 1]; ++j) {
              features[(row - block) * width + dm.index[j]] = nan;
            }
          }
        }
      });
}

}  // namespace treering::booster
