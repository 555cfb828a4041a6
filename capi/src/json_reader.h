// A small JSON reader for the C API's configuration strings and array interfaces. It accepts
// what XGBoost's own reader accepts beyond strict JSON: NaN, Infinity and -Infinity as numbers
// (XGBoost's Python package sends {"missing": NaN}). Integers keep all 64 bits (array
// interfaces carry data pointers). Errors give the byte offset.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "base/status.h"

namespace treering::capi {

class JsonValue {
 public:
  enum class Kind { kNull, kBool, kInteger, kNumber, kString, kArray, kObject };

  Kind kind() const { return kind_; }
  bool IsNull() const { return kind_ == Kind::kNull; }
  bool IsNumber() const { return kind_ == Kind::kInteger || kind_ == Kind::kNumber; }
  bool IsInteger() const { return kind_ == Kind::kInteger; }
  bool Bool() const { return bool_; }
  double Number() const {
    if (kind_ != Kind::kInteger) return number_;
    return unsigned_ ? double(std::uint64_t(integer_)) : double(integer_);
  }
  std::int64_t Integer() const { return integer_; }     // kInteger only (value of a uint64 cast)
  bool IntegerIsUnsigned() const { return unsigned_; }  // > INT64_MAX: read as uint64
  const std::string& String() const { return string_; }
  const std::vector<JsonValue>& Array() const { return array_; }
  const std::vector<std::pair<std::string, JsonValue>>& Object() const { return object_; }
  // The member named `key` of an object, or null (also for non-objects).
  const JsonValue* Find(std::string_view key) const;

  static JsonValue MakeNull() { return JsonValue(); }
  static JsonValue MakeBool(bool b);
  static JsonValue MakeInteger(std::int64_t v, bool is_unsigned);
  static JsonValue MakeNumber(double v);
  static JsonValue MakeString(std::string s);
  static JsonValue MakeArray(std::vector<JsonValue> items);
  static JsonValue MakeObject(std::vector<std::pair<std::string, JsonValue>> members);

 private:
  Kind kind_ = Kind::kNull;
  bool bool_ = false;
  bool unsigned_ = false;
  std::int64_t integer_ = 0;
  double number_ = 0;
  std::string string_;
  std::vector<JsonValue> array_;
  std::vector<std::pair<std::string, JsonValue>> object_;
};

// Parses one JSON value (trailing whitespace allowed). `what` names the argument in errors:
// "config: expected ',' or '}' at byte 17".
Result<JsonValue> ParseJson(std::string_view text, const char* what);

// Typed members of a configuration object; ApiError-free: each returns a Status naming
// "<what>: <key>" when the member has the wrong type or range. Absent members keep *out.
Status ReadBool(const JsonValue& object, std::string_view key, const char* what, bool* out);
Status ReadInt(const JsonValue& object, std::string_view key, const char* what, std::int64_t* out);
Status ReadFloat(const JsonValue& object, std::string_view key, const char* what, float* out);
Status ReadString(const JsonValue& object, std::string_view key, const char* what,
                  std::string* out);

}  // namespace treering::capi
