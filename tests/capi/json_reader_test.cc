// The C API's JSON reader and array-interface parser, on computed expectations: what they
// accept (XGBoost's NaN/Infinity, exact 64-bit addresses) and every way they refuse.
#include "json_reader.h"

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "array_interface.h"

namespace treering::capi {
namespace {

JsonValue Parse(const std::string& text) {
  Result<JsonValue> r = ParseJson(text, "config");
  EXPECT_TRUE(r.ok()) << text << ": " << r.status().message();
  return r.ok() ? r.value() : JsonValue();
}

std::string ErrorOf(const std::string& text) {
  Result<JsonValue> r = ParseJson(text, "config");
  EXPECT_FALSE(r.ok()) << text;
  return r.ok() ? "" : r.status().message();
}

TEST(JsonReader, ReadsXGBoostsNonFiniteNumbers) {
  JsonValue v = Parse(R"({"missing": NaN, "a": Infinity, "b": -Infinity, "c": -1.5e3})");
  EXPECT_TRUE(std::isnan(v.Find("missing")->Number()));
  EXPECT_EQ(v.Find("a")->Number(), INFINITY);
  EXPECT_EQ(v.Find("b")->Number(), -INFINITY);
  EXPECT_EQ(v.Find("c")->Number(), -1500.0);
  EXPECT_EQ(v.Find("nope"), nullptr);
}

TEST(JsonReader, KeepsEvery64BitIntegerExact) {
  JsonValue v = Parse(
      "[140737488355327, 9223372036854775807, 18446744073709551615, "
      "-9223372036854775808, 0, -0]");
  const auto& a = v.Array();
  EXPECT_EQ(a[0].Integer(), 140737488355327LL);
  EXPECT_EQ(a[1].Integer(), INT64_MAX);
  EXPECT_FALSE(a[1].IntegerIsUnsigned());
  EXPECT_TRUE(a[2].IntegerIsUnsigned());
  EXPECT_EQ(std::uint64_t(a[2].Integer()), UINT64_MAX);
  EXPECT_EQ(a[2].Number(), 18446744073709551615.0);
  EXPECT_EQ(a[3].Integer(), INT64_MIN);
  EXPECT_TRUE(a[4].IsInteger());
  EXPECT_EQ(a[5].Integer(), 0);
  // Beyond 64 bits: a double, not a wrapped integer.
  JsonValue big = Parse("184467440737095516160");
  EXPECT_EQ(big.kind(), JsonValue::Kind::kNumber);
  EXPECT_EQ(big.Number(), 184467440737095516160.0);
  EXPECT_EQ(Parse("1e400").Number(), INFINITY);
  EXPECT_EQ(Parse("1e-400").Number(), 0.0);
}

TEST(JsonReader, DecodesStringEscapes) {
  JsonValue v = Parse(R"(["a\"b\\c\/\n\t", "\u00e9\u20ac", "\ud83d\ude00"])");
  EXPECT_EQ(v.Array()[0].String(), "a\"b\\c/\n\t");
  EXPECT_EQ(v.Array()[1].String(), "\xc3\xa9\xe2\x82\xac");
  EXPECT_EQ(v.Array()[2].String(), "\xf0\x9f\x98\x80");
}

TEST(JsonReader, ErrorsGiveTheByteOffset) {
  EXPECT_EQ(ErrorOf(R"({"a": 1 "b": 2})"), "config: expected ',' or '}' at byte 8");
  EXPECT_EQ(ErrorOf("[1, 2"), "config: expected ',' or ']' at byte 5");
  EXPECT_EQ(ErrorOf(""), "config: expected a value, got the end of the text at byte 0");
  EXPECT_EQ(ErrorOf("{} x"), "config: unexpected text after the JSON value at byte 3");
  EXPECT_NE(ErrorOf(R"("abc)").find("unterminated string"), std::string::npos);
  EXPECT_NE(ErrorOf(R"("\x")").find("unknown escape"), std::string::npos);
  EXPECT_NE(ErrorOf(R"("\u12")").find("\\u escape"), std::string::npos);
  EXPECT_NE(ErrorOf("1.").find("after '.'"), std::string::npos);
  EXPECT_NE(ErrorOf("1e+").find("exponent"), std::string::npos);
  EXPECT_NE(ErrorOf("-").find("expected digits"), std::string::npos);
  EXPECT_NE(ErrorOf("tru").find("unexpected character 't'"), std::string::npos);
  EXPECT_NE(ErrorOf("{1: 2}").find("member name"), std::string::npos);
}

TEST(JsonReader, RefusesDeepNestingInsteadOfOverflowingTheStack) {
  std::string deep(100000, '[');
  EXPECT_NE(ErrorOf(deep).find("nesting deeper than"), std::string::npos);
  std::string ok = std::string(60, '[') + std::string(60, ']');
  Parse(ok);
}

TEST(JsonReader, TypedMembersNameTheKey) {
  JsonValue v = Parse(R"({"n": 4, "d": 4.0, "f": "x", "b": true, "i": 1, "h": 4.5})");
  std::int64_t n = 0;
  EXPECT_TRUE(ReadInt(v, "n", "config", &n).ok());
  EXPECT_EQ(n, 4);
  EXPECT_TRUE(ReadInt(v, "d", "config", &n).ok());
  EXPECT_EQ(ReadInt(v, "h", "config", &n).message(), "config: h: expected an integer");
  float f = 0;
  EXPECT_EQ(ReadFloat(v, "f", "config", &f).message(), "config: f: expected a number");
  bool b = false;
  EXPECT_TRUE(ReadBool(v, "b", "config", &b).ok());
  EXPECT_TRUE(b);
  EXPECT_TRUE(ReadBool(v, "i", "config", &b).ok());
  std::string s = "kept";
  EXPECT_TRUE(ReadString(v, "absent", "config", &s).ok());
  EXPECT_EQ(s, "kept");
  EXPECT_EQ(ReadString(v, "n", "config", &s).key(), "n");
}

std::string Interface(const void* p, const std::string& shape, const std::string& typestr,
                      const std::string& strides = "null") {
  return R"({"data": [)" + std::to_string(reinterpret_cast<std::uintptr_t>(p)) +
         R"(, true], "shape": )" + shape + R"(, "strides": )" + strides + R"(, "typestr": ")" +
         typestr + R"(", "version": 3})";
}

