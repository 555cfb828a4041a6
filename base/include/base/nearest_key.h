// "Did you mean ...?" for misspelled configuration keys.
#pragma once

#include <string>
#include <vector>

namespace treering {

// Levenshtein distance (insert, delete, substitute: cost 1 each).
int EditDistance(const std::string& a, const std::string& b);

// The candidate closest to `key` (ties: the first in `candidates`); empty if there are none.
std::string NearestKey(const std::string& key, const std::vector<std::string>& candidates);

}  // namespace treering
