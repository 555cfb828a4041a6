// What a booster says about its model besides predictions: attributes (XGBoosterGet/SetAttr,
// GetAttrNames), feature names and types (XGBoosterSet/GetStrFeatureInfo) and feature
// importance (XGBoosterFeatureScore). Attributes and feature info live on the BoosterObject,
// which hands them to the learner (Learner::SetModelInfo) whenever the model is saved or the
// learner rebuilt, so saved models carry them; loading a model takes the model's.
#include <cstring>
#include <mutex>
#include <set>
#include <shared_mutex>
#include <string>
#include <vector>

#include "api_error.h"
#include "booster_object.h"
#include "feature_naming.h"
#include "json_reader.h"
#include "predict_run.h"
#include "treering/c_api.h"

namespace treering::capi {
namespace {

std::vector<std::string>* FeatureField(BoosterObject& booster, const char* field) {
  NotNull(field, "field");
  if (std::strcmp(field, "feature_name") == 0) return &booster.feature_names;
  if (std::strcmp(field, "feature_type") == 0) return &booster.feature_types;
  throw ApiError(std::string("field: '") + field + "', allowed: feature_name, feature_type");
}

// XGBoost 1.7's feature types: q, c, int, float, i (indicator).
void CheckFeatureType(const std::string& type, std::size_t i) {
  static const std::set<std::string> kTypes = {"q", "c", "int", "float", "i"};
  if (kTypes.count(type) == 0) {
    throw ApiError("features: type '" + type + "' of feature " + std::to_string(i) +
                   ", allowed: q, c, int, float, i");
  }
}

// A member of the FeatureScore configuration that is absent or null reads as empty.
std::vector<std::string> StringArray(const JsonValue& config, const char* key) {
  std::vector<std::string> out;
  const JsonValue* member = config.Find(key);
  if (member == nullptr || member->IsNull()) return out;
  if (member->kind() != JsonValue::Kind::kArray) {
    throw ApiError(std::string("config: ") + key + ": not an array");
  }
  for (const JsonValue& item : member->Array()) {
    if (item.kind() != JsonValue::Kind::kString) {
      throw ApiError(std::string("config: ") + key + ": not an array of strings");
    }
    out.push_back(item.String());
  }
  return out;
}

}  // namespace
}  // namespace treering::capi

using namespace treering::capi;  // NOLINT: every name below is the C API's

XGB_DLL int XGBoosterGetAttr(BoosterHandle handle, const char* key, const char** out,
                             int* success) {
  return ApiCall("XGBoosterGetAttr", [&] {
    NotNull(key, "key");
    NotNull(out, "out");
    NotNull(success, "success");
    std::shared_ptr<BoosterObject> booster = GetHandle<BoosterObject>(handle, "handle");
    std::shared_lock lock(booster->mutex);
    const auto it = booster->attributes.find(key);
    if (it == booster->attributes.end()) {
      *out = nullptr;
      *success = 0;
      return;
    }
    ReturnSlot& slot = booster->returns.ForThisThread();
    slot.text = it->second;
    *out = slot.text.c_str();
    *success = 1;
  });
}

XGB_DLL int XGBoosterSetAttr(BoosterHandle handle, const char* key, const char* value) {
  return ApiCall("XGBoosterSetAttr", [&] {
    NotNull(key, "key");
    std::shared_ptr<BoosterObject> booster = GetHandle<BoosterObject>(handle, "handle");
    std::unique_lock lock(booster->mutex);
    if (value == nullptr) {
      booster->attributes.erase(key);
    } else {
      booster->attributes[key] = value;
    }
  });
}

XGB_DLL int XGBoosterGetAttrNames(BoosterHandle handle, bst_ulong* out_len, const char*** out) {
  return ApiCall("XGBoosterGetAttrNames", [&] {
    NotNull(out_len, "out_len");
    NotNull(out, "out");
    std::shared_ptr<BoosterObject> booster = GetHandle<BoosterObject>(handle, "handle");
    std::shared_lock lock(booster->mutex);
    ReturnSlot& slot = booster->returns.ForThisThread();
    slot.strings.clear();
    for (const auto& [key, value] : booster->attributes) slot.strings.push_back(key);
    *out = slot.PointStrings();
    *out_len = slot.strings.size();
  });
}

