#include "base/nearest_key.h"

#include <algorithm>
#include <numeric>

namespace treering {

int EditDistance(const std::string& a, const std::string& b) {
  // One row of the dynamic-programming table at a time.
  std::vector<int> row(b.size() + 1);
  std::iota(row.begin(), row.end(), 0);
  for (std::size_t i = 1; i <= a.size(); ++i) {
    int diagonal = row[0];
    row[0] = static_cast<int>(i);
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const int substitute = diagonal + (a[i - 1] == b[j - 1] ? 0 : 1);
      diagonal = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, substitute});
    }
  }
  return row[b.size()];
}

int MaxSuggestionDistance(const std::string& key) {
  return static_cast<int>(std::max<std::size_t>(key.size(), 3) / 3);
}

std::string NearestKey(const std::string& key, const std::vector<std::string>& candidates) {
  std::string best;
  int best_distance = MaxSuggestionDistance(key) + 1;
  for (const std::string& candidate : candidates) {
    const int d = EditDistance(key, candidate);
    if (d < best_distance) {
      best = candidate;
      best_distance = d;
    }
  }
  return best;
}

std::string DidYouMean(const std::string& key, const std::vector<std::string>& candidates) {
  const std::string nearest = NearestKey(key, candidates);
  return nearest.empty() ? "" : " (did you mean '" + nearest + "'?)";
}

}  // namespace treering
