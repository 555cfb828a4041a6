// Reading NumPy array interfaces (v3). Every field is checked before a byte of the caller's
// memory is read: the address, shape and strides come from a string, so a bad one must be an
// error here, never an out-of-range read later.
#include "array_interface.h"

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

Status ReadTypestr(const JsonValue& root, const char* argument, ArrayInterface* a) {
  const JsonValue* t = root.Find("typestr");
  if (t == nullptr) return Bad(argument, "missing \"typestr\"");
  if (t->kind() != JsonValue::Kind::kString) return Bad(argument, "\"typestr\" is not a string");
  const std::string& s = t->String();
  const std::string quoted = "typestr '" + s + "': ";
  if (s.size() != 3) return Bad(argument, quoted + "expected 3 characters such as '<f4'");
  char order = s[0];
  char kind = s[1];
  if (s[2] < '1' || s[2] > '9') return Bad(argument, quoted + "bad element size");
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
      return Bad(argument, quoted + "element kind must be f, i, u or b");
  }
  if (!size_ok) return Bad(argument, quoted + "unsupported element size");
  // '|' means "byte order does not apply"; '=' is native, little-endian on every platform
  // this library builds for.
  if (order == '>' && bytes > 1) {
    return Bad(argument, quoted + "big-endian arrays are not supported");
  }
  if (order != '<' && order != '|' && order != '=' && order != '>') {
    return Bad(argument, quoted + "byte order must be '<' or '|'");
  }
  a->type = kind;
  a->item_bytes = bytes;
  return Status::Ok();
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
  a->dims = int(dims.size());
  a->rows = rows;
  a->cols = cols;
  // Every element's byte offset must fit in a signed 64-bit number.
  unsigned __int128 bytes = (unsigned __int128)rows * cols * unsigned(a->item_bytes);
  if (bytes > (unsigned __int128)INT64_MAX) return Bad(argument, "\"shape\" is too large");
  return Status::Ok();
}

Status ReadStrides(const JsonValue& root, const char* argument, ArrayInterface* a) {
  // C order unless told otherwise.
  a->col_stride = a->item_bytes;
  a->row_stride = a->dims == 2 ? std::int64_t(a->cols) * a->item_bytes : a->item_bytes;
  const JsonValue* strides = root.Find("strides");
  if (strides == nullptr || strides->IsNull()) return Status::Ok();
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
    if (s[d] % a->item_bytes != 0) {
      return Bad(argument,
                 "stride " + std::to_string(s[d]) + " is not a multiple of the element size");
    }
  }
  a->row_stride = s[0];
  if (a->dims == 2) a->col_stride = s[1];
  // The farthest byte touched must stay addressable from the start.
  if (a->rows > 0 && a->cols > 0) {
    auto mag = [](std::int64_t x) { return (unsigned __int128)(x < 0 ? -(__int128)x : x); };
    unsigned __int128 reach = mag(a->row_stride) * (a->rows - 1) +
                              mag(a->col_stride) * (a->cols - 1) + unsigned(a->item_bytes);
    if (reach > (unsigned __int128)INT64_MAX) return Bad(argument, "\"strides\" are too large");
  }
  return Status::Ok();
}

Status ReadData(const JsonValue& root, const char* argument, ArrayInterface* a) {
  const JsonValue* data = root.Find("data");
  if (data == nullptr) return Bad(argument, "missing \"data\"");
  if (data->kind() != JsonValue::Kind::kArray || data->Array().empty() ||
      !data->Array()[0].IsInteger()) {
    return Bad(argument, "\"data\" must be [address, read_only]");
  }
  std::uint64_t address = std::uint64_t(data->Array()[0].Integer());
  if (address == 0 && a->rows > 0 && a->cols > 0) {
    return Bad(argument, "null data address for a non-empty array");
  }
  a->data = reinterpret_cast<const std::uint8_t*>(std::uintptr_t(address));
  return Status::Ok();
}

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
