// Random and mutated strings thrown at the JSON reader, the array-interface parser and the
// creation calls that take them. The property: every input is answered (ok or an error), never
// a crash; under ASan (the `unit` label's sanitizer pass) never an out-of-bounds read either.
// Array interfaces whose parsed address and shape reach outside the test's own buffers are not
// passed to the creation calls: no API can validate a caller's pointer, only its JSON.
#include <cmath>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "array_interface.h"
#include "json_reader.h"
#include "treering/c_api.h"

namespace treering::capi {
namespace {

constexpr int kRounds = 6000;

std::string Address(const void* p) { return std::to_string(reinterpret_cast<std::uintptr_t>(p)); }

class Mutator {
 public:
  explicit Mutator(std::uint32_t seed) : rng_(seed) {}

  int Int(int n) { return std::uniform_int_distribution<int>(0, n - 1)(rng_); }

  std::string Token() {
    static const char* kTokens[] = {"{",
                                    "}",
                                    "[",
                                    "]",
                                    ",",
                                    ":",
                                    "\"",
                                    "\\",
                                    "\\u",
                                    "NaN",
                                    "Infinity",
                                    "-Infinity",
                                    "null",
                                    "true",
                                    "false",
                                    "0",
                                    "-1",
                                    "1e999",
                                    "18446744073709551616",
                                    "9223372036854775807",
                                    "-9223372036854775809",
                                    "0.5",
                                    "\"data\"",
                                    "\"shape\"",
                                    "\"strides\"",
                                    "\"typestr\"",
                                    "\"version\"",
                                    "\"mask\"",
                                    "\"<f4\"",
                                    "\"|b1\"",
                                    "\">f8\"",
                                    "\"<i8\"",
                                    "\"missing\"",
                                    " ",
                                    "\n",
                                    "\x01",
                                    "\xff",
                                    "e",
                                    "."};
    return kTokens[Int(sizeof(kTokens) / sizeof(kTokens[0]))];
  }

  std::string Random() {
    std::string s;
    const int n = Int(40);
    for (int i = 0; i < n; ++i) s += Int(4) == 0 ? std::string(1, char(Int(256))) : Token();
    return s;
  }

  // 1 to 4 edits: delete, insert a token or byte, replace a byte, repeat a slice, truncate.
  std::string Mutate(std::string s) {
    const int edits = 1 + Int(4);
    for (int e = 0; e < edits; ++e) {
      const std::size_t at = s.empty() ? 0 : std::size_t(Int(int(s.size())));
      switch (Int(6)) {
        case 0:
          if (!s.empty()) s.erase(at, 1 + Int(3));
          break;
        case 1:
          s.insert(at, Token());
          break;
        case 2:
          if (!s.empty()) s[at] = char(Int(256));
          break;
        case 3:
          s.insert(at, s.substr(at, Int(12)));
          break;
        case 4:
          s.resize(at);
          break;
        default:
          s.insert(at, std::string(1, "0123456789-"[Int(11)]));
          break;
      }
    }
    return s;
  }

