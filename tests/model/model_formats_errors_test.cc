// Bad UBJSON and legacy binary files: truncated, corrupt and wrong-shape inputs give one
// kInvalidInput line naming the file (and the byte or JSON path), never a crash or a model
// that cannot be saved back; a bounded seeded mutation run checks the same for random damage.
#include <chrono>
#include <cstring>
#include <random>
#include <string>

#include <gtest/gtest.h>

#include "booster/model_formats.h"
#include "booster/model_io.h"
#include "model_test_util.h"

namespace treering::booster {
namespace {

using testing::SmallModel;

std::string Ubjson() { return ModelToUbjson(SmallModel()).value(); }
std::string Binary() { return ModelToLegacyBinary(SmallModel()).value(); }

// The loader's one-line message for `bytes` (which must not load).
std::string ErrorOf(const std::string& bytes, const std::string& source) {
  auto model = ParseModel(bytes, source);
  EXPECT_FALSE(model.ok()) << source;
  if (model.ok()) return "";
  EXPECT_EQ(model.status().code(), StatusCode::kInvalidInput);
  const std::string& m = model.status().message();
  EXPECT_EQ(m.find('\n'), std::string::npos) << m;
  EXPECT_EQ(m.rfind(source + ": ", 0), 0u) << m;
  return m;
}

void PutU32(std::string* b, std::size_t at, std::uint32_t v) {
  for (int i = 0; i < 4; ++i) (*b)[at + i] = static_cast<char>(v >> (8 * i));
}

// Byte offsets in the small model's binary file (legacy_binary_layout.h).
constexpr std::size_t kGBTreeParam = 4 + 136 + 8 + 15 + 8 + 6;
constexpr std::size_t kTree0 = kGBTreeParam + 160;
constexpr std::size_t kTree0Nodes = kTree0 + 148;

TEST(ModelFormatErrors, TruncatedFilesNeverLoad) {
  for (const auto& [bytes, name] : {std::pair{Ubjson(), "t.ubj"}, {Binary(), "t.model"}}) {
    for (std::size_t len = 0; len < bytes.size(); ++len) {
      ErrorOf(bytes.substr(0, len), name);
    }
  }
  EXPECT_EQ(ErrorOf(Binary().substr(0, 100), "t.model"),
            "t.model: legacy binary model: at byte 4: the file ends while reading the learner "
            "parameters (136 bytes, 96 left)");
  EXPECT_EQ(ErrorOf(Ubjson().substr(0, 12), "t.ubj"),
            "t.ubj: not valid UBJSON: at byte 10: string length 7 exceeds the 2 bytes left");
}

TEST(ModelFormatErrors, BinaryWrongShapeIsNamed) {
  std::string b = Binary();
  PutU32(&b, kGBTreeParam, 1000000);
  EXPECT_EQ(ErrorOf(b, "m.model"), "m.model: legacy binary model: at byte " +
                                       std::to_string(kTree0) +
                                       ": num_trees 1000000 does not fit in the " +
                                       std::to_string(Binary().size() - kTree0) + " bytes left");
  b = Binary();
  PutU32(&b, kTree0 + 4, 0);
  EXPECT_NE(ErrorOf(b, "m.model").find("num_nodes 0 does not fit"), std::string::npos);
  b = Binary();
  PutU32(&b, kTree0Nodes + 4, 7);  // the root's left child: no node 7
  EXPECT_EQ(ErrorOf(b, "m.model"),
            "m.model: /learner/gradient_booster/model/trees/0/left_children/0: 7 is out of range "
            "[-1, 4]");
  b = Binary();
  PutU32(&b, kTree0Nodes + 20 + 4, 0);  // node 1's left child is the root: a cycle
  EXPECT_NE(ErrorOf(b, "m.model").find("reached twice"), std::string::npos);
  b = Binary() + "x";
  EXPECT_NE(ErrorOf(b, "m.model").find("1 bytes after the end of the model"), std::string::npos);
}

TEST(ModelFormatErrors, BinaryCorruptValuesAreNamed) {
  std::string b = Binary();
  PutU32(&b, kTree0Nodes + 2 * 20 + 16, 0x7FC00000u);  // leaf 2's value: NaN
  EXPECT_EQ(ErrorOf(b, "m.model"),
            "m.model: /learner/gradient_booster/model/trees/0/split_conditions/2: expected a "
            "finite number");
  b = Binary();
  b.replace(b.find("gbtree"), 6, "dart!!");
  EXPECT_NE(ErrorOf(b, "m.model").find("booster \"dart!!\" is not supported"), std::string::npos);
  b.replace(b.find("dart!!"), 6, "da\nr\x1b!");  // control bytes are escaped in the message
  EXPECT_NE(ErrorOf(b, "m.model").find("booster \"da\\x0ar\\x1b!\""), std::string::npos);
  b = Binary();
  PutU32(&b, 4 + 20, 0);  // major version 0: base_score would be a margin
  EXPECT_NE(ErrorOf(b, "m.model").find("XGBoost < 1.0"), std::string::npos);
  b = Binary();
  b.replace(b.find("{\"name\""), 1, "[");
  EXPECT_NE(ErrorOf(b, "m.model").find("attribute \"objective\" is not a JSON object"),
            std::string::npos);
}

TEST(ModelFormatErrors, UbjsonCorruptAndWrongTypesAreNamed) {
  std::string u = Ubjson();
  // left_children as float32 instead of int32: XGBoost refuses the cast, so do we.
  u[u.find("left_children[$l") + 15] = 'd';
  EXPECT_EQ(ErrorOf(u, "m.ubj"),
            "m.ubj: /learner/gradient_booster/model/trees/0/left_children/0: expected an "
            "integer, got a float");
  u = Ubjson();
  u[u.find("base_weights[$d") + 14] = 'q';
  EXPECT_NE(ErrorOf(u, "m.ubj").find("unsupported typed array type 'q'"), std::string::npos);
  u = Ubjson();
  u[0] = '{';
  u[1] = '?';
  EXPECT_NE(ErrorOf(u, "m.json").find("m.json: not valid JSON"), std::string::npos);
  EXPECT_NE(ErrorOf(std::string(1000, '['), "deep.ubj").find("nested deeper than 64"),
            std::string::npos);
  EXPECT_NE(ErrorOf(Ubjson() + "Z", "m.ubj").find("1 bytes after the end of the document"),
            std::string::npos);
}

// Flips, inserts, deletes or cuts bytes of a valid file.
std::string Mutate(std::string b, std::mt19937_64& rng) {
  const int edits = 1 + static_cast<int>(rng() % 4);
  for (int e = 0; e < edits && !b.empty(); ++e) {
    const std::size_t at = rng() % b.size();
    const char byte =
        static_cast<char>(rng() % 4 == 0 ? "\0\xff{}[]$#LlidUS"[rng() % 14] : rng() % 256);
    switch (rng() % 4) {
      case 0:
        b[at] = byte;
        break;
      case 1:
        b.insert(at, 1, byte);
        break;
      case 2:
        b.erase(at, 1 + rng() % 4);
        break;
      default:
        b.resize(at);
    }
  }
  return b;
}

// Whatever loads must save in every format and load back the same.
void CheckLoaded(const GBTreeModel& model) {
  for (const ModelFormat f :
       {ModelFormat::kJson, ModelFormat::kUbjson, ModelFormat::kLegacyBinary}) {
    auto bytes = SerializeModelAs(model, f);
    ASSERT_TRUE(bytes.ok()) << bytes.status().message();
    auto back = ParseModel(bytes.value(), "again");
    ASSERT_TRUE(back.ok()) << back.status().message();
    ASSERT_EQ(back->trees.size(), model.trees.size());
  }
}

TEST(ModelFormatErrors, MutatedFilesFailCleanlyWithinBudget) {
  constexpr auto kBudget = std::chrono::seconds(2);  // per format
  for (const auto& [valid, name] : {std::pair{Ubjson(), "f.ubj"}, {Binary(), "f.model"}}) {
    std::mt19937_64 rng(17);
    const auto start = std::chrono::steady_clock::now();
    int runs = 0, loaded = 0;
    while (std::chrono::steady_clock::now() - start < kBudget && runs < 100000) {
      ++runs;
      const std::string bytes = Mutate(valid, rng);
      auto model = ParseModel(bytes, name);
      if (model.ok()) {
        ++loaded;
        CheckLoaded(model.value());
        continue;
      }
      ASSERT_EQ(model.status().code(), StatusCode::kInvalidInput);
      ASSERT_EQ(model.status().message().rfind(std::string(name) + ": ", 0), 0u)
          << model.status().message();
      ASSERT_EQ(model.status().message().find('\n'), std::string::npos);
    }
    EXPECT_GT(runs, 200) << name;  // a loaded machine or ASan still runs this many
    std::printf("%s: %d mutated files, %d loaded\n", name, runs, loaded);
  }
}

}  // namespace
}  // namespace treering::booster