TEST(ArrayInterface, ReadsCOrderFortranOrderAndEveryType) {
  const double m[6] = {1, 2, 3, 4, 5, 6};  // 2x3 C order
  auto a = ParseArrayInterface(Interface(m, "[2, 3]", "<f8"), "data");
  ASSERT_TRUE(a.ok()) << a.status().message();
  EXPECT_EQ(a->rows, 2u);
  EXPECT_EQ(a->cols, 3u);
  EXPECT_EQ(a->Get(1, 0), 4.0f);
  // The same bytes as a 3x2 Fortran-order array: element (r, c) at r*8 + c*24.
  auto f = ParseArrayInterface(Interface(m, "[3, 2]", "<f8", "[8, 24]"), "data");
  ASSERT_TRUE(f.ok());
  EXPECT_EQ(f->Get(2, 1), 6.0f);
  EXPECT_EQ(f->Get(1, 0), 2.0f);
  const std::int8_t i1[3] = {-1, 2, -3};
  auto i = ParseArrayInterface(Interface(i1, "[3]", "|i1"), "indices");
  ASSERT_TRUE(i.ok());
  EXPECT_EQ(i->Get(2, 0), -3.0f);
  EXPECT_EQ(i->GetUInt(1), 2u);
  EXPECT_EQ(i->GetUInt(0), UINT64_MAX);  // negative: out of every range
  const std::uint64_t u8[2] = {7, UINT64_MAX};
  auto u = ParseArrayInterface(Interface(u8, "[2]", "<u8"), "indptr");
  ASSERT_TRUE(u.ok());
  EXPECT_EQ(u->GetUInt(1), UINT64_MAX);
  const bool b1[2] = {true, false};
  auto b = ParseArrayInterface(Interface(b1, "[2]", "|b1"), "data");
  ASSERT_TRUE(b.ok());
  EXPECT_EQ(b->Get(0, 0), 1.0f);
  EXPECT_EQ(b->Get(1, 0), 0.0f);
  const float f4[4] = {1, 2, 3, 4};
  auto c = ParseArrayInterface(Interface(f4, "[2, 2]", "<f4"), "data");
  ASSERT_TRUE(c.ok());
  EXPECT_TRUE(c->IsCContiguousFloat32());
  // Reversed view: negative strides from the first element.
  auto r = ParseArrayInterface(Interface(f4 + 3, "[4]", "<f4", "[-4]"), "data");
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->Get(0, 0), 4.0f);
  EXPECT_EQ(r->Get(3, 0), 1.0f);
  // Empty arrays may have a null address.
  EXPECT_TRUE(ParseArrayInterface(Interface(nullptr, "[0, 5]", "<f4"), "data").ok());
}

TEST(ArrayInterface, RefusesWhatItCannotReadSafely) {
  const float x[4] = {0, 0, 0, 0};
  auto err = [&](const std::string& text) {
    auto r = ParseArrayInterface(text, "data");
    EXPECT_FALSE(r.ok()) << text;
    return r.ok() ? std::string() : r.status().message();
  };
  EXPECT_NE(err(Interface(x, "[4]", ">f4")).find("big-endian"), std::string::npos);
  EXPECT_NE(err(Interface(x, "[4]", "<f2")).find("element size"), std::string::npos);
  EXPECT_NE(err(Interface(x, "[4]", "<c8")).find("element kind"), std::string::npos);
  EXPECT_NE(err(Interface(x, "[4]", "<f16")).find("3 characters"), std::string::npos);
  EXPECT_NE(err(Interface(x, "[-4]", "<f4")).find("non-negative"), std::string::npos);
  EXPECT_NE(err(Interface(x, "[2, 2, 1]", "<f4")).find("dimensions"), std::string::npos);
  EXPECT_NE(err(Interface(x, "[4611686018427387904, 4]", "<f4")).find("too large"),
            std::string::npos);
  EXPECT_NE(err(Interface(x, "[4]", "<f4", "[3]")).find("multiple"), std::string::npos);
  EXPECT_NE(err(Interface(x, "[4, 4]", "<f4", "[4]")).find("strides"), std::string::npos);
  EXPECT_NE(err(Interface(x, "[4, 4]", "<f4", "[4611686018427387904, 4]")).find("too large"),
            std::string::npos);
  EXPECT_NE(err(Interface(nullptr, "[4]", "<f4")).find("null data address"), std::string::npos);
  EXPECT_NE(err(R"({"data": [1, true], "shape": [1], "typestr": "<f4", "version": 3,
                  "mask": {"data": [1, true]}})")
                .find("mask"),
            std::string::npos);
  EXPECT_NE(err(R"({"data": [1, true], "shape": [1], "typestr": "<f4"})").find("version"),
            std::string::npos);
  EXPECT_NE(err(R"({"shape": [1], "typestr": "<f4", "version": 3})").find("\"data\""),
            std::string::npos);
  EXPECT_EQ(err("[1]"), "data: array interface: expected a JSON object");
}

}  // namespace
}  // namespace treering::capi
