// UBJSON decoding into a JSON document (ubjson_codec.h): bounded nesting, and no count trusted
// beyond the bytes left.
#include <algorithm>
#include <cstring>
#include <iterator>
#include <type_traits>

#include "model_document.h"
#include "ubjson_codec.h"

namespace treering::booster::ubjson {
namespace {

// Documents are a few levels deep; a deeper input is hostile, not a model.
constexpr int kMaxDepth = 64;

class Decoder {
 public:
  Decoder(std::string_view bytes, const std::string& source) : in_(bytes), source_(source) {}

  Result<nlohmann::json> DecodeAll() {
    nlohmann::json value;
    Status st = Value(0, &value);
    if (st.ok() && pos_ != in_.size()) {
      st = Error(std::to_string(in_.size() - pos_) + " bytes after the end of the document");
    }
    if (!st.ok()) return st;
    return value;
  }

 private:
  Status Error(const std::string& what) const {
    return Status::InvalidInput(source_ + ": not valid UBJSON: at byte " + std::to_string(pos_) +
                                ": " + what);
  }
  Status Truncated(const char* reading) const {
    return Error(std::string("the file ends while reading ") + reading);
  }

  template <typename T>
  Status Read(T* v, const char* reading) {
    if (in_.size() - pos_ < sizeof(T)) return Truncated(reading);
    unsigned char bytes[sizeof(T)];
    for (std::size_t i = 0; i < sizeof(T); ++i) {
      bytes[sizeof(T) - 1 - i] = static_cast<unsigned char>(in_[pos_ + i]);
    }
    std::memcpy(v, bytes, sizeof(T));
    pos_ += sizeof(T);
    return Status::Ok();
  }

  Status Marker(char* c, const char* reading) { return Read(c, reading); }

  // An integer after its marker; false in *is_int when the marker is not an integer type.
  Status Integer(char marker, std::int64_t* v, bool* is_int, const char* what) {
    *is_int = true;
    switch (marker) {
      case 'i':
        return ReadAs<std::int8_t>(v, what);
      case 'U':
        return ReadAs<std::uint8_t>(v, what);
      case 'I':
        return ReadAs<std::int16_t>(v, what);
      case 'l':
        return ReadAs<std::int32_t>(v, what);
      case 'L':
        return ReadAs<std::int64_t>(v, what);
      default:
        *is_int = false;
        return Status::Ok();
    }
  }
  template <typename T>
  Status ReadAs(std::int64_t* v, const char* what) {
    T x{};
    Status st = Read(&x, what);
    *v = x;
    return st;
  }

  // A length or count: an integer marker then a value in [0, bytes left / min_size].
  Status Count(std::size_t min_size, std::size_t* n, const char* what) {
    char marker = 0;
    if (Status st = Marker(&marker, what); !st.ok()) return st;
    std::int64_t v = 0;
    bool is_int = false;
    if (Status st = Integer(marker, &v, &is_int, what); !st.ok()) return st;
    if (!is_int) return Error(std::string("expected an integer ") + what);
    const std::size_t left = in_.size() - pos_;
    if (v < 0 || static_cast<std::uint64_t>(v) > left / min_size) {
      return Error(std::string(what) + " " + std::to_string(v) + " exceeds the " +
                   std::to_string(left) + " bytes left");
    }
    *n = static_cast<std::size_t>(v);
    return Status::Ok();
  }

  Status String(std::string* s) {
    std::size_t n = 0;
    if (Status st = Count(1, &n, "string length"); !st.ok()) return st;
    s->assign(in_.data() + pos_, n);
    if (!IsValidUtf8(*s)) return Error("a string is not valid UTF-8");
    pos_ += n;
    return Status::Ok();
  }

  Status Object(int depth, nlohmann::json* out) {
    *out = nlohmann::json::object();
    while (true) {
      if (pos_ == in_.size()) return Truncated("an object");
      if (in_[pos_] == '}') {
        ++pos_;
        return Status::Ok();
      }
      std::string key;
      if (Status st = String(&key); !st.ok()) return st;
      nlohmann::json value;
      if (Status st = Value(depth + 1, &value); !st.ok()) return st;
      (*out)[key] = std::move(value);
    }
  }

  template <typename T>
  Status TypedValues(std::size_t n, nlohmann::json* out) {
    for (std::size_t i = 0; i < n; ++i) {
      T v{};
      if (Status st = Read(&v, "a typed array"); !st.ok()) return st;
      if constexpr (std::is_floating_point_v<T>) {
        out->push_back(static_cast<double>(v));
      } else {
        out->push_back(static_cast<std::int64_t>(v));
      }
    }
    return Status::Ok();
  }

