#include "booster/tree/grow/row_partition.h"

#include <numeric>

namespace treering::booster {

void RowPartition::Reset(std::size_t num_rows) {
  rows_.resize(num_rows);
  std::iota(rows_.begin(), rows_.end(), 0u);
  scratch_.resize(num_rows);
  ranges_.assign(1, Range{0, num_rows});
  left_out_begin_ = num_rows;
}

void RowPartition::SetRange(int node, std::size_t begin, std::size_t end) {
  if (ranges_.size() <= static_cast<std::size_t>(node)) ranges_.resize(node + 1);
  ranges_[node] = {begin, end};
}

}  // namespace treering::booster
