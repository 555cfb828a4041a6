#include "booster/feature_map.h"

#include <algorithm>
#include <charconv>
#include <utility>

#include "booster/atomic_file.h"

namespace treering::booster {
namespace {

// The same type names XGBoost's FeatureMap::GetType accepts.
bool TypeFromName(std::string_view name, FeatureMap::Type* type) {
  using T = FeatureMap::Type;
  static constexpr std::pair<std::string_view, T> kNames[] = {{"i", T::kIndicator},
                                                              {"q", T::kQuantitative},
                                                              {"int", T::kInteger},
                                                              {"float", T::kFloat},
                                                              {"c", T::kCategorical}};
  for (const auto& [known, value] : kNames) {
    if (name == known) {
      *type = value;
      return true;
    }
  }
  return false;
}

std::vector<std::string_view> Words(std::string_view line) {
  constexpr std::string_view kSpaces = " \t\r\v\f";
  std::vector<std::string_view> words;
  std::size_t pos = 0;
  while ((pos = line.find_first_not_of(kSpaces, pos)) != std::string_view::npos) {
    const std::size_t end = std::min(line.find_first_of(kSpaces, pos), line.size());
    words.push_back(line.substr(pos, end - pos));
    pos = end;
  }
  return words;
}

}  // namespace

Result<FeatureMap> FeatureMap::Parse(std::string_view text, const std::string& source) {
  FeatureMap fmap;
  int line_no = 0;
  while (!text.empty()) {
    ++line_no;
    const std::size_t eol = text.find('\n');
    const std::string_view line = text.substr(0, eol);
    text = eol == std::string_view::npos ? std::string_view{} : text.substr(eol + 1);
    const std::vector<std::string_view> words = Words(line);
    if (words.empty()) continue;  // XGBoost skips blank lines too (it reads words)
    const std::string where = source + ":" + std::to_string(line_no) + ": ";
    if (words.size() != 3) {
      return Status::InvalidInput(where + "expected `index name type`, got '" + std::string(line) +
                                  "'");
    }
    std::size_t index = 0;
    const auto [end, ec] =
        std::from_chars(words[0].data(), words[0].data() + words[0].size(), index);
    if (ec != std::errc() || end != words[0].data() + words[0].size() ||
        index != fmap.names_.size()) {
      return Status::InvalidInput(where + "feature index '" + std::string(words[0]) +
                                  "': expected " + std::to_string(fmap.names_.size()) +
                                  " (indices count 0, 1, 2, ... one per line)");
    }
    Type type;
    if (!TypeFromName(words[2], &type)) {
      return Status::InvalidInput(where + "feature '" + std::string(words[1]) + "': type '" +
                                  std::string(words[2]) + "' is not one of i, q, int, float, c");
    }
    fmap.names_.emplace_back(words[1]);
    fmap.types_.push_back(type);
  }
  return fmap;
}

Result<FeatureMap> FeatureMap::Read(const std::string& path) {
  auto text = ReadWholeFile(path);
  if (!text.ok()) return text.status().WithContext("fmap");
  return Parse(text.value(), path);
}

}  // namespace treering::booster
