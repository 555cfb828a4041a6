// Loading over HTTP from an in-process `treering-data serve` (net::FileServer answering
// data::DataQueries, on loopback): every shard equal to the local-file load, resume after cut
// connections, the counting pass answered by the server, tokens, a file changed during a load,
// and ?summary. The server's own answers to hostile requests are tested in tests/net.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <random>
#include <string>
#include <thread>

#include <gtest/gtest.h>

#include "data/data_queries.h"
#include "data/load.h"
#include "libsvm_writer.h"
#include "matrix_compare.h"
#include "net/file_server.h"
#include "raw_http.h"
#include "temp_dir.h"

namespace treering::data {
namespace {

using net::FileServer;
using net::FileServerOptions;
using treering::testing::RawExchange;
using treering::testing::TempDir;

std::string RandomLibsvm(std::uint64_t seed, std::size_t rows) {
  std::mt19937_64 rng(seed);
  testing::RowOptions options;
  options.weight_probability = 1;  // every row or none: XGBoost's rule (docs/data.md)
  return testing::LibsvmText(testing::RandomRows(rng, rows, options), testing::Spelling{}, rng);
}

// `treering-data serve DIR`: the file server answering the loader's queries.
FileServerOptions ServeOptions(const std::string& dir) {
  FileServerOptions options;
  options.dir = dir;
  options.queries = DataQueries();
  return options;
}

// `options` with every GET the server answers counted in `gets` (the resume tests compare the
// count with and without cut replies).
FileServerOptions CountingGets(FileServerOptions options, std::atomic<int>* gets) {
  options.test_on_request = [gets](const std::string& method, const std::string&) {
    if (method == "GET") ++*gets;
  };
  return options;
}

DMatrix LoadLocal(const std::string& path) {
  Result<DMatrix> m = Load(path);
  if (!m.ok()) throw std::runtime_error(m.status().message());
  return std::move(*m);
}

std::unique_ptr<FileServer> StartServer(FileServerOptions options) {
  options.access_log = false;
  auto server = FileServer::Start(options);
  if (!server.ok()) throw std::runtime_error(server.status().message());
  return std::move(*server);
}

std::string UrlOf(const FileServer& server, const std::string& name) {
  return "http://127.0.0.1:" + std::to_string(server.port()) + "/" + name;
}

class ScopedEnv {
 public:
  ScopedEnv(const char* name, const char* value) : name_(name) {
    if (value) {
      setenv(name, value, 1);
    } else {
      unsetenv(name);
    }
  }
  ~ScopedEnv() { unsetenv(name_); }

