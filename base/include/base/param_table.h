// ParamTable: one typed parameter struct per component, described by a table of fields. Every
// layer configures itself this way (the `treering` CLI's own keys, the tree learner, the MLP,
// rabit's engine), and the table is the single source for parsing, for the "did you mean"
// candidates, for --help and for the key tables in docs/ (printed by treering-param-docs and
// compared with the committed docs by a test).
//
// A field is written once, in code: its key (and alias), the struct member it sets, the
// allowed values and its meaning. The default shown to users is read from a default-constructed
// struct and the range text is made from the same numbers the parser checks, e.g.
//
//   IntField("max_depth", &TreeParam::max_depth, 0, 64, "maximum tree depth")
//
// documents "max_depth = 6: maximum tree depth, [0, 64]" and rejects "65" and "6x" with
// "parameter max_depth: bad value '65', allowed: an integer in [0, 64]".
//
// Errors: a field's setter returns kInvalidInput whose message says only what is allowed;
// ParamTable::Set words the whole message (each table picks its wording, below) and attaches
// the key as the user spelled it (Status::key()), so a CLI can point at the config line.
#pragma once

#include <functional>
#include <limits>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "base/status.h"

namespace treering {

// One row of a key table (--help, docs, "did you mean"). An alias has a row of its own whose
// alias_of names the key it stands for.
struct ParamDoc {
  std::string key, default_value, description;
  std::string alias_of = {};
};

template <typename P>
struct ParamField {
  std::string key;
  std::string alias;          // "" when the key has no alias
  std::string default_value;  // as the user would write it
  std::string doc;            // meaning and allowed values
  // Applies a value; on failure kInvalidInput saying what is allowed ("an integer in [0, 64]").
  std::function<Status(P*, const std::string&)> set;

  ParamField Alias(std::string name) && {
    alias = std::move(name);
    return std::move(*this);
  }
  // Also records that the key was given (for defaults that depend on other keys).
  ParamField MarkSet(bool P::*flag) && {
    set = [inner = std::move(set), flag](P* p, const std::string& v) {
      p->*flag = true;
      return inner(p, v);
    };
    return std::move(*this);
  }
};

inline constexpr double kInf = std::numeric_limits<double>::infinity();

// Reals from lo to hi, open at lo when lo_open; an infinite bound is always open ("[0, inf)").
struct RealRange {
  double lo = -kInf;
  double hi = kInf;
  bool lo_open = false;
};

// Value parsers: the value, or kInvalidInput saying what is allowed. Numbers must be whole
// strings (no "3x"), finite and in range; booleans are 0/1 or false/true.
Result<long long> ParseInteger(const std::string& value, long long lo, long long hi);
Result<double> ParseReal(const std::string& value, const RealRange& range);
Result<bool> ParseBoolean(const std::string& value);
Result<std::string> ParseChoice(const std::string& value, const std::vector<std::string>& allowed);

std::string RangeText(const RealRange& range);                    // "(0, 1]"
std::string RangeText(long long lo, long long hi);                // "[0, 64]"
std::string ChoiceText(const std::vector<std::string>& allowed);  // "a | b | c"
std::string FormatNumber(double v);                               // "%g": 0.3, 1e-08, 256

// How a table words a bad value: (key as written, value, what is allowed) -> message.
using BadValueWording = std::string (*)(const std::string& key, const std::string& value,
                                        const std::string& allowed);
// "parameter KEY: bad value 'VALUE', allowed: ALLOWED" (the learners' wording).
std::string ParameterWording(const std::string& key, const std::string& value,
                             const std::string& allowed);

template <typename P>
class ParamTable {
 public:
  explicit ParamTable(std::vector<ParamField<P>> fields, BadValueWording wording = ParameterWording)
      : fields_(std::move(fields)), wording_(wording) {}

  const std::vector<ParamField<P>>& fields() const { return fields_; }

  // The field of `key` (its key or its alias), or nullptr.
  const ParamField<P>* Find(const std::string& key) const {
    for (const auto& field : fields_) {
      if (key == field.key || (!field.alias.empty() && key == field.alias)) return &field;
    }
    return nullptr;
  }

  // Applies `value` to the field of `key`. Errors are kInvalidInput with key() = `key`: a bad
  // value (worded by the table) or "unknown parameter 'KEY'".
  Status Set(P* params, const std::string& key, const std::string& value) const {
    const ParamField<P>* field = Find(key);
    if (field == nullptr) return Status::InvalidKey(key, "unknown parameter '" + key + "'");
    const Status st = field->set(params, value);
    if (st.ok()) return st;
    return Status::InvalidKey(key, wording_(key, value, st.message()));
  }

