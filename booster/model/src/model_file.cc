// Format choice for model files: by extension when saving (as XGBoost's save_model), by
// content when loading (as XGBoost's Learner::LoadModel(Stream*)), so a file named without
// the "right" extension still loads.
#include <cctype>
#include <cstdint>
#include <string>

#include "booster/atomic_file.h"
#include "booster/model_formats.h"
#include "booster/model_io.h"
#include "model_document.h"

namespace treering::booster {

// XGBoost's common::FileExtension: the whole path lower-cased, after its last '.' ("M.JSON" is
// JSON; "dir.json/model" has the extension "json/model", so it is binary).
ModelFormat ModelFormatForPath(const std::string& path) {
  const std::size_t dot = path.rfind('.');
  if (dot == std::string::npos) return ModelFormat::kLegacyBinary;
  std::string ext = path.substr(dot + 1);
  for (char& c : ext) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (ext == "json") return ModelFormat::kJson;
  if (ext == "ubj") return ModelFormat::kUbjson;
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

namespace {

Result<GBTreeModel> ParseDetected(std::string_view bytes, const std::string& source) {
  switch (DetectModelFormat(bytes, source)) {
    case ModelFormat::kJson:
      return ModelFromJson(bytes, source);
    case ModelFormat::kUbjson:
      return ModelFromUbjson(bytes, source);
    default:
      return ModelFromLegacyBinary(bytes, source);
  }
}

// Messages quote names taken from the file; a control byte in one must not break the
// one-line rule or reach the terminal raw.
std::string OneLine(const std::string& message) {
  std::string out;
  for (const char c : message) {
    const auto u = static_cast<unsigned char>(c);
    if (u < 0x20 || u == 0x7F) {
      const char* digits = "0123456789abcdef";
      out += {'\\', 'x', digits[u >> 4], digits[u & 15]};
    } else {
      out.push_back(c);
    }
  }
  return out;
}

}  // namespace

bool IsValidUtf8(std::string_view s) {
  for (std::size_t i = 0; i < s.size();) {
    const auto c = static_cast<unsigned char>(s[i]);
    std::size_t n = 0;
    std::uint32_t cp = 0;
    if (c < 0x80) {
      ++i;
      continue;
    } else if ((c & 0xE0) == 0xC0) {
      n = 1, cp = c & 0x1F;
    } else if ((c & 0xF0) == 0xE0) {
      n = 2, cp = c & 0x0F;
    } else if ((c & 0xF8) == 0xF0) {
      n = 3, cp = c & 0x07;
    } else {
      return false;
    }
    if (s.size() - i <= n) return false;
    for (std::size_t k = 1; k <= n; ++k) {
      const auto cc = static_cast<unsigned char>(s[i + k]);
      if ((cc & 0xC0) != 0x80) return false;
      cp = cp << 6 | (cc & 0x3F);
    }
    // Overlong forms, surrogates and values past U+10FFFF are refused, as JSON parsers do.
    static constexpr std::uint32_t kMin[] = {0, 0x80, 0x800, 0x10000};
    if (cp < kMin[n] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return false;
    i += n + 1;
  }
  return true;
}

Result<GBTreeModel> ParseModel(std::string_view bytes, const std::string& source) {
  auto model = ParseDetected(bytes, source);
  if (model.ok()) return model;
  return Status(model.status().code(), OneLine(model.status().message()));
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
