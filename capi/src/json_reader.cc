// A recursive-descent JSON reader. Beyond strict JSON it takes NaN, Infinity and -Infinity
// (Python's json module writes them; XGBoost's reader reads them). Recursion is bounded
// (kMaxDepth) so "[[[[...": from a hostile caller cannot overflow the stack.
#include "json_reader.h"

#include <charconv>
#include <cmath>
#include <cstring>
#include <limits>

namespace treering::capi {
namespace {

// Deeper than any configuration or array interface needs, shallow enough for small stacks.
constexpr int kMaxDepth = 64;

class Reader {
 public:
  Reader(std::string_view text, const char* what) : text_(text), what_(what) {}

  Result<JsonValue> ReadDocument() {
    JsonValue value;
    if (Status s = ReadValue(0, &value); !s.ok()) return s;
    SkipSpace();
    if (pos_ != text_.size()) return Fail("unexpected text after the JSON value");
    return value;
  }

 private:
  Status Fail(const std::string& message) const {
    return Status::InvalidInput(std::string(what_) + ": " + message + " at byte " +
                                std::to_string(pos_));
  }
  bool AtEnd() const { return pos_ >= text_.size(); }
  char Peek() const { return AtEnd() ? '\0' : text_[pos_]; }
  void SkipSpace() {
    while (!AtEnd()) {
      char c = text_[pos_];
      if (c != ' ' && c != '\t' && c != '\n' && c != '\r') break;
      ++pos_;
    }
  }
  bool Consume(std::string_view word) {
    if (text_.substr(pos_, word.size()) != word) return false;
    pos_ += word.size();
    return true;
  }

  Status ReadValue(int depth, JsonValue* out) {
    if (depth > kMaxDepth) return Fail("nesting deeper than " + std::to_string(kMaxDepth));
    SkipSpace();
    if (AtEnd()) return Fail("expected a value, got the end of the text");
    char c = Peek();
    switch (c) {
      case '{':
        return ReadObject(depth, out);
      case '[':
        return ReadArray(depth, out);
      case '"': {
        std::string s;
        if (Status st = ReadString(&s); !st.ok()) return st;
        *out = JsonValue::MakeString(std::move(s));
        return Status::Ok();
      }
      case 't':
        if (Consume("true")) return *out = JsonValue::MakeBool(true), Status::Ok();
        break;
      case 'f':
        if (Consume("false")) return *out = JsonValue::MakeBool(false), Status::Ok();
        break;
      case 'n':
        if (Consume("null")) return *out = JsonValue::MakeNull(), Status::Ok();
        break;
      case 'N':
        if (Consume("NaN")) {
          *out = JsonValue::MakeNumber(std::numeric_limits<double>::quiet_NaN());
          return Status::Ok();
        }
        break;
      case 'I':
        if (Consume("Infinity")) {
          *out = JsonValue::MakeNumber(std::numeric_limits<double>::infinity());
          return Status::Ok();
        }
        break;
      default:
        if (c == '-' || (c >= '0' && c <= '9')) return ReadNumber(out);
    }
    return Fail(std::string("unexpected character '") + c + "'");
  }

  Status ReadObject(int depth, JsonValue* out) {
    ++pos_;  // '{'
    std::vector<std::pair<std::string, JsonValue>> members;
    members.reserve(8);  // one allocation for a typical config (growth would move members)
    SkipSpace();
    if (Peek() == '}') {
      ++pos_;
      *out = JsonValue::MakeObject(std::move(members));
      return Status::Ok();
    }
    while (true) {
      SkipSpace();
      if (Peek() != '"') return Fail("expected a member name in quotes");
      std::string key;
      if (Status s = ReadString(&key); !s.ok()) return s;
      SkipSpace();
      if (Peek() != ':') return Fail("expected ':' after a member name");
      ++pos_;
      JsonValue value;
      if (Status s = ReadValue(depth + 1, &value); !s.ok()) return s;
      members.emplace_back(std::move(key), std::move(value));
      SkipSpace();
      if (Peek() == ',') {
        ++pos_;
        continue;
      }
      if (Peek() == '}') {
        ++pos_;
        break;
      }
      return Fail("expected ',' or '}'");
    }
    *out = JsonValue::MakeObject(std::move(members));
    return Status::Ok();
  }

  Status ReadArray(int depth, JsonValue* out) {
    ++pos_;  // '['
    std::vector<JsonValue> items;
    items.reserve(4);
    SkipSpace();
    if (Peek() == ']') {
      ++pos_;
      *out = JsonValue::MakeArray(std::move(items));
      return Status::Ok();
    }
    while (true) {
      JsonValue value;
      if (Status s = ReadValue(depth + 1, &value); !s.ok()) return s;
      items.push_back(std::move(value));
      SkipSpace();
      if (Peek() == ',') {
        ++pos_;
        continue;
      }
      if (Peek() == ']') {
        ++pos_;
        break;
      }
      return Fail("expected ',' or ']'");
    }
    *out = JsonValue::MakeArray(std::move(items));
    return Status::Ok();
  }

