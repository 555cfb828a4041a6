// Reading NumPy array interfaces (v3). Every field is checked before a byte of the caller's
// memory is read: the address, shape and strides come from a string, so a bad one must be an
// error here, never an out-of-range read later.
#include "array_interface.h"

#include <charconv>
#include <cmath>
#include <cstring>
#include <string>

#include "json_reader.h"

namespace treering::capi {
namespace {

template <typename T>
T Load(const std::uint8_t* p) {
  T v;
  std::memcpy(&v, p, sizeof(T));  // strides need not keep elements aligned
  return v;
}

Status Bad(const char* argument, const std::string& message) {
  return Status::InvalidInput(std::string(argument) + ": array interface: " + message);
}

// A non-negative 64-bit integer member element (shape entries).
bool NonNegativeInteger(const JsonValue& v, std::uint64_t* out) {
  if (!v.IsInteger() || v.IntegerIsUnsigned() || v.Integer() < 0) return false;
  *out = std::uint64_t(v.Integer());
  return true;
}

// The checks and conversions shared by the full parser and the fast scanner (Apply*), each
// run on fields already extracted with the right JSON types, in the order the full parser
// reports errors: typestr, shape, strides, data.
Status ApplyTypestr(std::string_view s, const char* argument, ArrayInterface* a) {
  auto quoted = [&] { return "typestr '" + std::string(s) + "': "; };
  if (s.size() != 3) return Bad(argument, quoted() + "expected 3 characters such as '<f4'");
  char order = s[0];
  char kind = s[1];
  if (s[2] < '1' || s[2] > '9') return Bad(argument, quoted() + "bad element size");
  int bytes = s[2] - '0';
  bool size_ok = false;
  switch (kind) {
    case 'f':
      size_ok = bytes == 4 || bytes == 8;
      break;
    case 'i':
    case 'u':
      size_ok = bytes == 1 || bytes == 2 || bytes == 4 || bytes == 8;
      break;
    case 'b':
      size_ok = bytes == 1;
      break;
    default:
      return Bad(argument, quoted() + "element kind must be f, i, u or b");
  }
  if (!size_ok) return Bad(argument, quoted() + "unsupported element size");
  // '|' means "byte order does not apply"; '=' is native, little-endian on every platform
  // this library builds for.
  if (order == '>' && bytes > 1) {
    return Bad(argument, quoted() + "big-endian arrays are not supported");
  }
  if (order != '<' && order != '|' && order != '=' && order != '>') {
    return Bad(argument, quoted() + "byte order must be '<' or '|'");
  }
  a->type = kind;
  a->item_bytes = bytes;
  return Status::Ok();
}

Status ApplyShape(int dims, std::uint64_t rows, std::uint64_t cols, const char* argument,
                  ArrayInterface* a) {
  a->dims = dims;
  a->rows = rows;
  a->cols = cols;
  // Every element's byte offset must fit in a signed 64-bit number.
  unsigned __int128 bytes = (unsigned __int128)rows * cols * unsigned(a->item_bytes);
  if (bytes > (unsigned __int128)INT64_MAX) return Bad(argument, "\"shape\" is too large");
  return Status::Ok();
}

// `strides` null: C order.
Status ApplyStrides(const std::int64_t* strides, const char* argument, ArrayInterface* a) {
  a->col_stride = a->item_bytes;
  a->row_stride = a->dims == 2 ? std::int64_t(a->cols) * a->item_bytes : a->item_bytes;
  if (strides == nullptr) return Status::Ok();
  for (int d = 0; d < a->dims; ++d) {
    if (strides[d] % a->item_bytes != 0) {
      return Bad(argument,
                 "stride " + std::to_string(strides[d]) + " is not a multiple of the element size");
    }
  }
  a->row_stride = strides[0];
  if (a->dims == 2) a->col_stride = strides[1];
  // The farthest byte touched must stay addressable from the start.
  if (a->rows > 0 && a->cols > 0) {
    auto mag = [](std::int64_t x) { return (unsigned __int128)(x < 0 ? -(__int128)x : x); };
    unsigned __int128 reach = mag(a->row_stride) * (a->rows - 1) +
                              mag(a->col_stride) * (a->cols - 1) + unsigned(a->item_bytes);
    if (reach > (unsigned __int128)INT64_MAX) return Bad(argument, "\"strides\" are too large");
  }
  return Status::Ok();
}

Status ApplyData(std::uint64_t address, const char* argument, ArrayInterface* a) {
  if (address == 0 && a->rows > 0 && a->cols > 0) {
    return Bad(argument, "null data address for a non-empty array");
  }
  a->data = reinterpret_cast<const std::uint8_t*>(std::uintptr_t(address));
  return Status::Ok();
}

Status ReadTypestr(const JsonValue& root, const char* argument, ArrayInterface* a) {
  const JsonValue* t = root.Find("typestr");
  if (t == nullptr) return Bad(argument, "missing \"typestr\"");
  if (t->kind() != JsonValue::Kind::kString) return Bad(argument, "\"typestr\" is not a string");
  return ApplyTypestr(t->String(), argument, a);
}

Status ReadShape(const JsonValue& root, const char* argument, ArrayInterface* a) {
  const JsonValue* shape = root.Find("shape");
  if (shape == nullptr) return Bad(argument, "missing \"shape\"");
  if (shape->kind() != JsonValue::Kind::kArray) return Bad(argument, "\"shape\" is not an array");
  const auto& dims = shape->Array();
  if (dims.empty() || dims.size() > 2) {
    return Bad(argument,
               "\"shape\" has " + std::to_string(dims.size()) + " dimensions (1 or 2 supported)");
  }
  std::uint64_t rows = 0, cols = 1;
  if (!NonNegativeInteger(dims[0], &rows) ||
      (dims.size() == 2 && !NonNegativeInteger(dims[1], &cols))) {
    return Bad(argument, "\"shape\" entries must be non-negative integers");
  }
  return ApplyShape(int(dims.size()), rows, cols, argument, a);
}

Status ReadStrides(const JsonValue& root, const char* argument, ArrayInterface* a) {
  const JsonValue* strides = root.Find("strides");
  if (strides == nullptr || strides->IsNull()) return ApplyStrides(nullptr, argument, a);
  if (strides->kind() != JsonValue::Kind::kArray ||
      strides->Array().size() != std::size_t(a->dims)) {
    return Bad(argument, "\"strides\" must be null or one integer per dimension");
  }
  std::int64_t s[2] = {0, 0};
  for (int d = 0; d < a->dims; ++d) {
    const JsonValue& v = strides->Array()[d];
    if (!v.IsInteger() || v.IntegerIsUnsigned()) {
      return Bad(argument, "\"strides\" entries must be integers (bytes)");
    }
    s[d] = v.Integer();
  }
  return ApplyStrides(s, argument, a);
}

Status ReadData(const JsonValue& root, const char* argument, ArrayInterface* a) {
  const JsonValue* data = root.Find("data");
  if (data == nullptr) return Bad(argument, "missing \"data\"");
  if (data->kind() != JsonValue::Kind::kArray || data->Array().empty() ||
      !data->Array()[0].IsInteger()) {
    return Bad(argument, "\"data\" must be [address, read_only]");
  }
  return ApplyData(std::uint64_t(data->Array()[0].Integer()), argument, a);
}

// The fast path: inplace prediction parses an interface on every call, so the common shape of
// one (what NumPy and XGBoost's Python package write) is scanned without building a JSON tree
// or allocating. Anything unusual — escapes, repeated keys, a non-integer where an integer
// belongs, a mask, any failing check — makes it give up, and the full parser then decides and
// words the error, so both paths accept exactly the same texts.
class FastScan {
 public:
  explicit FastScan(std::string_view t) : t_(t) {}

