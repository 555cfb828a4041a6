// SplitUbjsonSnapshot: XGBoost 1.7's pickle {"Config": ..., "Model": ...} split into the config
// (as JSON text) and the model's own bytes, which must be exactly the UBJSON model file; any
// truncated or damaged snapshot is one kInvalidInput line naming the source, never a crash or
// a read past the end (the sanitizer pass runs this too).
#include <chrono>
#include <cstdint>
#include <random>
#include <string>

#include <gtest/gtest.h>

#include "booster/model_formats.h"
#include "model_test_util.h"

namespace treering::booster {
namespace {

std::string Key(const std::string& k) {
  std::string out(1, 'L');
  for (int shift = 56; shift >= 0; shift -= 8) out.push_back(static_cast<char>(k.size() >> shift));
  return out + k;
}

std::string ModelBytes() { return ModelToUbjson(testing::SmallModel()).value(); }

// {"Config": {"learner": {"name": "x", "n": [1, 2]}}, "Model": <model file>}: the config with
// a string, an int8 and a counted array, as XGBoost's writer makes them.
std::string Snapshot() {
  const std::string config = "{" + Key("learner") + "{" + Key("name") + "S" + Key("x") + Key("n") +
                             "[#" + std::string("i\x02") + "i\x01i\x02" + "}}";
  return "{" + Key("Config") + config + Key("Model") + ModelBytes() + "}";
}

TEST(UbjsonSnapshot, SplitsConfigAndModelBytes) {
  std::string config;
  std::string_view model;
  const std::string snapshot = Snapshot();
  ASSERT_TRUE(SplitUbjsonSnapshot(snapshot, "buf", &config, &model).ok());
  EXPECT_EQ(config, R"({"learner":{"n":[1,2],"name":"x"}})");
  EXPECT_EQ(model, ModelBytes());
  auto parsed = ParseModel(model, "buf: Model");
  ASSERT_TRUE(parsed.ok()) << parsed.status().message();
  EXPECT_EQ(parsed->trees.size(), testing::SmallModel().trees.size());
}

TEST(UbjsonSnapshot, AModelAloneIsNoSnapshot) {
  std::string config;
  std::string_view model;
  const Status st = SplitUbjsonSnapshot(ModelBytes(), "buf", &config, &model);
  EXPECT_EQ(st.code(), StatusCode::kInvalidInput);
  EXPECT_EQ(st.message(), R"(buf: not a booster snapshot ({"Config", "Model"}))");
}

void ExpectCleanResult(const std::string& bytes) {
  std::string config;
  std::string_view model;
  const Status st = SplitUbjsonSnapshot(bytes, "buf", &config, &model);
  if (st.ok()) {  // then the views lie inside the input
    ASSERT_GE(model.data(), bytes.data());
    ASSERT_LE(model.data() + model.size(), bytes.data() + bytes.size());
    return;
  }
  ASSERT_EQ(st.code(), StatusCode::kInvalidInput);
  ASSERT_EQ(st.message().rfind("buf", 0), 0u) << st.message();
  ASSERT_EQ(st.message().find('\n'), std::string::npos);
}

TEST(UbjsonSnapshot, TruncatedSnapshotsAreErrors) {
  const std::string snapshot = Snapshot();
  for (std::size_t n = 0; n < snapshot.size(); ++n) {
    std::string config;
    std::string_view model;
    EXPECT_FALSE(SplitUbjsonSnapshot(snapshot.substr(0, n), "buf", &config, &model).ok()) << n;
  }
}

TEST(UbjsonSnapshot, MutatedSnapshotsFailCleanlyWithinBudget) {
  const std::string valid = Snapshot();
  std::mt19937_64 rng(29);
  const auto start = std::chrono::steady_clock::now();
  int runs = 0;
  while (std::chrono::steady_clock::now() - start < std::chrono::seconds(1) && runs < 50000) {
    ++runs;
    std::string b = valid;
    for (int e = 1 + static_cast<int>(rng() % 4); e > 0 && !b.empty(); --e) {
      const std::size_t at = rng() % b.size();
      const char byte =
          static_cast<char>(rng() % 3 == 0 ? "\0\xff{}[]$#LlidUSZ"[rng() % 15] : rng() % 256);
      if (rng() % 2) {
        b[at] = byte;
      } else {
        b.insert(at, 1, byte);
      }
    }
    ExpectCleanResult(b);
  }
  EXPECT_GT(runs, 200);
}

}  // namespace
}  // namespace treering::booster
