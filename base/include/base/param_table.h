// ParamTable: one typed parameter struct per component, described by a table of fields (key,
// alias, default, meaning/range, setter). The table is the single source for parsing, for
// Learner::Params() (--help, "did you mean") and for docs/learner.md.
#pragma once

#include <limits>
#include <string>
#include <vector>

#include "base/status.h"

namespace treering {

template <typename P>
struct ParamField {
  const char* key;
  const char* alias;          // "" when the key has no alias
  const char* default_value;  // as the user would write it
  const char* doc;            // meaning and allowed range
  Status (*set)(P* params, const std::string& value);
};

inline constexpr double kInf = std::numeric_limits<double>::infinity();

// Parsers used by the setters. They reject trailing garbage ("3x"), NaN and values outside
// [lo, hi] (or (lo, hi] when lo_open), and name the key and the range in the error.
Status ParseDoubleIn(const char* key, const std::string& value, double lo, double hi,
                     bool lo_open, double* out);
Status ParseFloatIn(const char* key, const std::string& value, double lo, double hi,
                    bool lo_open, float* out);
Status ParseIntIn(const char* key, const std::string& value, long long lo, long long hi,
                  int* out);
Status ParseChoice(const char* key, const std::string& value,
                   const std::vector<std::string>& allowed, std::string* out);

// Looks `key` up (by key or alias) and applies the value. Returns false when the key is not
// in this table, so the caller can try the next component's table.
template <typename P>
bool FindField(const std::vector<ParamField<P>>& table, const std::string& key,
               const ParamField<P>** out) {
  for (const auto& field : table) {
    if (key == field.key || (field.alias[0] != '\0' && key == field.alias)) {
      *out = &field;
      return true;
    }
  }
  return false;
}

}  // namespace treering
