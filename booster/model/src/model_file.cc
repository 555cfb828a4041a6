// Format choice for model files: by extension when saving (as XGBoost's save_model), by
// content when loading (as XGBoost's Learner::LoadModel(Stream*)), so a file named without
// the "right" extension still loads.
#include <cctype>
#include <filesystem>

#include "booster/atomic_file.h"
#include "booster/model_formats.h"
#include "booster/model_io.h"

namespace treering::booster {

ModelFormat ModelFormatForPath(const std::string& path) {
  const std::string ext = std::filesystem::path(path).extension().string();
  if (ext == ".json") return ModelFormat::kJson;
  if (ext == ".ubj") return ModelFormat::kUbjson;
  return ModelFormat::kLegacyBinary;
}

ModelFormat DetectModelFormat(std::string_view bytes, const std::string& path) {
  if (bytes.substr(0, 4) == "binf") return ModelFormat::kLegacyBinary;
  if (!bytes.empty() && bytes[0] == '{') {
    // XGBoost's rule: the first non-space byte after '{' is '"' in JSON and a length marker
    // (a letter) in UBJSON.
    for (std::size_t i = 1; i < bytes.size(); ++i) {
      const auto c = static_cast<unsigned char>(bytes[i]);
      if (std::isspace(c)) continue;
      if (c == '"' || c == '}') return ModelFormat::kJson;
      if (std::isalpha(c)) return ModelFormat::kUbjson;
      break;
    }
  }
  return ModelFormatForPath(path);
}

const char* ModelFormatName(ModelFormat format) {
  switch (format) {
    case ModelFormat::kJson:
      return "JSON";
    case ModelFormat::kUbjson:
      return "UBJSON";
    default:
      return "legacy binary";
  }
}

Result<std::string> SerializeModelAs(const GBTreeModel& model, ModelFormat format) {
  switch (format) {
    case ModelFormat::kJson:
      return ModelToJson(model);
    case ModelFormat::kUbjson:
      return ModelToUbjson(model);
    default:
      return ModelToLegacyBinary(model);
  }
}

Result<GBTreeModel> ParseModel(std::string_view bytes, const std::string& source) {
  switch (DetectModelFormat(bytes, source)) {
    case ModelFormat::kJson:
      return ModelFromJson(bytes, source);
    case ModelFormat::kUbjson:
      return ModelFromUbjson(bytes, source);
    default:
      return ModelFromLegacyBinary(bytes, source);
  }
}

Status SaveModelByExtension(const GBTreeModel& model, const std::string& path) {
  auto bytes = SerializeModelAs(model, ModelFormatForPath(path));
  if (!bytes.ok()) return bytes.status().WithContext("cannot save model " + path);
  return WriteFileAtomic(path, bytes.value());
}

Result<GBTreeModel> LoadModelAnyFormat(const std::string& path) {
  auto bytes = ReadWholeFile(path);
  if (!bytes.ok()) return bytes.status().WithContext("cannot load model");
  return ParseModel(bytes.value(), path);
}

}  // namespace treering::booster
