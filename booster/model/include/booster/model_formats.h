// The three model file formats of XGBoost 1.7 and how a path picks one (docs/model-format.md):
//   *.json  JSON (model_io.h),
//   *.ubj   UBJSON, the same document in binary JSON,
//   other   XGBoost's legacy binary format ("binf" + C structs), as XGBoost's save_model and
//           its CLI's NNNN.model snapshots write it.
// Loading looks at the bytes first, as XGBoost's own loader does ("binf" is binary, '{"' is
// JSON, '{' + a letter is UBJSON) and falls back to the extension. Every load error is one
// kInvalidInput line naming the file.
#pragma once

#include <string>
#include <string_view>

#include "base/status.h"
#include "booster/tree_model.h"

namespace treering::booster {

enum class ModelFormat { kJson, kUbjson, kLegacyBinary };

// By extension, as XGBoost's save_model (XGBoosterSaveModel): ".json", ".ubj" (any case),
// anything else legacy binary.
ModelFormat ModelFormatForPath(const std::string& path);
// What `bytes` hold, by their first bytes; `path`'s extension decides when they do not say.
ModelFormat DetectModelFormat(std::string_view bytes, const std::string& path);
const char* ModelFormatName(ModelFormat format);

// UBJSON: the bytes python3-xgboost 1.7.4 writes for Booster.save_model("m.ubj").
Result<std::string> ModelToUbjson(const GBTreeModel& model);
Result<GBTreeModel> ModelFromUbjson(std::string_view bytes, const std::string& source);
// XGBoost 1.7's pickling snapshot (XGBoosterSerializeToBuffer): the UBJSON document
// {"Config": ..., "Model": ...} split, the config as JSON text in *config_json and the model's
// UBJSON bytes (a view into `bytes`) in *model_ubj. The model is not decoded here. An error
// when `bytes` is no such snapshot or its config is not valid UBJSON.
Status SplitUbjsonSnapshot(std::string_view bytes, const std::string& source,
                           std::string* config_json, std::string_view* model_ubj);

// Legacy binary: the bytes XGBoost 1.7.4 writes for Booster.save_model("m.model"). Fields
// the tree model does not keep are written as XGBoost writes them for a freshly loaded model
// (leaf_child_cnt 0, max_depth 0, reserved 0).
Result<std::string> ModelToLegacyBinary(const GBTreeModel& model);
Result<GBTreeModel> ModelFromLegacyBinary(std::string_view bytes, const std::string& source);

Result<std::string> SerializeModelAs(const GBTreeModel& model, ModelFormat format);
// Any of the three formats (DetectModelFormat); `source` names the origin in errors.
Result<GBTreeModel> ParseModel(std::string_view bytes, const std::string& source);

// Atomic save in the format `path`'s extension selects; errors name the path.
Status SaveModelByExtension(const GBTreeModel& model, const std::string& path);
// A missing or unreadable file, or bad content, is kInvalidInput naming the path.
Result<GBTreeModel> LoadModelAnyFormat(const std::string& path);

}  // namespace treering::booster
