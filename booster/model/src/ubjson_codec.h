// UBJSON as XGBoost 1.7 writes and reads it (src/common/json.cc, UBJWriter/UBJReader):
// big-endian numbers; strings and object keys as 'L' + int64 length + bytes; objects
// '{' key value ... '}'; arrays always counted ('[' '#' 'L' n, no closing ']'); float32 and
// integer vectors as typed arrays ('[' '$' type '#' 'L' n, then n raw values).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "base/status.h"

namespace treering::booster::ubjson {

// Encoding: each appends one value (or an object key) to *out.
void AppendKey(std::string* out, std::string_view key);
void AppendString(std::string* out, std::string_view s);
// The smallest of 'i' int8, 'I' int16, 'l' int32, 'L' int64 that XGBoost picks (its bounds
// are exclusive, so 127 is written as int16).
void AppendInteger(std::string* out, std::int64_t v);
// 'd' + big-endian float32: one number (XGBoost's JsonNumber).
void AppendFloat(std::string* out, float v);
// '[' '#' 'L' n: the caller appends the n values.
void AppendArrayHeader(std::string* out, std::size_t n);
// Typed arrays: float32 'd', uint8 'U', int32 'l', int64 'L'.
void AppendTypedArray(std::string* out, const std::vector<float>& values);
void AppendTypedArray(std::string* out, const std::vector<std::uint8_t>& values);
void AppendTypedArray(std::string* out, const std::vector<std::int32_t>& values);
void AppendTypedArray(std::string* out, const std::vector<std::int64_t>& values);

// Decodes one UBJSON value (the whole input) into a JSON document: float32 become floats,
// integers integers, typed arrays arrays. Also takes what the UBJSON spec allows beyond
// XGBoost's writer (uncounted arrays, any integer type for lengths, float64, char, null,
// booleans). Errors are kInvalidInput "<source>: not valid UBJSON: at byte N: ..."; nesting
// is bounded, and no count is trusted beyond the bytes that remain.
Result<nlohmann::json> Decode(std::string_view bytes, const std::string& source);

// The values of "Config" and "Model" of a UBJSON object that is exactly those two members
// (XGBoost 1.7's pickle), as views into `bytes`, found by skipping values without decoding
// them; false when `bytes` is anything else.
bool SplitSnapshot(std::string_view bytes, std::string_view* config, std::string_view* model);

}  // namespace treering::booster::ubjson