  static void AppendUtf8(std::uint32_t cp, std::string* out) {
    if (cp < 0x80) {
      out->push_back(char(cp));
    } else if (cp < 0x800) {
      out->push_back(char(0xC0 | (cp >> 6)));
      out->push_back(char(0x80 | (cp & 0x3F)));
    } else if (cp < 0x10000) {
      out->push_back(char(0xE0 | (cp >> 12)));
      out->push_back(char(0x80 | ((cp >> 6) & 0x3F)));
      out->push_back(char(0x80 | (cp & 0x3F)));
    } else {
      out->push_back(char(0xF0 | (cp >> 18)));
      out->push_back(char(0x80 | ((cp >> 12) & 0x3F)));
      out->push_back(char(0x80 | ((cp >> 6) & 0x3F)));
      out->push_back(char(0x80 | (cp & 0x3F)));
    }
  }

  Status ReadHex4(std::uint32_t* out) {
    if (text_.size() - pos_ < 4) return Fail("truncated \\u escape");
    std::uint32_t v = 0;
    for (int i = 0; i < 4; ++i) {
      char h = text_[pos_ + i];
      v <<= 4;
      if (h >= '0' && h <= '9')
        v |= std::uint32_t(h - '0');
      else if (h >= 'a' && h <= 'f')
        v |= std::uint32_t(h - 'a' + 10);
      else if (h >= 'A' && h <= 'F')
        v |= std::uint32_t(h - 'A' + 10);
      else
        return Fail("bad hex digit in \\u escape");
    }
    pos_ += 4;
    *out = v;
    return Status::Ok();
  }

  Status ReadString(std::string* out) {
    ++pos_;  // opening quote
    while (true) {
      // Copy the run up to the next quote or backslash in one go.
      std::size_t stop = text_.find_first_of("\"\\", pos_);
      if (stop == std::string_view::npos) {
        pos_ = text_.size();
        return Fail("unterminated string");
      }
      out->append(text_.data() + pos_, stop - pos_);
      pos_ = stop;
      if (text_[pos_] == '"') {
        ++pos_;
        return Status::Ok();
      }
      ++pos_;  // backslash
      if (AtEnd()) return Fail("unterminated escape");
      char e = text_[pos_++];
      switch (e) {
        case '"':
          out->push_back('"');
          break;
        case '\\':
          out->push_back('\\');
          break;
        case '/':
          out->push_back('/');
          break;
        case 'b':
          out->push_back('\b');
          break;
        case 'f':
          out->push_back('\f');
          break;
        case 'n':
          out->push_back('\n');
          break;
        case 'r':
          out->push_back('\r');
          break;
        case 't':
          out->push_back('\t');
          break;
        case 'u': {
          std::uint32_t cp = 0;
          if (Status s = ReadHex4(&cp); !s.ok()) return s;
          // A high surrogate followed by \uDC00..\uDFFF is one code point; a lone surrogate
          // is kept as its own (ill-formed but harmless) three-byte sequence.
          if (cp >= 0xD800 && cp < 0xDC00 && text_.substr(pos_, 2) == "\\u") {
            std::size_t save = pos_;
            pos_ += 2;
            std::uint32_t low = 0;
            if (Status s = ReadHex4(&low); !s.ok()) return s;
            if (low >= 0xDC00 && low < 0xE000) {
              cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
            } else {
              pos_ = save;
            }
          }
          AppendUtf8(cp, out);
          break;
        }
        default:
          --pos_;
          return Fail(std::string("unknown escape '\\") + e + "'");
      }
    }
  }

  Status ReadNumber(JsonValue* out) {
    std::size_t start = pos_;
    bool negative = false;
    if (Peek() == '-') {
      negative = true;
      ++pos_;
      if (Consume("Infinity")) {
        *out = JsonValue::MakeNumber(-std::numeric_limits<double>::infinity());
        return Status::Ok();
      }
      if (Consume("NaN")) {  // -NaN: still not a number
        *out = JsonValue::MakeNumber(std::numeric_limits<double>::quiet_NaN());
        return Status::Ok();
      }
    }
    std::size_t digits_start = pos_;
    while (!AtEnd() && text_[pos_] >= '0' && text_[pos_] <= '9') ++pos_;
    if (pos_ == digits_start) return Fail("expected digits");
    bool integral = true;
    if (Peek() == '.') {
      integral = false;
      ++pos_;
      std::size_t frac = pos_;
      while (!AtEnd() && text_[pos_] >= '0' && text_[pos_] <= '9') ++pos_;
      if (pos_ == frac) return Fail("expected digits after '.'");
    }
    if (Peek() == 'e' || Peek() == 'E') {
      integral = false;
      ++pos_;
      if (Peek() == '+' || Peek() == '-') ++pos_;
      std::size_t exp = pos_;
      while (!AtEnd() && text_[pos_] >= '0' && text_[pos_] <= '9') ++pos_;
      if (pos_ == exp) return Fail("expected digits in the exponent");
    }
    const char* first = text_.data() + start;
    const char* last = text_.data() + pos_;
    if (integral) {
      // Exact 64-bit integers: data addresses in array interfaces need every bit.
      std::uint64_t magnitude = 0;
      auto [end, ec] = std::from_chars(text_.data() + digits_start, last, magnitude);
      if (ec == std::errc() && end == last) {
        if (!negative) {
          *out =
              JsonValue::MakeInteger(std::int64_t(magnitude), magnitude > std::uint64_t(INT64_MAX));
          return Status::Ok();
        }
        if (magnitude <= std::uint64_t(INT64_MAX) + 1) {
          *out = JsonValue::MakeInteger(std::int64_t(0 - magnitude), false);
          return Status::Ok();
        }
      }
      // Out of 64-bit range: keep it as a (rounded) double, as other readers do.
    }
    double v = 0;
    auto [end, ec] = std::from_chars(first, last, v);
    if (ec == std::errc::result_out_of_range) {
      // Overflow to +-inf, underflow to 0: the nearest representable reading.
      bool big = false;
      for (const char* p = first; p < last; ++p) {
        if (*p == 'e' || *p == 'E') {
          big = p[1] != '-';
          break;
        }
      }
      if (!big && integral) big = true;
      v = big ? (negative ? -HUGE_VAL : HUGE_VAL) : (negative ? -0.0 : 0.0);
    } else if (ec != std::errc() || end != last) {
      return Fail("malformed number");
    }
    *out = JsonValue::MakeNumber(v);
    return Status::Ok();
  }

