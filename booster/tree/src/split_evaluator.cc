#include "booster/split_evaluator.h"

#include <algorithm>
#include <atomic>
#include <memory>
#include <cmath>
#include <stdexcept>

#include "data/parallel_for.h"
#include "booster/work_split.h"
#include "rabit/rabit.h"
#include "split_scan.h"

namespace treering::booster {

bool SplitCandidate::NeedReplace(float new_loss_chg, std::uint32_t new_feature) const {
  if (std::isinf(new_loss_chg)) return false;
  if (feature <= new_feature) return new_loss_chg > loss_chg;
  return !(loss_chg > new_loss_chg);
}

// The forward scan alone, for a feature no row of the node misses: bins <= i go left.
void SplitEvaluator::ScanForward(const Histogram& hist, GradientPairInt node_sum,
                                 float root_gain, std::uint32_t f, SplitCandidate* best) const {
  const int first = static_cast<int>(cuts_.ptrs[f]);
  const int last = static_cast<int>(cuts_.ptrs[f + 1]) - 1;
  GradientPairInt scanned;  // bins first..i
  const float min_child = param_.min_child_weight;
  for (int i = first; i <= last; ++i) {
    // An empty bin repeats the previous candidate, which can never win over itself.
    if (hist[i].hess == 0 && hist[i].grad == 0) continue;
    scanned += hist[i];
    const GradientPairInt rest = node_sum - scanned;
    if (H(scanned) < min_child || H(rest) < min_child) continue;
    const float loss_chg = GainSum(scanned, rest) - root_gain;
    if (!best->NeedReplace(loss_chg, f)) continue;
    best->loss_chg = loss_chg;
    best->feature = f;
    best->left_sum = scanned;
    best->right_sum = rest;
    best->split_bin = i - first;
    best->split_value = cuts_.values[i];
    best->default_left = false;
  }
}

// Both scans in one forward pass, for a feature some of the node's rows miss. At a
// non-empty bin i the backward scan's candidate (bins < i and the missing rows left) comes
// first, then the forward scan's (bins <= i left, missing rows right). The histogram slice
// is read and the empty-bin branch taken once instead of twice, and both candidates' four
// divisions overlap. XGBoost's order of preference is kept: the forward scan's first best
// (strictly greater replaces), then the backward scan's first best in ITS order, i.e. the
// last of equal ones here (greater or equal replaces), taken only if strictly better.
void SplitEvaluator::ScanBoth(const Histogram& hist, GradientPairInt node_sum,
                              GradientPairInt present, float root_gain, std::uint32_t f,
                              SplitCandidate* best) const {
  const int first = static_cast<int>(cuts_.ptrs[f]);
  const int last = static_cast<int>(cuts_.ptrs[f + 1]) - 1;
  const GradientPairInt missing = node_sum - present;
  const float min_child = param_.min_child_weight;
  SplitCandidate& fwd = *best;
  SplitCandidate bwd;  // loss_chg 0: a backward candidate must be > 0, as in its own scan
  int bwd_bin = -1;
  GradientPairInt scanned;  // present rows in bins < i
  for (int i = first; i <= last; ++i) {
    if (hist[i].hess == 0 && hist[i].grad == 0) continue;  // repeats the previous candidate
    GradientPairInt left = scanned;
    left += missing;
    const GradientPairInt right = present - scanned;
    if (H(left) >= min_child && H(right) >= min_child) {
      const float loss_chg = GainSum(right, left) - root_gain;
      if (loss_chg > 0.0f && loss_chg >= bwd.loss_chg && !std::isinf(loss_chg)) {
        bwd.loss_chg = loss_chg;
        bwd.left_sum = left;
        bwd.right_sum = right;
        bwd_bin = i;
      }
    }
    scanned += hist[i];
    const GradientPairInt rest = node_sum - scanned;
    if (H(scanned) < min_child || H(rest) < min_child) continue;
    const float loss_chg = GainSum(scanned, rest) - root_gain;
    if (!fwd.NeedReplace(loss_chg, f)) continue;
    fwd.loss_chg = loss_chg;
    fwd.feature = f;
    fwd.left_sum = scanned;
    fwd.right_sum = rest;
    fwd.split_bin = i - first;
    fwd.split_value = cuts_.values[i];
    fwd.default_left = false;
  }
  if (bwd_bin < 0 || !fwd.NeedReplace(bwd.loss_chg, f)) return;
  bwd.feature = f;
  bwd.default_left = true;
  bwd.split_bin = bwd_bin - first - 1;
  bwd.split_value = bwd_bin == first ? cuts_.min_vals[f] : cuts_.values[bwd_bin - 1];
  fwd = bwd;
}

bool SplitEvaluator::VectorScanActive() const {
  return vector_scan_ && param_.max_delta_step == 0.0f && HaveVectorSplitScan();
}

// The vector scan's picks made into the candidate the scalar scans would have kept: the
// forward pick, replaced by the backward one only if strictly better (NeedReplace).
SplitCandidate SplitEvaluator::EvaluateFeatureVector(const Histogram& hist,
                                                     GradientPairInt node_sum, float root_gain,
                                                     std::uint32_t f, float floor) const {
  const std::uint32_t first = cuts_.ptrs[f];
  const int n = static_cast<int>(cuts_.ptrs[f + 1] - first);
  const ScanConstants k{quantiser_.GradUnit(),        quantiser_.HessUnit(),
                        param_.reg_alpha,             param_.reg_lambda,
                        param_.min_child_weight,      root_gain};
  const ScanPicks picks = VectorSplitScan(hist.data() + first, n, node_sum, k, floor);
  SplitCandidate best;
  auto sum_below = [&](int bin) {  // bins [0, bin) of the feature
    GradientPairInt s;
    for (int b = 0; b < bin; ++b) s += hist[first + b];
    return s;
  };
  if (picks.forward_bin >= 0) {
    best.loss_chg = picks.forward_loss;
    best.feature = f;
    best.left_sum = sum_below(picks.forward_bin + 1);
    best.right_sum = node_sum - best.left_sum;
    best.split_bin = picks.forward_bin;
    best.split_value = cuts_.values[first + picks.forward_bin];
    best.default_left = false;
  }
  if (picks.backward_bin >= 0 && best.NeedReplace(picks.backward_loss, f)) {
    const GradientPairInt below = sum_below(picks.backward_bin);
    best.loss_chg = picks.backward_loss;
    best.feature = f;
    best.left_sum = below;
    best.left_sum += node_sum - picks.present;
    best.right_sum = picks.present - below;
    best.split_bin = picks.backward_bin - 1;
    best.split_value =
        picks.backward_bin == 0 ? cuts_.min_vals[f] : cuts_.values[first + picks.backward_bin - 1];
    best.default_left = true;
  }
  return best;
}

SplitCandidate SplitEvaluator::EvaluateFeature(const Histogram& hist, GradientPairInt node_sum,
                                               float root_gain, std::uint32_t f,
                                               float floor) const {
  if (VectorScanActive()) {
    return EvaluateFeatureVector(hist, node_sum, root_gain, f, floor);
  }
  SplitCandidate best;
  GradientPairInt present;
  for (std::uint32_t b = cuts_.ptrs[f]; b < cuts_.ptrs[f + 1]; ++b) present += hist[b];
  // Only when the node has rows missing this feature can sending them left differ.
  if (present == node_sum) {
    ScanForward(hist, node_sum, root_gain, f, &best);
  } else {
    ScanBoth(hist, node_sum, present, root_gain, f, &best);
  }
  return best;
}

SplitCandidate SplitEvaluator::EvaluateNode(const Histogram& hist, GradientPairInt node_sum,
                                            const std::vector<std::uint32_t>& features,
                                            int nthread) const {
  return EvaluateNodes({{&hist, node_sum, features}}, nthread).front();
}

// Distributed, every rank holds the same histograms, so the (node, feature) tasks are dealt
// round-robin over the ranks and each node's best is combined from every rank's share with one
// small Allgather: split evaluation is not repeated on every rank (it was ~11 % of a 2-worker
// round). NeedReplace is an order-independent preference (higher gain, then the lower
// feature), so the combined best equals the single-process one bit for bit.
std::vector<SplitCandidate> SplitEvaluator::EvaluateNodes(const std::vector<NodeInput>& nodes,
                                                          int nthread) const {
  struct Task {
    std::size_t node;
    std::uint32_t feature;
    bool scan;  // false: only derive the feature's slice (a feature not sampled)
  };
  const int world = std::max(1, rabit::GetWorldSize());
  const int rank = world > 1 ? rabit::GetRank() : 0;
  std::vector<Task> tasks;
  std::vector<float> root_gain(nodes.size());
  std::vector<std::uint8_t> sampled;
  std::size_t bins = 0, position = 0;
  for (std::size_t n = 0; n < nodes.size(); ++n) {
    root_gain[n] = Gain(nodes[n].sum);
    for (std::uint32_t f : nodes[n].features) {
      if (position++ % world != static_cast<std::size_t>(rank)) continue;
      tasks.push_back({n, f, true});
      bins += cuts_.FeatureBins(f);
    }
    if (nodes[n].derive == nullptr) continue;
    if (world > 1) throw std::logic_error("EvaluateNodes: derivation asked for when distributed");
    sampled.assign(cuts_.NumFeatures(), 0);
    for (std::uint32_t f : nodes[n].features) sampled[f] = 1;
    for (std::uint32_t f = 0; f < cuts_.NumFeatures(); ++f) {
      if (sampled[f]) continue;
      tasks.push_back({n, f, false});
      bins += cuts_.FeatureBins(f);
    }
  }
  std::vector<SplitCandidate> per_task(tasks.size());
  // Each node's best loss_chg found so far by any task: the vector scan skips bins that
  // cannot reach it. Which tasks have run when another starts depends on the threads, but the
  // winner does not (a candidate reaching or tying the floor is never skipped).
  std::unique_ptr<std::atomic<float>[]> floors(new std::atomic<float>[nodes.size()]);
  for (std::size_t n = 0; n < nodes.size(); ++n) floors[n].store(0.0f, std::memory_order_relaxed);
  ParallelFor(tasks.size(), ThreadsFor(bins * 4, nthread), [&](std::size_t k) {
    const Task& t = tasks[k];
    const NodeInput& in = nodes[t.node];
    if (in.derive != nullptr) {
      const Histogram &parent = *in.parent, &built = *in.built;
      Histogram& out = *in.derive;
      for (std::uint32_t b = cuts_.ptrs[t.feature]; b < cuts_.ptrs[t.feature + 1]; ++b) {
        out[b] = parent[b] - built[b];
      }
    }
    if (!t.scan) return;
    std::atomic<float>& floor = floors[t.node];
    float known = floor.load(std::memory_order_relaxed);
    per_task[k] = EvaluateFeature(*in.hist, in.sum, root_gain[t.node], t.feature, known);
    const float found = per_task[k].loss_chg;
    while (found > known && !floor.compare_exchange_weak(known, found, std::memory_order_relaxed)) {
    }
  });
  std::vector<SplitCandidate> best(nodes.size());
  for (std::size_t k = 0; k < tasks.size(); ++k) {
    if (tasks[k].scan) best[tasks[k].node].Update(per_task[k]);
  }
  if (world == 1) return best;
  const std::vector<SplitCandidate> all = rabit::AllgatherV(best);  // rank-major
  std::vector<SplitCandidate> combined(nodes.size());
  for (std::size_t i = 0; i < all.size(); ++i) combined[i % nodes.size()].Update(all[i]);
  return combined;
}

}  // namespace treering::booster
