// JsonCursor: read access to one node of a parsed JSON document that knows its JSON-pointer
// path, so every type or range error can name the file and the exact field
// ("m.json: /learner/learner_model_param/num_class: expected an integer in a string, got \"x\"").
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "base/status.h"

namespace treering::booster {

class JsonCursor {
 public:
  JsonCursor(const nlohmann::json* node, std::string path, const std::string* source)
      : node_(node), path_(std::move(path)), source_(source) {}

  const nlohmann::json& node() const { return *node_; }
  const std::string& path() const { return path_; }
  // "<source>: <path>: <what>" as kInvalidInput.
  Status Error(const std::string& what) const;

  bool Has(std::string_view key) const;
  Result<JsonCursor> Member(std::string_view key) const;  // required member of an object
  Result<JsonCursor> Object() const;                      // this, checked to be an object
  Result<std::vector<JsonCursor>> Elements() const;       // this, checked to be an array

  Result<std::string> String() const;
  // XGBoost stores parameters as strings: "784", "5E-1".
  Result<std::int64_t> IntInString(std::int64_t lo, std::int64_t hi) const;
  Result<float> FloatInString() const;

  Result<std::int64_t> Integer(std::int64_t lo, std::int64_t hi) const;
  // Arrays of JSON numbers. Integer arrays refuse floats (XGBoost does the same); float
  // arrays also take integers (XGBoost would not; being lenient costs nothing here).
  Result<std::vector<std::int64_t>> IntArray(std::int64_t lo, std::int64_t hi) const;
  Result<std::vector<float>> FloatArray() const;

 private:
  JsonCursor At(std::size_t index) const;
  const nlohmann::json* node_;
  std::string path_;
  const std::string* source_;
};

// The value's JSON type in words, for messages ("a string", "a float", ...).
std::string JsonTypeName(const nlohmann::json& value);

}  // namespace treering::booster