XGB_DLL int XGBoosterSetStrFeatureInfo(BoosterHandle handle, const char* field,
                                       const char** features, const bst_ulong size) {
  return ApiCall("XGBoosterSetStrFeatureInfo", [&] {
    std::shared_ptr<BoosterObject> booster = GetHandle<BoosterObject>(handle, "handle");
    std::vector<std::string> values;
    if (size > 0) NotNull(features, "features");
    for (bst_ulong i = 0; i < size; ++i) values.emplace_back(NotNull(features[i], "features[i]"));
    const bool types = field != nullptr && std::strcmp(field, "feature_type") == 0;
    if (types) {
      for (std::size_t i = 0; i < values.size(); ++i) CheckFeatureType(values[i], i);
    }
    std::unique_lock lock(booster->mutex);
    *FeatureField(*booster, field) = std::move(values);
  });
}

XGB_DLL int XGBoosterGetStrFeatureInfo(BoosterHandle handle, const char* field, bst_ulong* len,
                                       const char*** out_features) {
  return ApiCall("XGBoosterGetStrFeatureInfo", [&] {
    NotNull(len, "len");
    NotNull(out_features, "out_features");
    std::shared_ptr<BoosterObject> booster = GetHandle<BoosterObject>(handle, "handle");
    std::shared_lock lock(booster->mutex);
    ReturnSlot& slot = booster->returns.ForThisThread();
    slot.strings = *FeatureField(*booster, field);
    *out_features = slot.PointStrings();
    *len = slot.strings.size();
  });
}

XGB_DLL int XGBoosterFeatureScore(BoosterHandle handle, const char* config,
                                  bst_ulong* out_n_features, char const*** out_features,
                                  bst_ulong* out_dim, bst_ulong const** out_shape,
                                  float const** out_scores) {
  return ApiCall("XGBoosterFeatureScore", [&] {
    NotNull(out_n_features, "out_n_features");
    NotNull(out_features, "out_features");
    NotNull(out_dim, "out_dim");
    NotNull(out_shape, "out_shape");
    NotNull(out_scores, "out_scores");
    const JsonValue root = ValueOrThrow(ParseJson(NotNull(config, "config"), "config"));
    std::string type, fmap_path;
    const JsonValue* type_member = root.Find("importance_type");
    if (type_member == nullptr) throw ApiError("config: 'importance_type' is required");
    ThrowIfError(ReadString(root, "importance_type", "config", &type));
    const JsonValue* fmap = root.Find("feature_map");
    if (fmap != nullptr && !fmap->IsNull()) {
      ThrowIfError(ReadString(root, "feature_map", "config", &fmap_path));
    }
    const JsonValue* trees = root.Find("tree_idx");
    if (trees != nullptr && !trees->IsNull() && !trees->Array().empty()) {
      throw ApiError("config: tree_idx: scores of chosen trees are not supported");
    }
    std::vector<std::string> names = StringArray(root, "feature_names");

    std::shared_ptr<BoosterObject> booster = GetHandle<BoosterObject>(handle, "handle");
    BoosterObject::ReadView view = booster->ForPrediction();
    const ModelFacts facts = FactsOf(*view.learner);
    const std::vector<treering::booster::FeatureScore> scores =
        ValueOrThrow(view.learner->FeatureImportance(type));
    std::vector<std::string> types = booster->feature_types;
    if (names.empty()) names = booster->feature_names;
    if (types.empty() && facts.trees != nullptr) types = facts.trees->feature_types;
    const treering::booster::FeatureMap map =
        NameFeatures(fmap_path, facts.num_feature, names, types, "config: feature_names");

    ReturnSlot& slot = booster->returns.ForThisThread();
    slot.strings.clear();
    slot.floats.clear();
    // gblinear with several output groups scores each feature once per group (consecutive):
    // XGBoost names the feature once and shapes the scores features x groups.
    for (std::size_t i = 0; i < scores.size(); ++i) {
      const auto& score = scores[i];
      if (i == 0 || scores[i - 1].feature != score.feature) {
        slot.strings.push_back(score.feature < map.Size() ? map.Name(score.feature)
                                                          : DefaultFeatureName(score.feature));
      }
      slot.floats.push_back(score.score);
    }
    const bool grouped = !slot.strings.empty() && slot.floats.size() > slot.strings.size();
    slot.shape.assign(1, slot.strings.size());
    if (grouped) slot.shape.push_back(slot.floats.size() / slot.strings.size());
    *out_features = slot.PointStrings();
    *out_n_features = slot.strings.size();
    *out_scores = slot.floats.data();
    *out_dim = grouped ? 2 : 1;
    *out_shape = reinterpret_cast<const bst_ulong*>(slot.shape.data());
  });
}