  // Every key and alias: what a misspelled key is compared with.
  std::vector<std::string> Keys() const {
    std::vector<std::string> keys;
    for (const auto& field : fields_) {
      keys.push_back(field.key);
      if (!field.alias.empty()) keys.push_back(field.alias);
    }
    return keys;
  }

  // Table order; an alias gets its own row right after its key.
  std::vector<ParamDoc> Docs() const {
    std::vector<ParamDoc> docs;
    for (const auto& f : fields_) {
      docs.push_back({f.key, f.default_value, f.doc});
      if (!f.alias.empty()) docs.push_back({f.alias, f.default_value, "alias of " + f.key, f.key});
    }
    return docs;
  }

 private:
  std::vector<ParamField<P>> fields_;
  BadValueWording wording_;
};

// --- typed fields: default read from P{}, allowed values written once ----------------------

// "meaning, allowed" (or just one of them when the other is empty).
std::string DescribeField(const std::string& meaning, const std::string& allowed);

template <typename P, typename Int>
ParamField<P> IntField(std::string key, Int P::*member, long long lo, long long hi,
                       const std::string& meaning) {
  static_assert(std::is_integral_v<Int> && !std::is_same_v<Int, bool>, "BoolField for bools");
  return {std::move(key), "", std::to_string(P{}.*member),
          DescribeField(meaning, RangeText(lo, hi)),
          [member, lo, hi](P* p, const std::string& v) -> Status {
            auto n = ParseInteger(v, lo, hi);
            if (n.ok()) p->*member = static_cast<Int>(n.value());
            return n.status();
          }};
}

// float members are parsed as double, checked, then rounded to float (as XGBoost does).
template <typename P, typename Real>
ParamField<P> RealField(std::string key, Real P::*member, RealRange range,
                        const std::string& meaning) {
  static_assert(std::is_floating_point_v<Real>, "RealField is for float and double members");
  return {std::move(key), "", FormatNumber(P{}.*member), DescribeField(meaning, RangeText(range)),
          [member, range](P* p, const std::string& v) -> Status {
            auto x = ParseReal(v, range);
            if (x.ok()) p->*member = static_cast<Real>(x.value());
            return x.status();
          }};
}

template <typename P>
ParamField<P> BoolField(std::string key, bool P::*member, const std::string& meaning) {
  return {std::move(key), "", (P{}.*member) ? "1" : "0", meaning,
          [member](P* p, const std::string& v) -> Status {
            auto b = ParseBoolean(v);
            if (b.ok()) p->*member = b.value();
            return b.status();
          }};
}

// Any text (paths, URIs), kept as given.
template <typename P>
ParamField<P> StringField(std::string key, std::string P::*member, const std::string& meaning) {
  return {std::move(key), "", P{}.*member, meaning, [member](P* p, const std::string& v) {
            p->*member = v;
            return Status::Ok();
          }};
}

// One of `allowed`, kept as text. The doc reads "a | b | c: meaning".
template <typename P>
ParamField<P> ChoiceField(std::string key, std::string P::*member, std::vector<std::string> allowed,
                          const std::string& meaning) {
  std::string doc = ChoiceText(allowed) + (meaning.empty() ? "" : ": " + meaning);
  return {std::move(key), "", P{}.*member, std::move(doc),
          [member, allowed = std::move(allowed)](P* p, const std::string& v) -> Status {
            auto c = ParseChoice(v, allowed);
            if (c.ok()) p->*member = c.value();
            return c.status();
          }};
}

// One of the names of an enum. The doc reads "a | b: meaning".
template <typename P, typename E>
ParamField<P> EnumField(std::string key, E P::*member, std::vector<std::pair<std::string, E>> names,
                        const std::string& meaning) {
  std::vector<std::string> allowed;
  std::string default_value;
  for (const auto& [name, value] : names) {
    allowed.push_back(name);
    if (value == P{}.*member) default_value = name;
  }
  std::string doc = ChoiceText(allowed) + (meaning.empty() ? "" : ": " + meaning);
  return {std::move(key), "", std::move(default_value), std::move(doc),
          [member, names = std::move(names), allowed](P* p, const std::string& v) -> Status {
            auto c = ParseChoice(v, allowed);
            if (!c.ok()) return c.status();
            for (const auto& [name, value] : names) {
              if (name == v) p->*member = value;
            }
            return Status::Ok();
          }};
}

// A repeatable key: every occurrence appends (eval_metric).
template <typename P>
ParamField<P> ListField(std::string key, std::vector<std::string> P::*member,
                        std::string default_value, const std::string& meaning) {
  return {std::move(key), "", std::move(default_value), meaning,
          [member](P* p, const std::string& v) {
            (p->*member).push_back(v);
            return Status::Ok();
          }};
}

}  // namespace treering