 private:
  std::mt19937 rng_;
};

// Whether every element the parsed interface describes lies in [lo, hi).
bool InsideBuffer(const ArrayInterface& a, const void* lo, std::size_t bytes) {
  if (a.rows == 0 || a.cols == 0) return true;
  __int128 min = 0, max = a.item_bytes;
  const __int128 rs = __int128(a.row_stride) * __int128(a.rows - 1);
  const __int128 cs = __int128(a.col_stride) * __int128(a.cols - 1);
  (rs < 0 ? min : max) += rs;
  (cs < 0 ? min : max) += cs;
  const auto base = __int128(reinterpret_cast<std::uintptr_t>(a.data));
  const auto start = __int128(reinterpret_cast<std::uintptr_t>(lo));
  return base + min >= start && base + max <= start + __int128(bytes);
}

// The interface is safe to hand to the C API: refused by the parser, or inside the buffer.
bool SafeInterface(const std::string& text, const void* lo, std::size_t bytes) {
  Result<ArrayInterface> a = ParseArrayInterface(text, "fuzz");
  return !a.ok() || InsideBuffer(a.value(), lo, bytes);
}

TEST(Fuzz, ParseJsonAnswersEverything) {
  Mutator m(1);
  const std::vector<std::string> seeds = {
      R"({"missing": NaN, "nthread": 4, "cache_prefix": "", "a": [1, 2.5e-3, -Infinity]})",
      R"({"type": 0, "training": false, "iteration_begin": 0, "strict_shape": true})",
      R"(["\u00e9\ud83d\ude00\n", {"x": {"y": [null, true]}}])", std::string(70, '['),
      R"({"data": [140737488355327, true], "shape": [3, 4], "typestr": "<f4", "version": 3})"};
  int ok = 0;
  for (int i = 0; i < kRounds * 3; ++i) {
    const std::string text = i % 3 == 0 ? m.Random() : m.Mutate(seeds[m.Int(int(seeds.size()))]);
    Result<JsonValue> r = ParseJson(text, "fuzz");
    ok += r.ok();
    if (!r.ok()) {
      EXPECT_NE(r.status().message().find("at byte"), std::string::npos) << text;
    }
  }
  EXPECT_GT(ok, 50);  // the mutations must not all be rejected, or they test nothing
}

TEST(Fuzz, ParseArrayInterfaceAnswersEverything) {
  Mutator m(2);
  const std::vector<std::string> seeds = {
      R"({"data": [4096, false], "shape": [3, 4], "strides": [16, 4], "typestr": "<f4", )"
      R"("version": 3, "mask": null})",
      R"({"data": [4096, true], "strides": null, "descr": [["", "<f8"]], "typestr": "<f8", )"
      R"("shape": [7], "version": 3})",
      R"({"version":3,"typestr":"|u1","shape":[0,5],"data":[0,false],"strides":[-5,1]})"};
  int ok = 0;
  for (int i = 0; i < kRounds * 3; ++i) {
    const std::string text = i % 4 == 0 ? m.Random() : m.Mutate(seeds[m.Int(int(seeds.size()))]);
    Result<ArrayInterface> r = ParseArrayInterface(text, "data");
    Result<ArrayInterface> full = ParseArrayInterfaceFull(text, "data");
    ok += r.ok();
    // The fast scanner and the full parser agree on every text, fields and messages alike.
    ASSERT_EQ(r.ok(), full.ok()) << text;
    if (!r.ok()) {
      EXPECT_EQ(r.status().message(), full.status().message()) << text;
    } else {
      EXPECT_TRUE(r->data == full->data && r->rows == full->rows && r->cols == full->cols &&
                  r->dims == full->dims && r->row_stride == full->row_stride &&
                  r->col_stride == full->col_stride && r->type == full->type &&
                  r->item_bytes == full->item_bytes)
          << text;
    }
    if (r.ok()) {
      EXPECT_LE(r->dims, 2);
      EXPECT_TRUE(r->type == 'f' || r->type == 'i' || r->type == 'u' || r->type == 'b');
    }
  }
  EXPECT_GT(ok, 50);
}

TEST(Fuzz, CreateFromDenseAnswersEverything) {
  Mutator m(3);
  std::vector<double> buffer(4096);
  for (std::size_t i = 0; i < buffer.size(); ++i) {
    buffer[i] = i % 7 == 0 ? NAN : i == 3000 ? INFINITY : double(i) - 100.0;
  }
  const std::string data = R"({"data": [)" + Address(buffer.data() + 64) +
                           R"(, false], "shape": [12, 8], "strides": null, "typestr": "<f8", )"
                           R"("version": 3})";
  const std::string config = R"({"missing": NaN, "nthread": 1})";
  int created = 0, tried = 0;
  for (int i = 0; i < kRounds; ++i) {
    const bool fuzz_config = i % 2 == 0;
    const std::string d = fuzz_config ? data : m.Mutate(data);
    const std::string c = fuzz_config ? (i % 4 == 0 ? m.Random() : m.Mutate(config)) : config;
    if (!SafeInterface(d, buffer.data(), buffer.size() * sizeof(double))) continue;
    ++tried;
    DMatrixHandle out = nullptr;
    if (XGDMatrixCreateFromDense(d.c_str(), c.c_str(), &out) == 0) {
      ++created;
      bst_ulong rows = 0;
      EXPECT_EQ(XGDMatrixNumRow(out, &rows), 0);
      EXPECT_EQ(XGDMatrixFree(out), 0);
    }
  }
  EXPECT_GT(tried, kRounds / 2);
  EXPECT_GT(created, 10);
}

TEST(Fuzz, CreateFromCsrAnswersEverything) {
  Mutator m(4);
  std::vector<std::uint64_t> indptr = {0, 2, 2, 5, 9};
  std::vector<std::uint32_t> indices = {3, 0, 1, 7, 2, 0, 4, 5, 6};
  std::vector<float> values = {1, NAN, 2, 3, 4, 5, 6, 7, 8};
  auto iface = [](const void* p, std::size_t n, const char* type) {
    return R"({"data": [)" + Address(p) + R"(, true], "shape": [)" + std::to_string(n) +
           R"(], "typestr": ")" + type + R"(", "version": 3})";
  };
  const std::string ip = iface(indptr.data(), indptr.size(), "<u8");
  const std::string ix = iface(indices.data(), indices.size(), "<u4");
  const std::string vs = iface(values.data(), values.size(), "<f4");
  int created = 0;
  for (int i = 0; i < kRounds; ++i) {
    std::string p = ip, x = ix, v = vs, c = R"({"missing": NaN})";
    switch (i % 4) {
      case 0:
        p = m.Mutate(p);
        break;
      case 1:
        x = m.Mutate(x);
        break;
      case 2:
        v = m.Mutate(v);
        break;
      default:
        c = m.Mutate(c);
        break;
    }
    if (!SafeInterface(p, indptr.data(), indptr.size() * 8) ||
        !SafeInterface(x, indices.data(), indices.size() * 4) ||
        !SafeInterface(v, values.data(), values.size() * 4)) {
      continue;
    }
    DMatrixHandle out = nullptr;
    if (XGDMatrixCreateFromCSR(p.c_str(), x.c_str(), v.c_str(), bst_ulong(m.Int(12)), c.c_str(),
                               &out) == 0) {
      ++created;
      EXPECT_EQ(XGDMatrixFree(out), 0);
    }
  }
  EXPECT_GT(created, 10);
}

TEST(Fuzz, SetInfoFromInterfaceAnswersEverything) {
  Mutator m(5);
  const float mat[12] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12};
  DMatrixHandle h = nullptr;
  ASSERT_EQ(XGDMatrixCreateFromMat(mat, 3, 4, NAN, &h), 0);
  std::vector<float> info(64, 1.0f);
  const std::string seed = R"({"data": [)" + Address(info.data()) +
                           R"(, true], "shape": [3], "typestr": "<f4", "version": 3})";
  const char* fields[] = {"label",
                          "weight",
                          "base_margin",
                          "group",
                          "qid",
                          "label_lower_bound",
                          "label_upper_bound",
                          "feature_weights",
                          "bogus"};
  for (int i = 0; i < kRounds; ++i) {
    const std::string text = m.Mutate(seed);
    if (!SafeInterface(text, info.data(), info.size() * 4)) continue;
    XGDMatrixSetInfoFromInterface(h, fields[m.Int(9)], text.c_str());
  }
  EXPECT_EQ(XGDMatrixFree(h), 0);
}

}  // namespace
}  // namespace treering::capi
