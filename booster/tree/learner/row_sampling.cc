// Which rows and pairs a tree is grown from: the row sample (XGBoost's subsample) and, for a
// sampled forest, the unsampled pairs its trees' roots are taken from (forest_root.cc).
#include <cstdlib>
#include <random>
#include <string_view>

#include "base/parallel_for.h"
#include "booster/tree/learner/gbtree_learner.h"
#include "booster/work_split.h"

namespace treering::booster {

// Rows left out of this tree get zero gradients (XGBoost's hist sampling). Whether a row is
// kept is a hash of the round's key and the row's global number (row_offset_ + local row), so
// the sample does not depend on how the rows are sharded over ranks (issue 34). The key
// depends on seed, iteration, group and the tree's place k in a forest only (k = 0 leaves it
// out, as before).
//
// One pass copies the group's pairs (src[row * stride]) into *out, zeroes the rows left out
// and takes the maxima the quantiser needs (what MaximaOf of *out gives: the zeros change no
// maximum), where a copy, a sampling pass and a maxima pass each streamed the 8 MB of pairs
// (a forest repeats them for every tree). src may be out->data() (stride 1).
GradientMaxima GBTreeLearner::SampleGradients(int iter, int group, int k, const GradientPair* src,
                                              std::size_t stride,
                                              std::vector<GradientPair>* out) const {
  const bool sample = tparam_.subsample < 1.0f;
  std::uint64_t key = 0;
  if (sample) {
    std::vector<std::uint64_t> seeds{seed_, static_cast<std::uint64_t>(iter),
                                     static_cast<std::uint64_t>(group)};
    if (k > 0) seeds.push_back(static_cast<std::uint64_t>(k));
    std::seed_seq seq(seeds.begin(), seeds.end());
    key = std::mt19937_64(seq)();
  }
  const double keep = tparam_.subsample;
  out->resize(train_->NumRows());
  GradientPair* dst = out->data();
  const int threads = ResolveThreads(ctx_.ThreadsFor(out->size(), kBoosterGrain));
  std::vector<GradientMaxima> partial(threads);
  ParallelForBlocks(static_cast<std::int64_t>(out->size()), threads,
                    [&](int t, std::int64_t begin, std::int64_t end) {
                      GradientMaxima m;
                      for (std::int64_t r = begin; r < end; ++r) {
                        GradientPair g = src[std::size_t(r) * stride];
                        if (sample) {
                          // SplitMix64's finaliser of (key, global row): a uniform in [0, 1).
                          std::uint64_t z =
                              key + (row_offset_ + std::uint64_t(r) + 1) * 0x9e3779b97f4a7c15ull;
                          z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
                          z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
                          z ^= z >> 31;
                          // A select, not a branch: a 20 % sample is unpredictable row by row.
                          g = static_cast<double>(z >> 11) * 0x1p-53 >= keep ? GradientPair{} : g;
                        }
                        dst[r] = g;
                        m.Include(g);
                      }
                      partial[t] = m;
                    });
  GradientMaxima maxima;
  for (const GradientMaxima& m : partial) maxima.Include(m);
  return maxima;
}

// A sampled forest: its trees' roots come from one whole-sample histogram (forest_root.cc),
// for which the grower reads the group's unsampled pairs: all_gpair for one group; with
// several, which interleave theirs, a copy made once per forest (every tree's sample then
// reads it instead of striding over all groups' pairs). Not with dart, which changes a tree's
// copy, nor exact, which builds no histograms.
const std::vector<GradientPair>* GBTreeLearner::ForestGradients(
    int group, const std::vector<GradientPair>& all_gpair) {
  if (model_.num_parallel_tree <= 1 || tparam_.subsample >= 1.0f || dart_ || updater_->Exact() ||
      !ForestRootFromTotal()) {
    return nullptr;
  }
  const int groups = objective_->NumGroups();
  if (groups == 1) return &all_gpair;
  forest_gpair_.resize(train_->NumRows());
  ParallelFor(forest_gpair_.size(), ctx_.ThreadsFor(forest_gpair_.size(), kBoosterGrain),
              [&](std::size_t row) { forest_gpair_[row] = all_gpair[row * groups + group]; });
  return &forest_gpair_;
}

bool GBTreeLearner::ForestRootFromTotal() {
  const char* env = std::getenv("TREERING_FOREST_ROOT");
  return env == nullptr || std::string_view(env) != "0";
}

}  // namespace treering::booster
