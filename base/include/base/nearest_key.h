// "Did you mean ...?" for misspelled configuration keys.
//
// A suggestion is made only when it is plausible: the candidate is at most
// max(len(key), 3) / 3 edits away (rustc's rule for "a field with a similar name exists"):
// one edit for keys up to 5 characters, two up to 8, three up to 11, ... So `max_dept` gets
// `max_depth` and `etta` gets `eta`, while `frobnicate` gets no suggestion at all rather
// than whatever key happens to be least unlike it.
#pragma once

#include <string>
#include <vector>

namespace treering {

// Levenshtein distance (insert, delete, substitute: cost 1 each).
int EditDistance(const std::string& a, const std::string& b);

// The most edits a suggestion for `key` may be away from it: max(len(key), 3) / 3.
int MaxSuggestionDistance(const std::string& key);

// The candidate closest to `key` (ties: the first in `candidates`) if it is within
// MaxSuggestionDistance(key); empty otherwise or when there are no candidates.
std::string NearestKey(const std::string& key, const std::vector<std::string>& candidates);

// " (did you mean 'NEAREST'?)" or "" when there is no plausible suggestion.
std::string DidYouMean(const std::string& key, const std::vector<std::string>& candidates);

}  // namespace treering
