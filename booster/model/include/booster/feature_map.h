// FeatureMap: XGBoost's feature map file (`fmap=FILE`), which names and types features for dumps
// and feature importance. One feature per line, `index name type`, indices 0, 1, 2, ... in order;
// types `i` (indicator: a 0/1 feature, dumped as just its name), `q` (quantitative), `int`
// (integer: thresholds dumped rounded up), `float`, and `c` (categorical: the features the trees
// split on by category; a dump refuses a `c` feature split numerically, and a categorical split
// on a feature the map calls numerical, as XGBoost does).
//
// XGBoost reads the file as a stream of whitespace-separated words and stops silently at the
// first word it cannot read; this reader takes the same files but rejects anything else with
// "featmap.txt:3: ..." so a typo cannot quietly leave features unnamed.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "base/status.h"

namespace treering::booster {

class FeatureMap {
 public:
  enum class Type { kIndicator, kQuantitative, kInteger, kFloat, kCategorical };

  // The whole text of a feature map; `source` names it in errors ("featmap.txt:3: ...").
  static Result<FeatureMap> Parse(std::string_view text, const std::string& source);
  // Reads the file at `path`; a missing file is kInvalidInput naming the path.
  static Result<FeatureMap> Read(const std::string& path);

  // Features with a name; splits on higher indices print as f<index> / <index>.
  std::size_t Size() const { return names_.size(); }
  bool Empty() const { return names_.empty(); }
  const std::string& Name(std::size_t index) const { return names_[index]; }
  Type TypeOf(std::size_t index) const { return types_[index]; }

 private:
  std::vector<std::string> names_;
  std::vector<Type> types_;
};

}  // namespace treering::booster