  std::string_view text_;
  const char* what_;
  std::size_t pos_ = 0;
};

Status WrongType(std::string_view key, const char* what, const char* expected) {
  return Status::InvalidKey(std::string(key),
                            std::string(what) + ": " + std::string(key) + ": expected " + expected);
}

}  // namespace

const JsonValue* JsonValue::Find(std::string_view key) const {
  if (kind_ != Kind::kObject) return nullptr;
  for (const auto& [name, value] : object_) {
    if (name == key) return &value;
  }
  return nullptr;
}

JsonValue JsonValue::MakeBool(bool b) {
  JsonValue v;
  v.kind_ = Kind::kBool;
  v.bool_ = b;
  return v;
}
JsonValue JsonValue::MakeInteger(std::int64_t i, bool is_unsigned) {
  JsonValue v;
  v.kind_ = Kind::kInteger;
  v.integer_ = i;
  v.unsigned_ = is_unsigned;
  return v;
}
JsonValue JsonValue::MakeNumber(double d) {
  JsonValue v;
  v.kind_ = Kind::kNumber;
  v.number_ = d;
  return v;
}
JsonValue JsonValue::MakeString(std::string s) {
  JsonValue v;
  v.kind_ = Kind::kString;
  v.string_ = std::move(s);
  return v;
}
JsonValue JsonValue::MakeArray(std::vector<JsonValue> items) {
  JsonValue v;
  v.kind_ = Kind::kArray;
  v.array_ = std::move(items);
  return v;
}
JsonValue JsonValue::MakeObject(std::vector<std::pair<std::string, JsonValue>> members) {
  JsonValue v;
  v.kind_ = Kind::kObject;
  v.object_ = std::move(members);
  return v;
}

Result<JsonValue> ParseJson(std::string_view text, const char* what) {
  return Reader(text, what).ReadDocument();
}

Status ReadBool(const JsonValue& object, std::string_view key, const char* what, bool* out) {
  const JsonValue* v = object.Find(key);
  if (v == nullptr) return Status::Ok();
  if (v->kind() == JsonValue::Kind::kBool) {
    *out = v->Bool();
  } else if (v->IsInteger() && (v->Integer() == 0 || v->Integer() == 1)) {
    *out = v->Integer() == 1;  // XGBoost's callers sometimes send 0/1 for flags
  } else {
    return WrongType(key, what, "true or false");
  }
  return Status::Ok();
}

Status ReadInt(const JsonValue& object, std::string_view key, const char* what, std::int64_t* out) {
  const JsonValue* v = object.Find(key);
  if (v == nullptr) return Status::Ok();
  if (v->IsInteger() && !v->IntegerIsUnsigned()) {
    *out = v->Integer();
    return Status::Ok();
  }
  // 4.0 is accepted as 4 (some bindings send every number as a double).
  if (v->kind() == JsonValue::Kind::kNumber) {
    double d = v->Number();
    if (std::isfinite(d) && d == std::floor(d) && std::fabs(d) < 9.0e15) {
      *out = std::int64_t(d);
      return Status::Ok();
    }
  }
  return WrongType(key, what, "an integer");
}

Status ReadFloat(const JsonValue& object, std::string_view key, const char* what, float* out) {
  const JsonValue* v = object.Find(key);
  if (v == nullptr) return Status::Ok();
  if (!v->IsNumber()) return WrongType(key, what, "a number");
  *out = float(v->Number());
  return Status::Ok();
}

Status ReadString(const JsonValue& object, std::string_view key, const char* what,
                  std::string* out) {
  const JsonValue* v = object.Find(key);
  if (v == nullptr) return Status::Ok();
  if (v->kind() != JsonValue::Kind::kString) return WrongType(key, what, "a string");
  *out = v->String();
  return Status::Ok();
}

}  // namespace treering::capi