  Status TypedArray(nlohmann::json* out) {
    char type = 0;
    if (Status st = Marker(&type, "a typed array's type"); !st.ok()) return st;
    char hash = 0;
    if (Status st = Marker(&hash, "a typed array's count"); !st.ok()) return st;
    if (hash != '#') return Error("a typed array has no count ('#')");
    const std::size_t sizes[] = {4, 8, 1, 1, 2, 4, 8};
    const char types[] = {'d', 'D', 'i', 'U', 'I', 'l', 'L'};
    const auto* it = std::find(std::begin(types), std::end(types), type);
    if (it == std::end(types))
      return Error(std::string("unsupported typed array type '") + type + "'");
    std::size_t n = 0;
    if (Status st = Count(sizes[it - std::begin(types)], &n, "array count"); !st.ok()) return st;
    *out = nlohmann::json::array();
    out->get_ref<nlohmann::json::array_t&>().reserve(n);
    switch (type) {
      case 'd':
        return TypedValues<float>(n, out);
      case 'D':
        return TypedValues<double>(n, out);
      case 'i':
        return TypedValues<std::int8_t>(n, out);
      case 'U':
        return TypedValues<std::uint8_t>(n, out);
      case 'I':
        return TypedValues<std::int16_t>(n, out);
      case 'l':
        return TypedValues<std::int32_t>(n, out);
      default:
        return TypedValues<std::int64_t>(n, out);
    }
  }

  Status Array(int depth, nlohmann::json* out) {
    if (pos_ < in_.size() && in_[pos_] == '$') {
      ++pos_;
      return TypedArray(out);
    }
    *out = nlohmann::json::array();
    if (pos_ < in_.size() && in_[pos_] == '#') {
      ++pos_;
      std::size_t n = 0;
      if (Status st = Count(1, &n, "array count"); !st.ok()) return st;
      for (std::size_t i = 0; i < n; ++i) {
        nlohmann::json value;
        if (Status st = Value(depth + 1, &value); !st.ok()) return st;
        out->push_back(std::move(value));
      }
      return Status::Ok();
    }
    while (true) {
      if (pos_ == in_.size()) return Truncated("an array");
      if (in_[pos_] == ']') {
        ++pos_;
        return Status::Ok();
      }
      nlohmann::json value;
      if (Status st = Value(depth + 1, &value); !st.ok()) return st;
      out->push_back(std::move(value));
    }
  }

  Status Value(int depth, nlohmann::json* out) {
    if (depth > kMaxDepth) return Error("nested deeper than " + std::to_string(kMaxDepth));
    char marker = 0;
    if (Status st = Marker(&marker, "a value"); !st.ok()) return st;
    std::int64_t i = 0;
    bool is_int = false;
    if (Status st = Integer(marker, &i, &is_int, "an integer"); !st.ok() || is_int) {
      *out = i;
      return st;
    }
    switch (marker) {
      case '{':
        return Object(depth, out);
      case '[':
        return Array(depth, out);
      case 'S': {
        std::string s;
        Status st = String(&s);
        *out = std::move(s);
        return st;
      }
      case 'd':
        return Number<float>(out);
      case 'D':
        return Number<double>(out);
      case 'C': {
        char c = 0;
        Status st = Read(&c, "a char");
        *out = std::string(1, c);
        return st;
      }
      case 'Z':
        *out = nullptr;
        return Status::Ok();
      case 'T':
      case 'F':
        *out = marker == 'T';
        return Status::Ok();
      default:
        --pos_;
        return Error("unknown marker 0x" + Hex(marker));
    }
  }

  template <typename T>
  Status Number(nlohmann::json* out) {
    T v{};
    Status st = Read(&v, "a number");
    *out = static_cast<double>(v);
    return st;
  }

  static std::string Hex(char c) {
    const char* digits = "0123456789abcdef";
    const auto u = static_cast<unsigned char>(c);
    return {digits[u >> 4], digits[u & 15]};
  }

  std::string_view in_;
  const std::string& source_;
  std::size_t pos_ = 0;
};

}  // namespace

Result<nlohmann::json> Decode(std::string_view bytes, const std::string& source) {
  return Decoder(bytes, source).DecodeAll();
}

}  // namespace treering::booster::ubjson
