// Every malformed input has one documented outcome (docs/data.md): a kInvalidInput (or
// kIoError) Status whose message names the file, the 1-based line and byte column, and what
// was expected. These tests pin the exact messages.
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "data/load.h"
#include "temp_dir.h"

namespace treering::data {
namespace {

using treering::testing::TempDir;

struct BadCase {
  std::string text;
  std::string where_and_what;  // the message after "FILE:"
};

void ExpectError(const std::string& uri, StatusCode code, const std::string& message,
                 int nthread = 1) {
  Result<DMatrix> m = Load(uri, {0, 1}, Context{.nthread = nthread});
  ASSERT_FALSE(m.ok()) << uri;
  EXPECT_EQ(m.status().code(), code) << m.status().message();
  EXPECT_EQ(m.status().message(), message);
}

TEST(LoadErrors, MalformedLibsvmLinesAreLocated) {
  const std::vector<BadCase> cases = {
      {"1 x:1\n", "1:3: expected index:value, got 'x:1'"},
      {"1 3:\n", "1:3: expected index:value, got '3:'"},
      {"1 3:abc 4:1\n", "1:3: expected index:value, got '3:abc'"},
      {"1 3\n", "1:3: expected index:value, got '3'"},
      {"1 3:1:2\n", "1:3: expected index:value, got '3:1:2'"},
      {"1 0:1 " + std::string(1000, ':') + "\n",
       "1:7: expected index:value, got '" + std::string(40, ':') + "...'"},
      {"qid:3 1:2\n", "1:1: expected label[:weight], got 'qid:3'"},
      {":1 2:3\n", "1:1: expected label[:weight], got ':1'"},
      {"abc 2:3\n", "1:1: expected label[:weight], got 'abc'"},
      {"1:x 2:3\n", "1:1: expected label[:weight], got '1:x'"},
      {"1 qid:x 1:2\n", "1:3: expected qid:N with N an unsigned integer, got 'qid:x'"},
      {"1 qid:-1 1:2\n", "1:3: expected qid:N with N an unsigned integer, got 'qid:-1'"},
      {"1 3:nan\n", "1:3: non-finite value, got '3:nan' (leave a missing feature out instead)"},
      {"1 3:-inf\n", "1:3: non-finite value, got '3:-inf' (leave a missing feature out instead)"},
      {"nan 1:2\n",
       "1:1: non-finite label or weight, got 'nan' (leave a missing feature out instead)"},
      {"1 3:1e39\n", "1:3: value out of float range, got '3:1e39'"},
      {"1 -1:3\n", "1:3: negative feature index, got '-1:3'"},
      {"1 1.5:3\n", "1:3: feature index must be an integer, got '1.5:3'"},
      {"1 4294967296:1\n",
       "1:3: feature index over the limit of 67108863 (at most 67108864 features, docs/data.md), "
       "got '4294967296:1'"},
      {"1 2:1 2:3\n", "1:7: feature index 2 appears twice in the row, got '2:3'"},
      {"1 5:1 2:1 5:2\n", "1:11: feature index 5 appears twice in the row, got '5:2'"},
      {"1 2:1\t\t3:1 1:1 3:7\n", "1:16: feature index 3 appears twice in the row, got '3:7'"},
      {std::string("1 2:1\0 3:4\n", 11), "1:6: unexpected NUL byte"},
      {std::string("\0 1:2\n", 6), "1:1: unexpected NUL byte"},
      {"1 2:1\n1 3:1#c\n0 4:x\n", "3:3: expected index:value, got '4:x'"},
      {"# header\r\n\r\n1 0:1\r\n  \r\n0 1:2 7;1\r\n", "5:7: expected index:value, got '7;1'"},
      {"1 0:1\n0 1:2 x", "2:7: expected index:value, got 'x'"},
  };
  TempDir dir;
  for (const BadCase& c : cases) {
    const std::string file = dir.Write("bad.libsvm", c.text);
    ExpectError(file, StatusCode::kInvalidInput, file + ":" + c.where_and_what);
  }
}

TEST(LoadErrors, OneBasedIndexingRejectsIndexZero) {
  TempDir dir;
  const std::string file = dir.Write("zero.libsvm", "1 1:1\n0 0:2\n");
  ExpectError(file + "?indexing_mode=1", StatusCode::kInvalidInput,
              file +
                  ":2:3: feature index 0 with indexing_mode=1 (1-based indices start at 1), "
                  "got '0:2'");
}

// With errors in both halves of a file, every thread count reports the earlier line.
TEST(LoadErrors, SeveralBadLinesReportTheFirstWhateverTheThreads) {
  std::string text;
  for (int line = 1; line <= 60000; ++line) {
    if (line == 1234 || line == 50000) {
      text += "1 0:1 bad:" + std::to_string(line) + "\n";
    } else {
      text += "0 0:1.25 1:2.5 2:3.75\n";
    }
  }
  TempDir dir;
  const std::string file = dir.Write("two-errors.libsvm", text);
  for (int threads : {1, 2, 4}) {
    ExpectError(file, StatusCode::kInvalidInput,
                file + ":1234:7: expected index:value, got 'bad:1234'", threads);
  }
  // Part 1 of 2 does not hold line 1234 and reports its own first error.
  Result<DMatrix> second = Load(file, {1, 2}, Context{.nthread = 2});
  ASSERT_FALSE(second.ok());
  EXPECT_EQ(second.status().message(), file + ":50000:7: expected index:value, got 'bad:50000'");
}

TEST(LoadErrors, FilesThatCannotBeRead) {
  TempDir dir;
  ExpectError(dir.Path("absent.libsvm"), StatusCode::kInvalidInput,
              dir.Path("absent.libsvm") + ": no such file");
  ExpectError(dir.path(), StatusCode::kInvalidInput,
              dir.path() + ": is a directory, expected a data file");
  ExpectError(dir.Path("none-*.libsvm"), StatusCode::kInvalidInput,
              dir.Path("none-*.libsvm") + ": no file matches this pattern");
  ASSERT_EQ(mkfifo(dir.Path("pipe").c_str(), 0600), 0);
  ExpectError(dir.Path("pipe"), StatusCode::kInvalidInput,
              dir.Path("pipe") + ": not a regular file (sharding needs the file size)");
  const std::string good = dir.Write("good.libsvm", "1 0:1\n");
  ExpectError(good + "," + dir.Path("absent.libsvm"), StatusCode::kInvalidInput,
              dir.Path("absent.libsvm") + ": no such file");
  ExpectError(good + ",", StatusCode::kInvalidInput, good + ",: empty file name in the list");
}

TEST(LoadErrors, UnreadableFileIsAnIoError) {
  if (geteuid() == 0) GTEST_SKIP() << "root can read a file without read permission";
  TempDir dir;
  const std::string file = dir.Write("secret.libsvm", "1 0:1\n");
  std::filesystem::permissions(file, std::filesystem::perms::none);
  ExpectError(file, StatusCode::kIoError, file + ": cannot open: Permission denied");
}

TEST(LoadErrors, UriOptionsAreChecked) {
  TempDir dir;
  const std::string file = dir.Write("a.libsvm", "1 0:1\n");
  ExpectError(file + "?format=svm", StatusCode::kInvalidInput,
              file + "?format=svm: unknown format 'svm' (expected format=libsvm or format=csv)");
  ExpectError(file + "?cache=x", StatusCode::kInvalidInput,
              file +
                  "?cache=x: unknown URI option 'cache' (known: format, indexing_mode, "
                  "label_column, float_parsing)");
  ExpectError(file + "?float_parsing=fast", StatusCode::kInvalidInput,
              file + "?float_parsing=fast: float_parsing must be exact or xgboost, got 'fast'");
  ExpectError(file + "?format=csv&float_parsing=xgboost", StatusCode::kInvalidInput,
              file +
                  "?format=csv&float_parsing=xgboost: float_parsing=xgboost applies only to "
                  "format=libsvm");
  ExpectError(file + "?label_column=2", StatusCode::kInvalidInput,
              file + "?label_column=2: label_column applies only to format=csv");
  ExpectError(file + "?format=csv&label_column=x", StatusCode::kInvalidInput,
              file +
                  "?format=csv&label_column=x: label_column must be a column number "
                  "(0-based), got 'x'");
  ExpectError(
      file + "?indexing_mode=-1", StatusCode::kInvalidInput,
      file + "?indexing_mode=-1: indexing_mode must be 0 (0-based) or 1 (1-based), got '-1'");
  ExpectError("", StatusCode::kInvalidInput, "empty data URI");
}

}  // namespace
}  // namespace treering::data
