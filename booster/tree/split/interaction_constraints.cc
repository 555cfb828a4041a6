#include "booster/tree/split/interaction_constraints.h"

#include <algorithm>

namespace treering::booster {

InteractionConstraints::InteractionConstraints(
    const std::vector<std::vector<std::uint32_t>>& groups)
    : groups_(groups) {
  for (auto& g : groups_) {
    std::sort(g.begin(), g.end());
    g.erase(std::unique(g.begin(), g.end()), g.end());
  }
}

std::vector<std::uint32_t> InteractionConstraints::Allowed(
    const std::vector<std::uint32_t>& path, const std::vector<std::uint32_t>& sampled) const {
  if (!Enabled() || path.empty()) return sampled;
  std::vector<std::uint32_t> allowed = path;
  for (const auto& g : groups_) {
    if (!std::includes(g.begin(), g.end(), path.begin(), path.end())) continue;
    allowed.insert(allowed.end(), g.begin(), g.end());
  }
  std::sort(allowed.begin(), allowed.end());
  allowed.erase(std::unique(allowed.begin(), allowed.end()), allowed.end());
  std::vector<std::uint32_t> out;
  std::set_intersection(sampled.begin(), sampled.end(), allowed.begin(), allowed.end(),
                        std::back_inserter(out));
  return out;
}

}  // namespace treering::booster
