#include "booster/tree/predict/predictor.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
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

// A tree's output times its weight, as Dart::PredictBatchImpl adds it (x * 1 is x: gbtree
// margins keep their bits): tree_weights[t] if given, else 1.
struct TreeWeights {
  const std::vector<float>* weights;
  float operator()(int t) const {
    return weights != nullptr && std::size_t(t) < weights->size() ? (*weights)[t] : 1.0f;
  }
};

// The trees [tree_begin, tree_end) ready to walk blocks of rows whose features 0..width-1 are
// in memory (a feature at or beyond `width` is missing), shared by the DMatrix and the dense
// input paths so that both add the same leaves in the same order.
class TreeWalk {
 public:
  TreeWalk(const GBTreeModel& model, int tree_begin, int tree_end, std::size_t rows,
           std::size_t width, int nthread, TreeWeights weight)
      : model_(model),
        tree_begin_(tree_begin),
        tree_end_(tree_end),
        width_(width),
        weight_(weight),
        groups_(model.NumGroups()),
        // A few rows (serving one request) are walked faster than the trees are copied:
        // flattening writes every node once per call, a row reads only its depth's worth.
        flatten_(rows >= kMinRowsToFlatten) {
    // Flat copies of the trees whose split features all lie inside the rows (every tree
    // grown on this data); others (a loaded model splitting beyond num_col) take the checked
    // walk.
    const int num_trees = tree_end - tree_begin;
    flat_.resize(flatten_ ? num_trees : 0);
    use_flat_.assign(num_trees, 0);
    if (!flatten_) return;
    ParallelFor(num_trees, ThreadsFor(std::size_t(num_trees) * 256, nthread), [&](int i) {
      const RegTree& tree = model.trees[tree_begin + i];
      flat_[i] = Flatten(tree, weight_(tree_begin + i));
      // Categorical splits take the checked walk: the flat record has room for a threshold.
      use_flat_[i] = tree.NumNodes() > 0 && flat_[i].max_feature < width && flat_[i].Balanced() &&
                     tree.categories.empty();
    });
  }

  int Groups() const { return groups_; }

  // Adds the trees to `count` lane groups of up to `max_lanes` consecutive rows each; `out` is
  // the first row's margins. Each tree is walked by the whole block before the next one, so
  // its nodes are read from L1 by 64 rows instead of being fetched again from L2 for every 8
  // (the model is larger than L2's share). Each row still adds its trees in model order.
  void WalkBlock(const Lanes* lanes, int count, int max_lanes, float* out) const {
    for (int g = 0; !flatten_ && g < count; ++g) {
      float* group_out = out + std::int64_t(g) * max_lanes * groups_;
      for (int k = 0; k < lanes[g].count; ++k) {
        AddTreesToRow(model_, tree_begin_, tree_end_, weight_, lanes[g].values[k], width_,
                      group_out + k * groups_);
      }
    }
    for (int t = tree_begin_; flatten_ && t < tree_end_; ++t) {
      for (int g = 0; g < count; ++g) {
        float* group_out = out + std::int64_t(g) * max_lanes * groups_;
        if (use_flat_[t - tree_begin_]) {
          AddFlatTreeLanes(flat_[t - tree_begin_], lanes[g], group_out, groups_,
                           model_.tree_info[t]);
        } else {
          AddTreeLanes(model_.trees[t], weight_(t), lanes[g], group_out, groups_,
                       model_.tree_info[t]);
        }
      }
    }
  }

 private:
  const GBTreeModel& model_;
  int tree_begin_, tree_end_;
  std::size_t width_;
  TreeWeights weight_;
  int groups_;
  bool flatten_;
  std::vector<FlatTree> flat_;
  std::vector<std::uint8_t> use_flat_;  // 0: the checked walk
};

// Lane k of `group` reads the `width` floats at rows[k] in place; the group is complete when
// none is NaN (checked here: 28 compares a row against 800 steps of a 100-tree depth-8 model),
// and then takes the one-compare step.
void SetDenseLanes(const float* const* rows, int count, std::size_t width, Lanes* group) {
  group->limit = width;
  group->count = count;
  group->complete = true;
  for (int k = 0; k < count; ++k) {
    group->values[k] = rows[k];
    for (std::size_t f = 0; f < width; ++f) group->complete &= !std::isnan(rows[k][f]);
  }
}

const std::vector<float>* WeightsOf(const GBTreeModel& model,
                                    const std::vector<float>* tree_weights) {
  return tree_weights == nullptr && model.dart ? &model.weight_drop : tree_weights;
}

}  // namespace

