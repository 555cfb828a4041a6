// ExpandQueue: XGBoost 1.7's tree/driver.h. Depthwise pops every entry of the shallowest
// depth (smaller node id first); lossguide pops the entry with the largest loss change
// (smaller node id on ties) and stops growing when that entry may not be split.
#pragma once

#include <queue>
#include <vector>

#include "booster/tree/grow/tree_grower.h"

namespace treering::booster {

class ExpandQueue {
 public:
  explicit ExpandQueue(const TreeParam& param)
      : param_(param), queue_(Compare{param.grow_policy == GrowPolicy::kLossGuide}) {}

  void Push(const ExpandEntry& e) { queue_.push(e); }

  std::vector<ExpandEntry> Pop() {
    if (queue_.empty()) return {};
    if (param_.grow_policy == GrowPolicy::kLossGuide) {
      const ExpandEntry e = queue_.top();
      queue_.pop();
      if (!e.IsValid(param_, num_leaves_)) return {};
      ++num_leaves_;
      return {e};
    }
    std::vector<ExpandEntry> batch;
    const int level = queue_.top().depth;
    while (!queue_.empty() && queue_.top().depth == level) {
      const ExpandEntry e = queue_.top();
      queue_.pop();
      if (e.IsValid(param_, num_leaves_)) {
        ++num_leaves_;
        batch.push_back(e);
      }
    }
    return batch;
  }

 private:
  struct Compare {
    bool loss_guide;
    bool operator()(const ExpandEntry& a, const ExpandEntry& b) const {
      if (loss_guide && a.split.loss_chg != b.split.loss_chg) {
        return a.split.loss_chg < b.split.loss_chg;
      }
      return a.node > b.node;
    }
  };
  const TreeParam& param_;
  std::priority_queue<ExpandEntry, std::vector<ExpandEntry>, Compare> queue_;
  int num_leaves_ = 1;
};

}  // namespace treering::booster
