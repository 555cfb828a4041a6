// The XGBoost CLI config syntax, case by case, and errors that name file:line.
#include "config_file.h"

#include <gtest/gtest.h>

namespace treering::cli {
namespace {

std::vector<ConfigEntry> Parse(std::string_view text) {
  auto entries = ParseConfigText(text, "t.conf");
  EXPECT_TRUE(entries.ok()) << entries.status().message();
  return entries.ok() ? entries.value() : std::vector<ConfigEntry>{};
}

std::string ErrorOf(std::string_view text) {
  auto entries = ParseConfigText(text, "t.conf");
  EXPECT_FALSE(entries.ok());
  if (entries.ok()) return "";
  EXPECT_EQ(entries.status().code(), StatusCode::kInvalidInput);
  return entries.status().message();
}

TEST(ConfigFile, PairsCommentsBlankLinesAndOrigins) {
  const auto e = Parse(
      "# header\n\nbooster = gbtree\n  max_depth=6   # inline comment\n"
      "eta\t=\t0.3\r\n");
  ASSERT_EQ(e.size(), 3u);
  EXPECT_EQ(e[0].key, "booster");
  EXPECT_EQ(e[0].value, "gbtree");
  EXPECT_EQ(e[0].origin, "t.conf:3");
  EXPECT_EQ(e[1].key, "max_depth");
  EXPECT_EQ(e[1].value, "6");
  EXPECT_EQ(e[1].origin, "t.conf:4");
  EXPECT_EQ(e[2].value, "0.3");  // tabs and CRLF trimmed
}

TEST(ConfigFile, QuotedValuesKeepHashEqualsAndSpaces) {
  const auto e = Parse(
      "data = \"train.libsvm?format=libsvm\"\n"
      "name_pred = 'my preds #1.txt'  # comment\n"
      "\"eval[test]\" = \"a b\"\n");
  ASSERT_EQ(e.size(), 3u);
  EXPECT_EQ(e[0].value, "train.libsvm?format=libsvm");
  EXPECT_EQ(e[1].value, "my preds #1.txt");
  EXPECT_EQ(e[2].key, "eval[test]");
  EXPECT_EQ(e[2].value, "a b");
}

TEST(ConfigFile, UnquotedValueUpToComment) {
  const auto e = Parse("data = train.libsvm?format=libsvm#cache\n");
  ASSERT_EQ(e.size(), 1u);
  EXPECT_EQ(e[0].value, "train.libsvm?format=libsvm");  // '#' starts a comment, as XGBoost
}

TEST(ConfigFile, RepeatedKeysAreKeptInOrder) {
  const auto e =
      Parse("eval_metric = merror\neval_metric = mlogloss\nmax_depth = 2\nmax_depth = 3\n");
  ASSERT_EQ(e.size(), 4u);
  EXPECT_EQ(e[0].value, "merror");
  EXPECT_EQ(e[1].value, "mlogloss");
  EXPECT_EQ(e[3].value, "3");
}

TEST(ConfigFile, ErrorsNameFileAndLine) {
  EXPECT_EQ(ErrorOf("eta = 0.3\njust some words\n"),
            "t.conf:2: expected `key = value`, got 'just some words'");
  EXPECT_EQ(ErrorOf("\n\nmax depth = 3\n"), "t.conf:3: a key cannot contain spaces: 'max depth'");
  EXPECT_EQ(ErrorOf("eta =\n"), "t.conf:1: key 'eta' has no value");
  EXPECT_EQ(ErrorOf("= 3\n"), "t.conf:1: expected `key = value`, got '= 3'");
  EXPECT_EQ(ErrorOf("data = \"unterminated\n"), "t.conf:1: unterminated \" quote");
  EXPECT_EQ(ErrorOf("data = \"a\" b\n"),
            "t.conf:1: unexpected text after the value in "
            "'data = \"a\" b'");
}

TEST(ConfigFile, EmptyQuotedValueIsAllowed) {
  const auto e = Parse("model_out = \"\"\n");
  ASSERT_EQ(e.size(), 1u);
  EXPECT_EQ(e[0].value, "");
}

TEST(ConfigFile, ByteOrderMarkIsSkipped) {
  const auto e = Parse(
      "\xEF\xBB\xBF"
      "booster = gbtree\r\n");
  ASSERT_EQ(e.size(), 1u);
  EXPECT_EQ(e[0].key, "booster");
}

TEST(ConfigFile, MissingFileNamesPath) {
  auto entries = ParseConfigFile("/no/such/train.conf");
  ASSERT_FALSE(entries.ok());
  EXPECT_EQ(entries.status().code(), StatusCode::kInvalidInput);
  EXPECT_NE(entries.status().message().find("/no/such/train.conf"), std::string::npos);
}

TEST(ConfigFile, DevNullIsAnEmptyConfig) {
  auto entries = ParseConfigFile("/dev/null");
  ASSERT_TRUE(entries.ok()) << entries.status().message();
  EXPECT_TRUE(entries->empty());
}

TEST(ConfigFile, CommandLinePairs) {
  auto e = ParseCommandLinePair("test:data=a=b.libsvm");
  ASSERT_TRUE(e.ok());
  EXPECT_EQ(e->key, "test:data");
  EXPECT_EQ(e->value, "a=b.libsvm");  // split at the first '='
  EXPECT_EQ(e->origin, "command line");
  for (const char* bad : {"novalue", "=x", "key="}) {
    auto r = ParseCommandLinePair(bad);
    ASSERT_FALSE(r.ok()) << bad;
    EXPECT_EQ(r.status().message(),
              std::string("command line: expected key=value, got '") + bad + "'");
  }
}

}  // namespace
}  // namespace treering::cli

namespace treering::cli {
namespace {

// Files saved with old Mac line ends (CR only) read as XGBoost reads them; CRLF counts once.
TEST(ConfigFile, LoneCarriageReturnEndsALine) {
  const auto e = Parse("booster = gbtree\reta = 0.3\r\rmax_depth = 4\r\n");
  ASSERT_EQ(e.size(), 3u);
  EXPECT_EQ(e[1].value, "0.3");
  EXPECT_EQ(e[1].origin, "t.conf:2");
  EXPECT_EQ(e[2].key, "max_depth");
  EXPECT_EQ(e[2].origin, "t.conf:4");
  EXPECT_EQ(ErrorOf("a = 1\rb = 2\r\nnot a pair\n"),
            "t.conf:3: expected `key = value`, got 'not a pair'");
}

}  // namespace
}  // namespace treering::cli