void AddTreeOutputs(const GBTreeModel& model, const data::DMatrix& dm, int tree_begin, int tree_end,
                    int nthread, std::vector<float>* margins,
                    const std::vector<float>* tree_weights) {
  if (tree_begin >= tree_end) return;
  // Indices strictly increase within a row, so rows of num_col entries hold features
  // 0..num_col-1 in order: dense data (higgs) is read in place; other rows are scattered into
  // a NaN-filled vector per lane. A feature at or beyond `width` is missing either way.
  const bool dense = dm.NumNonZero() == dm.NumRows() * dm.num_col;
  const std::size_t width = dm.num_col;
  // Very wide sparse data walks one row at a time: eight scatter vectors of millions of
  // features per thread would cost more memory than the interleaving saves.
  const int max_lanes = dense || width <= kMaxLaneFeatures ? kLanes : 1;
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const TreeWalk walk(model, tree_begin, tree_end, dm.NumRows(), width, nthread,
                      TreeWeights{WeightsOf(model, tree_weights)});
  const int groups = walk.Groups();
  // Sparse rows need a scatter vector per row of the block, so wide sparse data keeps one
  // lane group per block.
  const int block_groups =
      dense || std::size_t(max_lanes) * kBlockLanes * width <= kMaxBlockFeatures ? kBlockLanes : 1;
  const std::int64_t block_rows = std::int64_t(max_lanes) * block_groups;
  ParallelForBlocks(
      static_cast<std::int64_t>(dm.NumRows()),
      ThreadsFor(dm.NumRows() * std::size_t(tree_end - tree_begin), nthread),
      [&](int, std::int64_t begin, std::int64_t end) {
        std::vector<float> features(dense ? 0 : block_rows * width, nan);
        Lanes lanes[kBlockLanes];
        const float* rows[kLanes];
        for (std::int64_t block = begin; block < end; block += block_rows) {
          const std::int64_t block_end = std::min(end, block + block_rows);
          int count = 0;  // lane groups in this block
          for (std::int64_t first = block; first < block_end; first += max_lanes, ++count) {
            const int n = static_cast<int>(std::min<std::int64_t>(max_lanes, block_end - first));
            for (int k = 0; k < n; ++k) {
              const std::int64_t row = first + k;
              if (dense) {
                rows[k] = dm.value.data() + dm.row_ptr[row];
                continue;
              }
              float* row_features = features.data() + (row - block) * width;
              for (std::uint64_t j = dm.row_ptr[row]; j < dm.row_ptr[row + 1]; ++j) {
                row_features[dm.index[j]] = dm.value[j];
              }
              rows[k] = row_features;
            }
            if (dense) {
              SetDenseLanes(rows, n, width, &lanes[count]);
            } else {  // a scattered row has NaN for its absent features: never complete
              lanes[count].limit = width;
              lanes[count].count = n;
              lanes[count].complete = false;
              std::copy(rows, rows + n, lanes[count].values);
            }
          }
          walk.WalkBlock(lanes, count, max_lanes, margins->data() + block * groups);
          if (dense) continue;
          for (std::int64_t row = block; row < block_end; ++row) {
            for (std::uint64_t j = dm.row_ptr[row]; j < dm.row_ptr[row + 1]; ++j) {
              features[(row - block) * width + dm.index[j]] = nan;
            }
          }
        }
      });
}

void AddTreeOutputs(const GBTreeModel& model, const DenseRows& dense, int tree_begin, int tree_end,
                    int nthread, std::vector<float>* margins) {
  if (tree_begin >= tree_end || dense.rows == 0) return;
  const std::size_t width = dense.cols;
  const TreeWalk walk(model, tree_begin, tree_end, dense.rows, width, nthread,
                      TreeWeights{WeightsOf(model, nullptr)});
  const int groups = walk.Groups();
  // Rows read in place need no buffer; converted rows go through a tile of block_rows x width
  // floats per thread, kept within kMaxBlockFeatures for very wide rows.
  const bool in_place = dense.direct != nullptr;
  const std::size_t tile_rows =
      in_place ? kLanes * kBlockLanes
               : std::clamp<std::size_t>(kMaxBlockFeatures / std::max<std::size_t>(width, 1), 1,
                                         kLanes * kBlockLanes);
  const int max_lanes = static_cast<int>(std::min<std::size_t>(kLanes, tile_rows));
  const int block_groups = static_cast<int>(tile_rows / max_lanes);
  const std::int64_t block_rows = std::int64_t(max_lanes) * block_groups;
  ParallelForBlocks(
      static_cast<std::int64_t>(dense.rows),
      ThreadsFor(dense.rows * std::size_t(tree_end - tree_begin), nthread),
      [&](int, std::int64_t begin, std::int64_t end) {
        std::vector<float> tile(in_place ? 0 : block_rows * width);
        Lanes lanes[kBlockLanes];
        const float* rows[kLanes];
        for (std::int64_t block = begin; block < end; block += block_rows) {
          const std::int64_t block_end = std::min(end, block + block_rows);
          const float* base = in_place ? dense.direct + block * width : tile.data();
          if (!in_place) dense.fill(block, block_end - block, tile.data());
          int count = 0;
          for (std::int64_t first = block; first < block_end; first += max_lanes, ++count) {
            const int n = static_cast<int>(std::min<std::int64_t>(max_lanes, block_end - first));
            for (int k = 0; k < n; ++k) rows[k] = base + (first + k - block) * width;
            SetDenseLanes(rows, n, width, &lanes[count]);
          }
          walk.WalkBlock(lanes, count, max_lanes, margins->data() + block * groups);
        }
      });
}

}  // namespace treering::booster
