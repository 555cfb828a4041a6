#include "request_scan.h"

#include <charconv>
#include <cmath>
#include <limits>

namespace treering::capi {
namespace {

// One scalar of a flat object: a number (with its integer value when it has no fraction),
// true/false, null or a string without escapes.
struct Scalar {
  enum class Kind { kNumber, kBool, kNull, kString } kind = Kind::kNull;
  double number = 0;
  bool is_integer = false;
  std::uint64_t integer = 0;  // is_integer: the value (non-negative integers only)
  bool boolean = false;
  std::string_view text;
};

class Scanner {
 public:
  explicit Scanner(std::string_view text) : s_(text) {}

  void SkipSpace() {
    while (i_ < s_.size() &&
           (s_[i_] == ' ' || s_[i_] == '\n' || s_[i_] == '\t' || s_[i_] == '\r')) {
      ++i_;
    }
  }
  bool Eat(char c) {
    SkipSpace();
    if (i_ < s_.size() && s_[i_] == c) {
      ++i_;
      return true;
    }
    return false;
  }
  bool AtEnd() {
    SkipSpace();
    return i_ == s_.size();
  }
  bool String(std::string_view* out) {
    if (!Eat('"')) return false;
    const std::size_t start = i_;
    while (i_ < s_.size() && s_[i_] != '"') {
      if (s_[i_] == '\\') return false;  // escapes: leave to the full parser
      ++i_;
    }
    if (i_ == s_.size()) return false;
    *out = s_.substr(start, i_ - start);
    ++i_;
    return true;
  }
  bool Word(std::string_view word) {
    if (s_.substr(i_, word.size()) != word) return false;
    i_ += word.size();
    return true;
  }
  bool Value(Scalar* v) {
    SkipSpace();
    if (i_ == s_.size()) return false;
    const char c = s_[i_];
    if (c == '"') {
      v->kind = Scalar::Kind::kString;
      return String(&v->text);
    }
    if (Word("true") || Word("false")) {
      v->kind = Scalar::Kind::kBool;
      v->boolean = c == 't';
      return true;
    }
    if (Word("null")) {
      v->kind = Scalar::Kind::kNull;
      return true;
    }
    v->kind = Scalar::Kind::kNumber;
    if (Word("NaN")) return v->number = std::numeric_limits<double>::quiet_NaN(), true;
    if (Word("Infinity")) return v->number = std::numeric_limits<double>::infinity(), true;
    if (Word("-Infinity")) return v->number = -std::numeric_limits<double>::infinity(), true;
    std::size_t end = i_;
    bool integral = true;
    while (end < s_.size() &&
           (std::isdigit(static_cast<unsigned char>(s_[end])) || s_[end] == '-' || s_[end] == '+' ||
            s_[end] == '.' || s_[end] == 'e' || s_[end] == 'E')) {
      if (!std::isdigit(static_cast<unsigned char>(s_[end]))) integral = false;
      ++end;
    }
    if (end == i_) return false;
    const char* first = s_.data() + i_;
    const char* last = s_.data() + end;
    if (integral) {
      const auto r = std::from_chars(first, last, v->integer);
      if (r.ec != std::errc() || r.ptr != last) return false;
      v->is_integer = true;
      v->number = static_cast<double>(v->integer);
    } else {
      const auto r = std::from_chars(first, last, v->number);
      if (r.ec != std::errc() || r.ptr != last) return false;
    }
    i_ = end;
    return true;
  }

 private:
  std::string_view s_;
  std::size_t i_ = 0;
};

// Calls member(key, scanner) for each member of a flat object; member consumes the value.
template <typename Member>
bool ScanObject(std::string_view text, Member&& member) {
  Scanner scan(text);
  if (!scan.Eat('{')) return false;
  if (scan.Eat('}')) return scan.AtEnd();
  do {
    std::string_view key;
    if (!scan.String(&key) || !scan.Eat(':') || !member(key, scan)) return false;
  } while (scan.Eat(','));
  return scan.Eat('}') && scan.AtEnd();
}

bool SmallInt(const Scalar& v, int high, int* out) {
  if (v.kind != Scalar::Kind::kNumber || !v.is_integer || v.integer > std::uint64_t(high)) {
    return false;
  }
  *out = static_cast<int>(v.integer);
  return true;
}

}  // namespace

bool ScanPredictConfig(std::string_view text, bool inplace, PredictRequest* out) {
  PredictRequest request;
  int type = -1, begin = -1, end = -1, limit = 0;
  bool strict = false, has_strict = false, has_training = false;
  const bool ok = ScanObject(text, [&](std::string_view key, Scanner& scan) {
    Scalar v;
    if (!scan.Value(&v)) return false;
    if (key == "type") return SmallInt(v, 6, &type);
    if (key == "iteration_begin") return SmallInt(v, 1 << 30, &begin);
    if (key == "iteration_end") return SmallInt(v, 1 << 30, &end);
    if (key == "strict_shape" || key == "training") {
      if (v.kind != Scalar::Kind::kBool) return false;
      (key == "training" ? request.training : strict) = v.boolean;
      (key == "training" ? has_training : has_strict) = true;
      return true;
    }
    if (key == "missing") {
      if (v.kind != Scalar::Kind::kNumber) return false;
      request.missing = static_cast<float>(v.number);
      request.has_missing = true;
      return true;
    }
    if (key == "cache_id") return v.kind == Scalar::Kind::kNull || (v.is_integer && v.integer == 0);
    if (key == "ntree_limit") return v.kind == Scalar::Kind::kNull || SmallInt(v, 1 << 30, &limit);
    return true;  // other members are not read (as by the full parser)
  });
  if (!ok || type < 0 || begin < 0 || end < 0 || !has_strict) return false;
  if (inplace ? (!request.has_missing || type > 1) : !has_training) return false;
  if (limit != 0) {
    if (inplace || end != 0) return false;
    request.ntree_limit = limit;
  }
  request.type = static_cast<PredictType>(type);
  request.iteration_begin = begin;
  request.iteration_end = end;
  request.strict_shape = strict;
  if (inplace) request.training = false;
  *out = request;
  return true;
}

}  // namespace treering::capi
