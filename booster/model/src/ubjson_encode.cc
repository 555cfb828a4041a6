// UBJSON encoding as XGBoost 1.7's UBJWriter (ubjson_codec.h).
#include <cstring>
#include <limits>

#include "ubjson_codec.h"

namespace treering::booster::ubjson {
namespace {

template <typename T>
void AppendBigEndian(std::string* out, T v) {
  unsigned char bytes[sizeof(T)];
  std::memcpy(bytes, &v, sizeof(T));
  for (std::size_t i = sizeof(T); i-- > 0;) out->push_back(static_cast<char>(bytes[i]));
}

template <typename T>
void AppendTyped(std::string* out, char type, const std::vector<T>& values) {
  out->append({'[', '$', type, '#', 'L'});
  AppendBigEndian<std::int64_t>(out, static_cast<std::int64_t>(values.size()));
  out->reserve(out->size() + values.size() * sizeof(T));
  for (const T v : values) AppendBigEndian(out, v);
}

}  // namespace

void AppendKey(std::string* out, std::string_view key) {
  out->push_back('L');
  AppendBigEndian<std::int64_t>(out, static_cast<std::int64_t>(key.size()));
  out->append(key);
}

void AppendString(std::string* out, std::string_view s) {
  out->push_back('S');
  AppendKey(out, s);
}

void AppendInteger(std::string* out, std::int64_t v) {
  if (v > std::numeric_limits<std::int8_t>::min() && v < std::numeric_limits<std::int8_t>::max()) {
    out->push_back('i');
    AppendBigEndian(out, static_cast<std::int8_t>(v));
  } else if (v > std::numeric_limits<std::int16_t>::min() &&
             v < std::numeric_limits<std::int16_t>::max()) {
    out->push_back('I');
    AppendBigEndian(out, static_cast<std::int16_t>(v));
  } else if (v > std::numeric_limits<std::int32_t>::min() &&
             v < std::numeric_limits<std::int32_t>::max()) {
    out->push_back('l');
    AppendBigEndian(out, static_cast<std::int32_t>(v));
  } else {
    out->push_back('L');
    AppendBigEndian(out, v);
  }
}

void AppendFloat(std::string* out, float v) {
  out->push_back('d');
  AppendBigEndian(out, v);
}

void AppendArrayHeader(std::string* out, std::size_t n) {
  out->append({'[', '#', 'L'});
  AppendBigEndian<std::int64_t>(out, static_cast<std::int64_t>(n));
}

void AppendTypedArray(std::string* out, const std::vector<float>& values) {
  AppendTyped(out, 'd', values);
}
void AppendTypedArray(std::string* out, const std::vector<std::uint8_t>& values) {
  AppendTyped(out, 'U', values);
}
void AppendTypedArray(std::string* out, const std::vector<std::int32_t>& values) {
  AppendTyped(out, 'l', values);
}
void AppendTypedArray(std::string* out, const std::vector<std::int64_t>& values) {
  AppendTyped(out, 'L', values);
}

}  // namespace treering::booster::ubjson