  bool Parse(const char* argument, ArrayInterface* a) {
    enum Key : unsigned {
      kData = 1,
      kShape = 2,
      kStrides = 4,
      kTypestr = 8,
      kVersion = 16,
      kMask = 32
    };
    unsigned seen = 0;
    std::uint64_t address = 0, shape[2] = {0, 1};
    std::int64_t strides[2] = {0, 0};
    int dims = 0, nstrides = -1;  // -1: null or absent
    std::string_view typestr;
    if (!Expect('{')) return false;
    if (Peek() == '}') return false;  // empty: let the full parser say what is missing
    while (true) {
      std::string_view key;
      if (!String(&key) || !Expect(':')) return false;
      unsigned bit = key == "data"      ? kData
                     : key == "shape"   ? kShape
                     : key == "strides" ? kStrides
                     : key == "typestr" ? kTypestr
                     : key == "version" ? kVersion
                     : key == "mask"    ? kMask
                                        : 0u;
      if (bit & seen) return false;
      seen |= bit;
      bool ok = true;
      switch (bit) {
        case kData: {
          bool read_only = false;
          ok = Expect('[') && UInt(&address) && Expect(',') && Bool(&read_only) && Expect(']');
          break;
        }
        case kShape:
          ok = Expect('[') && UInt(&shape[0]) && ++dims;
          if (ok && Peek() == ',') ok = Expect(',') && UInt(&shape[1]) && ++dims;
          ok = ok && Expect(']');
          break;
        case kStrides:
          if (Literal("null")) break;
          nstrides = 0;
          ok = Expect('[') && Int(&strides[0]) && ++nstrides;
          if (ok && Peek() == ',') ok = Expect(',') && Int(&strides[1]) && ++nstrides;
          ok = ok && Expect(']');
          break;
        case kTypestr:
          ok = String(&typestr);
          break;
        case kVersion: {
          std::uint64_t version = 0;
          ok = UInt(&version);
          break;
        }
        case kMask:
          ok = Literal("null");
          break;
        default:
          ok = Skip(0);  // "descr" and other keys the full parser ignores too
      }
      if (!ok) return false;
      if (Peek() == ',') {
        ++p_;
        continue;
      }
      if (!Expect('}')) return false;
      break;
    }
    Space();
    if (p_ != t_.size()) return false;
    if ((seen & (kData | kShape | kTypestr | kVersion)) != (kData | kShape | kTypestr | kVersion)) {
      return false;
    }
    if (nstrides != -1 && nstrides != dims) return false;
    if (!ApplyTypestr(typestr, argument, a).ok()) return false;
    if (shape[0] > std::uint64_t(INT64_MAX) || shape[1] > std::uint64_t(INT64_MAX)) return false;
    if (!ApplyShape(dims, shape[0], shape[1], argument, a).ok()) return false;
    if (!ApplyStrides(nstrides == -1 ? nullptr : strides, argument, a).ok()) return false;
    return ApplyData(address, argument, a).ok();
  }

