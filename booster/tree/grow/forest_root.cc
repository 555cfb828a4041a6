// The root histogram of a forest's tree from the forest's whole-sample histogram.
//
// A forest's trees (num_parallel_tree > 1) share the round's gradients and differ in their
// row samples only: tree k's root histogram is the sum of its sampled rows' quantised pairs.
// The sums are integers, so that is exactly the histogram of every row minus the histogram of
// the rows tree k left out. The whole-sample histogram is kept from the first tree (its kept
// rows' root plus its left-out rows'), and every later tree builds only its left-out rows
// (subsample=0.8: a fifth of the rows instead of four fifths) and subtracts. The quantiser
// comes from each tree's sampled maxima; a tree whose scales differ from the kept total's
// (its sample left out the largest gradient, and the power of two moved) builds its own root
// and keeps its total instead. Bit-identical histograms, so bit-identical trees.
#include "booster/tree/grow/tree_grower.h"

namespace treering::booster {

void TreeGrower::SetForestGradients(const std::vector<GradientPair>* unsampled) {
  forest_gpair_ = unsampled;
  forest_total_.valid = false;  // new gradients: the total of the last ones is stale
}

bool TreeGrower::RootFromForestTotal() const {
  // Dense rows only: a sparse root is built column by column from every row (BuildRoot).
  return forest_gpair_ != nullptr && kept_only_ &&
         matrix_.layout() != BinnedMatrix::Layout::kSparse &&
         forest_gpair_->size() == matrix_.NumRows();
}

GradientPairInt TreeGrower::BuildForestRoot(const std::vector<GradientPair>& gpair,
                                            const GradientQuantiser& quantiser, Histogram* root) {
  // The left-out rows' pairs as they were before sampling zeroed them.
  const GradientPairInt left_out_sum =
      builder_.Build(*forest_gpair_, quantiser, {partition_.LeftOut()}, {&left_out_hist_});
  ForestTotal& total = forest_total_;
  if (total.valid && total.grad_unit == quantiser.GradUnit() &&
      total.hess_unit == quantiser.HessUnit()) {
    builder_.Subtract({&total.hist}, {&left_out_hist_}, {root});
    return total.sum - left_out_sum;
  }
  const GradientPairInt kept_sum = builder_.BuildRoot(gpair, quantiser, partition_.Rows(0), root);
  total.hist.resize(root->size());
  for (std::size_t b = 0; b < root->size(); ++b) {
    total.hist[b] = (*root)[b];
    total.hist[b] += left_out_hist_[b];
  }
  total.sum = kept_sum;
  total.sum += left_out_sum;
  total.grad_unit = quantiser.GradUnit();
  total.hess_unit = quantiser.HessUnit();
  total.valid = true;
  return kept_sum;
}

}  // namespace treering::booster
