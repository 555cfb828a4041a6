// How the C API names a model's features in dumps and feature scores, by XGBoost 1.7's rule
// (c_api_utils.h, GenerateFeatureMap): a feature map file if one is given, else names passed
// with the call, else the booster's feature_name / feature_type, else f0, f1, ... of type q.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "booster/feature_map.h"

namespace treering::capi {

// f<index>, XGBoost's name of a feature without one.
std::string DefaultFeatureName(std::uint64_t index);

// `fmap_path` empty: no file. `names` / `types` empty: none given (the booster's are passed
// as fallbacks). A list whose length is not `num_feature` is an ApiError naming `names_arg`.
booster::FeatureMap NameFeatures(const std::string& fmap_path, std::uint64_t num_feature,
                                 const std::vector<std::string>& names,
                                 const std::vector<std::string>& types, const char* names_arg);

}  // namespace treering::capi