 private:
  const char* name_;
};

TEST(HttpLoad, EveryShardEqualsTheLocalLoad) {
  TempDir dir;
  const std::string local = dir.Write("train.libsvm", RandomLibsvm(1, 3000));
  dir.Write("b.libsvm", RandomLibsvm(2, 500));
  auto server = StartServer(ServeOptions(dir.path()));
  const std::string list = UrlOf(*server, "train.libsvm") + "," + UrlOf(*server, "b.libsvm");
  const std::string local_list =
      local + "," + (std::filesystem::path(dir.path()) / "b.libsvm").string();
  for (int nparts : {1, 2, 3, 4}) {
    for (int part = 0; part < nparts; ++part) {
      for (int threads : {1, 3}) {
        const LoadOptions o{part, nparts};
        const Context ctx{.nthread = threads};
        Result<DMatrix> want = Load(local_list, o, ctx);
        Result<DMatrix> got = Load(list, o, ctx);
        ASSERT_TRUE(want.ok()) << want.status().message();
        ASSERT_TRUE(got.ok()) << got.status().message();
        SCOPED_TRACE("part " + std::to_string(part) + " of " + std::to_string(nparts));
        testing::ExpectSameMatrix(*got, *want);
      }
    }
  }
}

// Every cut reply costs exactly one more GET (resumed from the last byte received), and the
// matrix is the same as the local one.
TEST(HttpLoad, ResumesAfterCutConnections) {
  TempDir dir;
  const std::string local = dir.Write("train.libsvm", RandomLibsvm(3, 4000));
  std::atomic<int> gets{0};
  auto plain_server = StartServer(CountingGets(ServeOptions(dir.path()), &gets));
  ASSERT_TRUE(
      Load(UrlOf(*plain_server, "train.libsvm"), LoadOptions{0, 1}, Context{.nthread = 1}).ok());
  const int gets_without_cuts = gets.exchange(0);

  FileServerOptions options = CountingGets(ServeOptions(dir.path()), &gets);
  options.test_drop_after = 1000;
  options.test_drop_count = 6;  // fewer than the client's attempts per range
  auto server = StartServer(options);
  Result<DMatrix> got =
      Load(UrlOf(*server, "train.libsvm"), LoadOptions{0, 1}, Context{.nthread = 1});
  ASSERT_TRUE(got.ok()) << got.status().message();
  testing::ExpectSameMatrix(*got, LoadLocal(local));
  EXPECT_EQ(gets.load(), gets_without_cuts + 6);
}

// A chunk of several read-ahead blocks (1 MiB each, up to three held): replies cut in the
// middle of the second block, while the parser is still on the first, resume where they broke
// off, one GET per cut, and the rows are those of the local file, whatever the thread count.
TEST(HttpLoad, ReadAheadResumesCutsInsideAChunk) {
  TempDir dir;
  const std::string local = dir.Write("train.libsvm", RandomLibsvm(7, 20000));
  const std::uint64_t size = std::filesystem::file_size(local);
  constexpr std::uint64_t kCut = (3u << 19) + 123;  // half way through the second block
  ASSERT_GT(size, 2 * kCut) << "too small: a reply must be cut twice";
  ASSERT_LT(size, 3 * kCut) << "too large: the third reply must not be cut";
  const DMatrix want = LoadLocal(local);
  std::atomic<int> gets{0};
  auto plain_server = StartServer(CountingGets(ServeOptions(dir.path()), &gets));
  for (int threads : {1, 2}) {
    SCOPED_TRACE("threads " + std::to_string(threads));
    gets = 0;
    Result<DMatrix> uncut =
        Load(UrlOf(*plain_server, "train.libsvm"), LoadOptions{0, 1}, Context{.nthread = threads});
    ASSERT_TRUE(uncut.ok()) << uncut.status().message();
    testing::ExpectSameMatrix(*uncut, want);
    const int gets_without_cuts = gets.exchange(0);

    FileServerOptions options = CountingGets(ServeOptions(dir.path()), &gets);
    options.test_drop_after = kCut;
    options.test_drop_count = 4;  // the first four file replies stop after kCut bytes
    auto server = StartServer(options);
    Result<DMatrix> got =
        Load(UrlOf(*server, "train.libsvm"), LoadOptions{0, 1}, Context{.nthread = threads});
    ASSERT_TRUE(got.ok()) << got.status().message();
    testing::ExpectSameMatrix(*got, want);
    if (threads == 1) {
      // One chunk: the server counts it, so the only file reply is the parsing pass's, cut
      // twice (its resumed reply is still longer than kCut, the next one is not).
      EXPECT_EQ(gets.load(), gets_without_cuts + 2);
    } else {
      // Chunks of ~300 KiB and 16 KiB line-start probes: which replies are long enough to be
      // cut depends on the order threads ask, but each cut costs exactly one more GET.
      EXPECT_GE(gets.load(), gets_without_cuts);
      EXPECT_LE(gets.load(), gets_without_cuts + 4);
    }
  }
}

// The parsing pass parses in place in the received blocks, with room in front of each for the
// line the block before left unfinished (64 KiB): lines longer than that room, and longer than a
// whole block (1 MiB), are joined in the loader's buffer instead. Same rows as the local load,
// with and without a newline at the end of the file.
TEST(HttpLoad, LinesLongerThanABlockAreJoined) {
  std::string text;
  for (int r = 0; r < 24; ++r) {
    const int entries = r % 8 == 3 ? 120000 : (r % 8 == 6 ? 9000 : 1 + r);  // ~1.2 MB, ~90 KB
    text += std::to_string(r % 2);
    for (int i = 0; i < entries; ++i) {
      text += ' ';
      text += std::to_string(i * 3 + r % 3);
      text += ":0.5";
    }
    text += "\n";
  }
  ASSERT_GT(text.size(), 3u << 20);  // several blocks
  TempDir dir;
  for (const bool trailing_newline : {true, false}) {
    SCOPED_TRACE(trailing_newline ? "newline at the end" : "no newline at the end");
    const std::string name = trailing_newline ? "a.libsvm" : "b.libsvm";
    const std::string local =
        dir.Write(name, trailing_newline ? text : text.substr(0, text.size() - 1));
    auto server = StartServer(ServeOptions(dir.path()));
    for (int threads : {1, 2}) {
      for (int nparts : {1, 3}) {
        for (int part = 0; part < nparts; ++part) {
          const LoadOptions o{part, nparts};
          const Context ctx{.nthread = threads};
          Result<DMatrix> want = Load(local, o, ctx);
          Result<DMatrix> got = Load(UrlOf(*server, name), o, ctx);
          ASSERT_TRUE(want.ok()) << want.status().message();
          ASSERT_TRUE(got.ok()) << got.status().message();
          testing::ExpectSameMatrix(*got, *want);
        }
      }
    }
  }
}

// The counting pass asks the server (GET FILE?counts, a few bytes) instead of fetching the
// chunk; a server that does not count gets the chunk fetched twice, with the same matrix.
// LibSVM and CSV (whose count depends on label_column).
TEST(HttpLoad, CountingPassAsksTheServerOrFetches) {
  TempDir dir;
  const std::string libsvm = dir.Write("train.libsvm", RandomLibsvm(9, 3000));
  const std::string csv = dir.Write("train.csv", "1,2,4,3\n0,,5,6\n\n1,7,8,\n");
  for (bool count_ranges : {true, false}) {
    SCOPED_TRACE(count_ranges ? "server counts" : "server does not count");
    std::atomic<int> counts{0};
    std::atomic<int> reads{0};
    FileServerOptions options = ServeOptions(dir.path());
    options.queries = DataQueries(count_ranges);
    options.test_on_request = [&](const std::string& method, const std::string& target) {
      if (method != "GET") return;
      ++(target.find("?counts") != std::string::npos ? counts : reads);
    };
    auto server = StartServer(options);
    Result<DMatrix> got =
        Load(UrlOf(*server, "train.libsvm"), LoadOptions{0, 1}, Context{.nthread = 1});
    ASSERT_TRUE(got.ok()) << got.status().message();
    testing::ExpectSameMatrix(*got, LoadLocal(libsvm));
    EXPECT_EQ(counts.load(), 1);  // one chunk; without server counts, asked once only
    EXPECT_EQ(reads.load(), count_ranges ? 1 : 2);
    for (const char* label_column : {"0", "2"}) {
      const std::string options_text = std::string("?format=csv&label_column=") + label_column;
      Result<DMatrix> got_csv = Load(UrlOf(*server, "train.csv") + options_text);
      ASSERT_TRUE(got_csv.ok()) << got_csv.status().message();
      testing::ExpectSameMatrix(*got_csv, LoadLocal(csv + options_text));
    }
  }
  auto server = StartServer(ServeOptions(dir.path()));
  EXPECT_NE(RawExchange(server->port(), "GET /train.libsvm?counts HTTP/1.1\r\nHost: x\r\n\r\n")
                .find("416"),
            std::string::npos);
  EXPECT_NE(RawExchange(server->port(),
                        "GET /train.libsvm?counts&format=xml HTTP/1.1\r\nHost: x\r\n"
                        "Range: bytes=0-9\r\n\r\n")
                .find("400"),
            std::string::npos);
  const std::string reply = RawExchange(
      server->port(),
      "GET /train.csv?counts&format=csv HTTP/1.1\r\nHost: x\r\nRange: bytes=0-14\r\n\r\n");
  EXPECT_NE(reply.find("\"rows\": 2"), std::string::npos) << reply;
  EXPECT_NE(reply.find("\"entries\": 5"), std::string::npos) << reply;
}

// A bad line while later blocks are still being received: the load stops with the line's
// place (the fetch thread is stopped, not waited out to the end of the chunk).
TEST(HttpLoad, ParseErrorWhileReadingAheadNamesTheLine) {
  TempDir dir;
  const std::string good = RandomLibsvm(8, 12000);
  const std::size_t lines = static_cast<std::size_t>(std::count(good.begin(), good.end(), '\n'));
  dir.Write("bad.libsvm", good + "1 0:1 x\n" + good);
  auto server = StartServer(ServeOptions(dir.path()));
  const std::string url = UrlOf(*server, "bad.libsvm");
  Result<DMatrix> got = Load(url, LoadOptions{0, 1}, Context{.nthread = 1});
  ASSERT_FALSE(got.ok());
  EXPECT_EQ(got.status().message(),
            url + ":" + std::to_string(lines + 1) + ":7: expected index:value, got 'x'");
}

TEST(HttpLoad, ErrorsNameTheUrlAndStatus) {
  TempDir dir;
  dir.Write("train.libsvm", "1 0:1\n");
  auto server = StartServer(ServeOptions(dir.path()));
  const std::string url = UrlOf(*server, "missing.libsvm");
  Result<DMatrix> got = Load(url);
  ASSERT_FALSE(got.ok());
  EXPECT_EQ(got.status().code(), StatusCode::kInvalidInput);
  EXPECT_EQ(got.status().message(), url + ": HTTP 404 Not Found");
  dir.Write("bad.libsvm", "1 0:1\n1 x:1\n");
  Result<DMatrix> bad = Load(UrlOf(*server, "bad.libsvm"));
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().message(),
            UrlOf(*server, "bad.libsvm") + ":2:3: expected index:value, got 'x:1'");
}

TEST(HttpLoad, TokenIsRequiredAndChecked) {
  TempDir dir;
  const std::string local = dir.Write("train.libsvm", RandomLibsvm(4, 200));
  FileServerOptions options = ServeOptions(dir.path());
  options.token = "s3cret-token";
  auto server = StartServer(options);
  const std::string url = UrlOf(*server, "train.libsvm");
  {
    ScopedEnv none("TREERING_DATA_TOKEN", nullptr);
    Result<DMatrix> got = Load(url);
    ASSERT_FALSE(got.ok());
    EXPECT_EQ(got.status().message(),
              url +
                  ": HTTP 401 Unauthorized (the server wants a token: set TREERING_DATA_TOKEN "
                  "or TREERING_DATA_TOKEN_FILE)");
  }
  {
    ScopedEnv wrong("TREERING_DATA_TOKEN", "s3cret-tokeX");
    Result<DMatrix> got = Load(url);
    ASSERT_FALSE(got.ok());
    EXPECT_EQ(got.status().message(),
              url + ": HTTP 401 Unauthorized (the server refused the token in the environment)");
  }
  {
    const std::string file = dir.Write("token.txt", "s3cret-token\n");
    ScopedEnv from_file("TREERING_DATA_TOKEN_FILE", file.c_str());
    Result<DMatrix> got = Load(url);
    ASSERT_TRUE(got.ok()) << got.status().message();
    testing::ExpectSameMatrix(*got, LoadLocal(local));
  }
  EXPECT_NE(RawExchange(server->port(),
                        "GET /train.libsvm HTTP/1.1\r\nHost: x\r\n"
                        "Authorization: Bearer s3cret-token2\r\n\r\n")
                .find("401"),
            std::string::npos);
}

TEST(HttpLoad, FileChangedDuringTheLoadIsAnError) {
  TempDir dir;
  const std::string local = dir.Write("train.libsvm", RandomLibsvm(5, 2000));
  FileServerOptions options = ServeOptions(dir.path());
  std::atomic<int> gets{0};
  // After the HEAD that fixed the ETag, the first GET finds the file rewritten.
  options.test_on_request = [&](const std::string& method, const std::string&) {
    if (method == "GET" && gets++ == 0) {
      std::filesystem::remove(local);
      dir.Write("train.libsvm", RandomLibsvm(6, 2000));
    }
  };
  auto server = StartServer(options);
  const std::string url = UrlOf(*server, "train.libsvm");
  Result<DMatrix> got = Load(url, LoadOptions{1, 2}, Context{.nthread = 1});
  ASSERT_FALSE(got.ok());
  EXPECT_EQ(got.status().code(), StatusCode::kIoError);
  EXPECT_EQ(got.status().message().rfind(url + ": the file changed on the server during the load "
                                               "(HTTP 412 Precondition Failed: ETag \"",
                                         0),
            0u)
      << got.status().message();
}

// GET FILE?summary: the file loaded once with the loader; a parse error is 422 naming the file
// as the client wrote it, never the server's own path.
TEST(DataQueries, SummaryLoadsTheFile) {
  TempDir dir;
  dir.Write("f", "1 0:1 3:2\n0 1:1\n");
  dir.Write("bad", "1 0:1\nnonsense\n");
  auto server = StartServer(ServeOptions(dir.path()));
  std::string r = RawExchange(server->port(), "GET /f?summary HTTP/1.1\r\nHost: x\r\n\r\n");
  EXPECT_NE(r.find("\"rows\": 2"), std::string::npos) << r;
  EXPECT_NE(r.find("\"non_zeros\": 3"), std::string::npos) << r;
  r = RawExchange(server->port(), "GET /bad?summary HTTP/1.1\r\nHost: x\r\n\r\n");
  EXPECT_EQ(r.substr(0, r.find("\r\n")), "HTTP/1.1 422 Unprocessable Entity") << r;
  EXPECT_NE(r.find("bad:2"), std::string::npos) << r;
  EXPECT_EQ(r.find(dir.path()), std::string::npos) << r;
  r = RawExchange(server->port(), "GET /f?nonsense HTTP/1.1\r\nHost: x\r\n\r\n");
  EXPECT_NE(r.find("unknown query (known: summary, counts)"), std::string::npos) << r;
}

}  // namespace
}  // namespace treering::data