 private:
  void Space() {
    while (p_ < t_.size() && (t_[p_] == ' ' || t_[p_] == '\n' || t_[p_] == '\t' || t_[p_] == '\r'))
      ++p_;
  }
  char Peek() {
    Space();
    return p_ < t_.size() ? t_[p_] : '\0';
  }
  bool Expect(char c) {
    if (Peek() != c) return false;
    ++p_;
    return true;
  }
  bool Literal(std::string_view word) {
    Space();
    if (t_.substr(p_, word.size()) != word) return false;
    p_ += word.size();
    return true;
  }
  bool Bool(bool* out) {
    if (Literal("true")) return *out = true;
    *out = false;
    return Literal("false");
  }
  // A string without escapes.
  bool String(std::string_view* out) {
    if (!Expect('"')) return false;
    const std::size_t end = t_.find_first_of("\"\\", p_);
    if (end == std::string_view::npos || t_[end] != '"') return false;
    *out = t_.substr(p_, end - p_);
    p_ = end + 1;
    return true;
  }
  // Plain digits that fit 64 bits and are not followed by a fraction or exponent.
  bool Digits(std::uint64_t* out) {
    const char* first = t_.data() + p_;
    const char* last = t_.data() + t_.size();
    auto [end, ec] = std::from_chars(first, last, *out);
    if (ec != std::errc() || (first < last && *first == '-')) return false;
    p_ += std::size_t(end - first);
    return p_ >= t_.size() || (t_[p_] != '.' && t_[p_] != 'e' && t_[p_] != 'E');
  }
  bool UInt(std::uint64_t* out) {
    Space();
    return Digits(out);
  }
  bool Int(std::int64_t* out) {
    Space();
    const bool negative = p_ < t_.size() && t_[p_] == '-';
    if (negative) ++p_;
    std::uint64_t magnitude = 0;
    if (!Digits(&magnitude) || magnitude > std::uint64_t(INT64_MAX)) return false;
    *out = negative ? -std::int64_t(magnitude) : std::int64_t(magnitude);
    return true;
  }
  // Any simple value of a key the interface does not use (NumPy's "descr": [["", "<f4"]]).
  bool Skip(int depth) {
    if (depth > 4) return false;
    const char c = Peek();
    if (c == '"') {
      std::string_view s;
      return String(&s);
    }
    if (c == '[') {
      ++p_;
      if (Peek() == ']') return ++p_, true;
      do {
        if (!Skip(depth + 1)) return false;
      } while (Expect(','));
      return Expect(']');
    }
    if (c == '-' || (c >= '0' && c <= '9')) {
      std::int64_t v = 0;
      return Int(&v);
    }
    return Literal("null") || Literal("true") || Literal("false");
  }

