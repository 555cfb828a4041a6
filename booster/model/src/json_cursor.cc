#include "json_cursor.h"

#include <charconv>
#include <cmath>
#include <cstdlib>
#include <limits>

namespace treering::booster {

std::string JsonTypeName(const nlohmann::json& value) {
  switch (value.type()) {
    case nlohmann::json::value_t::null:
      return "null";
    case nlohmann::json::value_t::object:
      return "an object";
    case nlohmann::json::value_t::array:
      return "an array";
    case nlohmann::json::value_t::string:
      return "a string";
    case nlohmann::json::value_t::boolean:
      return "a boolean";
    case nlohmann::json::value_t::number_integer:
    case nlohmann::json::value_t::number_unsigned:
      return "an integer";
    case nlohmann::json::value_t::number_float:
      return "a float";
    default:
      return "an unsupported value";
  }
}

Status JsonCursor::Error(const std::string& what) const {
  return Status::InvalidInput(*source_ + ": " + (path_.empty() ? "/" : path_) + ": " + what);
}

JsonCursor JsonCursor::At(std::size_t index) const {
  return JsonCursor(&(*node_)[index], path_ + "/" + std::to_string(index), source_);
}

bool JsonCursor::Has(std::string_view key) const {
  return node_->is_object() && node_->find(key) != node_->end();
}

Result<JsonCursor> JsonCursor::Object() const {
  if (!node_->is_object()) return Error("expected an object, got " + JsonTypeName(*node_));
  return *this;
}

Result<JsonCursor> JsonCursor::Member(std::string_view key) const {
  if (!node_->is_object()) return Error("expected an object, got " + JsonTypeName(*node_));
  const auto it = node_->find(key);
  if (it == node_->end()) return Error("missing required field \"" + std::string(key) + "\"");
  return JsonCursor(&*it, path_ + "/" + std::string(key), source_);
}

Result<std::vector<JsonCursor>> JsonCursor::Elements() const {
  if (!node_->is_array()) return Error("expected an array, got " + JsonTypeName(*node_));
  std::vector<JsonCursor> out;
  out.reserve(node_->size());
  for (std::size_t i = 0; i < node_->size(); ++i) out.push_back(At(i));
  return out;
}

Result<std::string> JsonCursor::String() const {
  if (!node_->is_string()) return Error("expected a string, got " + JsonTypeName(*node_));
  return node_->get<std::string>();
}

Result<std::int64_t> JsonCursor::IntInString(std::int64_t lo, std::int64_t hi) const {
  auto text = String();
  if (!text.ok()) return text.status();
  const std::string& s = text.value();
  std::int64_t v = 0;
  const auto res = std::from_chars(s.data(), s.data() + s.size(), v);
  if (res.ec != std::errc() || res.ptr != s.data() + s.size()) {
    return Error("expected an integer in a string, got \"" + s + "\"");
  }
  if (v < lo || v > hi) {
    return Error(s + " is out of range [" + std::to_string(lo) + ", " + std::to_string(hi) + "]");
  }
  return v;
}

Result<float> JsonCursor::FloatInString() const {
  auto text = String();
  if (!text.ok()) return text.status();
  const std::string& s = text.value();
  char* end = nullptr;
  const float v = std::strtof(s.c_str(), &end);
  if (s.empty() || end != s.c_str() + s.size() || !std::isfinite(v)) {
    return Error("expected a finite number in a string, got \"" + s + "\"");
  }
  return v;
}

Result<std::int64_t> JsonCursor::Integer(std::int64_t lo, std::int64_t hi) const {
  std::int64_t v = 0;
  if (node_->is_number_unsigned()) {
    const auto u = node_->get<std::uint64_t>();
    if (u > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max())) {
      return Error(std::to_string(u) + " is out of range");
    }
    v = static_cast<std::int64_t>(u);
  } else if (node_->is_number_integer()) {
    v = node_->get<std::int64_t>();
  } else {
    return Error("expected an integer, got " + JsonTypeName(*node_));
  }
  if (v < lo || v > hi) {
    return Error(std::to_string(v) + " is out of range [" + std::to_string(lo) + ", " +
                 std::to_string(hi) + "]");
  }
  return v;
}

Result<std::vector<std::int64_t>> JsonCursor::IntArray(std::int64_t lo, std::int64_t hi) const {
  if (!node_->is_array()) return Error("expected an array, got " + JsonTypeName(*node_));
  std::vector<std::int64_t> out(node_->size());
  for (std::size_t i = 0; i < out.size(); ++i) {
    auto v = At(i).Integer(lo, hi);
    if (!v.ok()) return v.status();
    out[i] = v.value();
  }
  return out;
}

Result<std::vector<float>> JsonCursor::FloatArray() const {
  if (!node_->is_array()) return Error("expected an array, got " + JsonTypeName(*node_));
  std::vector<float> out(node_->size());
  for (std::size_t i = 0; i < out.size(); ++i) {
    const nlohmann::json& v = (*node_)[i];
    if (!v.is_number()) return At(i).Error("expected a number, got " + JsonTypeName(v));
    // UBJSON and binary files can hold NaN or infinity, which no writer can save back.
    if (!std::isfinite(v.get<double>())) return At(i).Error("expected a finite number");
    // XGBoost wrote the shortest digits of a float32, so double -> float recovers it exactly.
    out[i] = static_cast<float>(v.get<double>());
  }
  return out;
}

}  // namespace treering::booster
