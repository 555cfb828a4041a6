#include "feature_naming.h"

#include "api_error.h"

namespace treering::capi {

std::string DefaultFeatureName(std::uint64_t index) {
  std::string name = "f";
  name += std::to_string(index);
  return name;
}

booster::FeatureMap NameFeatures(const std::string& fmap_path, std::uint64_t num_feature,
                                 const std::vector<std::string>& names,
                                 const std::vector<std::string>& types, const char* names_arg) {
  if (!fmap_path.empty()) return ValueOrThrow(booster::FeatureMap::Read(fmap_path));
  auto check = [&](const std::vector<std::string>& list, const char* what) {
    if (!list.empty() && list.size() != num_feature) {
      throw ApiError(std::string(names_arg) + ": " + std::to_string(list.size()) + " feature " +
                     what + " for the model's " + std::to_string(num_feature) + " features");
    }
  };
  check(names, "names");
  check(types, "types");
  // The map's own text form: one "index name type" line per feature. Names with white space
  // cannot be written so and are refused by the parser (named in its message).
  std::string text;
  for (std::uint64_t i = 0; i < num_feature; ++i) {
    text += std::to_string(i);
    text += ' ';
    text += names.empty() ? DefaultFeatureName(i) : names[i];
    text += ' ';
    text += types.empty() ? std::string("q") : types[i];
    text += '\n';
  }
  return ValueOrThrow(booster::FeatureMap::Parse(text, names_arg));
}

}  // namespace treering::capi