  std::string_view t_;
  std::size_t p_ = 0;
};

}  // namespace

float ArrayInterface::Get(std::uint64_t r, std::uint64_t c) const {
  const std::uint8_t* p = data + std::int64_t(r) * row_stride + std::int64_t(c) * col_stride;
  switch (type) {
    case 'f':
      return item_bytes == 4 ? Load<float>(p) : float(Load<double>(p));
    case 'i':
      switch (item_bytes) {
        case 1:
          return float(Load<std::int8_t>(p));
        case 2:
          return float(Load<std::int16_t>(p));
        case 4:
          return float(Load<std::int32_t>(p));
        default:
          return float(Load<std::int64_t>(p));
      }
    case 'u':
      switch (item_bytes) {
        case 1:
          return float(Load<std::uint8_t>(p));
        case 2:
          return float(Load<std::uint16_t>(p));
        case 4:
          return float(Load<std::uint32_t>(p));
        default:
          return float(Load<std::uint64_t>(p));
      }
    default:
      return *p != 0 ? 1.0f : 0.0f;  // 'b'
  }
}

std::uint64_t ArrayInterface::GetUInt(std::uint64_t i) const {
  const std::uint8_t* p = data + std::int64_t(i) * row_stride;
  // A negative or fractional entry maps to UINT64_MAX, which every caller's range check
  // rejects (an index or an offset can never be that large).
  constexpr std::uint64_t kInvalid = ~std::uint64_t{0};
  auto from_signed = [](std::int64_t v) { return v < 0 ? kInvalid : std::uint64_t(v); };
  switch (type) {
    case 'f': {
      double v = item_bytes == 4 ? double(Load<float>(p)) : Load<double>(p);
      if (!(v >= 0) || v >= 18446744073709551616.0 || v != std::floor(v)) return kInvalid;
      return std::uint64_t(v);
    }
    case 'i':
      switch (item_bytes) {
        case 1:
          return from_signed(Load<std::int8_t>(p));
        case 2:
          return from_signed(Load<std::int16_t>(p));
        case 4:
          return from_signed(Load<std::int32_t>(p));
        default:
          return from_signed(Load<std::int64_t>(p));
      }
    case 'u':
      switch (item_bytes) {
        case 1:
          return Load<std::uint8_t>(p);
        case 2:
          return Load<std::uint16_t>(p);
        case 4:
          return Load<std::uint32_t>(p);
        default:
          return Load<std::uint64_t>(p);
      }
    default:
      return *p != 0 ? 1 : 0;
  }
}

Result<ArrayInterface> ParseArrayInterface(std::string_view text, const char* argument) {
  ArrayInterface fast;
  if (FastScan(text).Parse(argument, &fast)) return fast;
  return ParseArrayInterfaceFull(text, argument);
}

Result<ArrayInterface> ParseArrayInterfaceFull(std::string_view text, const char* argument) {
  Result<JsonValue> parsed = ParseJson(text, argument);
  if (!parsed.ok()) return parsed.status();
  const JsonValue& root = parsed.value();
  if (root.kind() != JsonValue::Kind::kObject) return Bad(argument, "expected a JSON object");
  const JsonValue* version = root.Find("version");
  if (version == nullptr) return Bad(argument, "missing \"version\"");
  const JsonValue* mask = root.Find("mask");
  if (mask != nullptr && !mask->IsNull()) {
    return Bad(argument, "masked arrays (\"mask\") are not supported; fill the masked values");
  }
  ArrayInterface a;
  if (Status s = ReadTypestr(root, argument, &a); !s.ok()) return s;
  if (Status s = ReadShape(root, argument, &a); !s.ok()) return s;
  if (Status s = ReadStrides(root, argument, &a); !s.ok()) return s;
  if (Status s = ReadData(root, argument, &a); !s.ok()) return s;
  return a;
}

}  // namespace treering::capi
