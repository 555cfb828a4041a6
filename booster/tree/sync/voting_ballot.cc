#include "booster/tree/sync/voting_ballot.h"

#include <algorithm>
#include <cmath>

namespace treering::booster {
namespace {

// A loss_chg for ordering: no split at all (0 from an empty candidate, or -inf) sorts last.
float OrderGain(float g) { return std::isfinite(g) ? g : -std::numeric_limits<float>::max(); }

}  // namespace

std::vector<Ballot> ProposeFeatures(std::uint32_t node,
                                    const std::vector<SplitCandidate>& candidates,
                                    std::size_t top_k) {
  std::vector<Ballot> all;
  all.reserve(candidates.size());
  for (const SplitCandidate& c : candidates)
    all.push_back({node, c.feature, OrderGain(c.loss_chg)});
  const std::size_t keep = std::min(top_k, all.size());
  std::partial_sort(all.begin(), all.begin() + keep, all.end(),
                    [](const Ballot& a, const Ballot& b) {
                      return a.gain != b.gain ? a.gain > b.gain : a.feature < b.feature;
                    });
  all.resize(keep);
  return all;
}

std::vector<std::uint32_t> ElectFeatures(const std::vector<Ballot>& ballots,
                                         const std::vector<std::uint32_t>& allowed,
                                         std::size_t seats) {
  struct Tally {
    std::uint32_t feature;
    std::uint32_t votes = 0;
    double gain = 0.0;
  };
  std::vector<Tally> tally(allowed.size());
  for (std::size_t i = 0; i < allowed.size(); ++i) tally[i].feature = allowed[i];
  for (const Ballot& b : ballots) {
    const auto at = std::lower_bound(allowed.begin(), allowed.end(), b.feature);
    if (at == allowed.end() || *at != b.feature) continue;
    Tally& t = tally[static_cast<std::size_t>(at - allowed.begin())];
    ++t.votes;
    if (std::isfinite(b.gain)) t.gain += b.gain;
  }
  tally.erase(
      std::remove_if(tally.begin(), tally.end(), [](const Tally& t) { return t.votes == 0; }),
      tally.end());
  const std::size_t keep = std::min(seats, tally.size());
  std::partial_sort(tally.begin(), tally.begin() + keep, tally.end(),
                    [](const Tally& a, const Tally& b) {
                      if (a.votes != b.votes) return a.votes > b.votes;
                      if (a.gain != b.gain) return a.gain > b.gain;
                      return a.feature < b.feature;
                    });
  std::vector<std::uint32_t> elected;
  for (std::size_t i = 0; i < keep; ++i) elected.push_back(tally[i].feature);
  std::sort(elected.begin(), elected.end());
  return elected;
}

}  // namespace treering::booster
