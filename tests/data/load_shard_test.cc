// Sharding: part p of n holds exactly the rows whose line starts in bytes
// [p*total/n, (p+1)*total/n) of the concatenated input, so every row is read by exactly one
// part, in order. The expectation is computed here from the text, independently of the loader.
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "data/load.h"
#include "temp_dir.h"

namespace treering::data {
namespace {

using treering::testing::TempDir;

// Rows labelled 0, 1, 2, ... with random lengths, some blank and comment lines between them.
struct ShardText {
  std::string text;
  std::vector<std::uint64_t> row_starts;  // byte offset of each row's line
};

ShardText MakeText(std::mt19937_64& rng, int rows, std::uint64_t first_label,
                   bool trailing_newline) {
  ShardText out;
  for (int r = 0; r < rows; ++r) {
    if (rng() % 6 == 0) out.text += rng() % 2 ? "# comment\n" : "\n";
    out.row_starts.push_back(out.text.size());
    out.text += std::to_string(first_label + r);
    const int entries = static_cast<int>(rng() % 12);
    for (int e = 0; e < entries; ++e)
      out.text.append(" ").append(std::to_string(e * 3)).append(":0.5");
    if (r + 1 < rows || trailing_newline) out.text += "\n";
  }
  return out;
}

// Labels of the rows whose (global) line start falls in part `part` of `nparts`.
std::vector<float> ExpectedLabels(const std::vector<std::uint64_t>& starts, std::uint64_t total,
                                  int part, int nparts) {
  const std::uint64_t begin = total * part / nparts;
  const std::uint64_t end = total * (part + 1) / nparts;
  std::vector<float> labels;
  for (std::size_t r = 0; r < starts.size(); ++r) {
    if (starts[r] >= begin && starts[r] < end) labels.push_back(static_cast<float>(r));
  }
  return labels;
}

void ExpectPartsFollowTheRule(const std::string& uri, const std::vector<std::uint64_t>& starts,
                              std::uint64_t total, int nparts, int nthread) {
  std::vector<float> all;
  for (int part = 0; part < nparts; ++part) {
    Result<DMatrix> m = Load(uri, {part, nparts}, Context{.nthread = nthread});
    ASSERT_TRUE(m.ok()) << m.status().message();
    EXPECT_EQ(m->label, ExpectedLabels(starts, total, part, nparts))
        << "part " << part << " of " << nparts << ", " << nthread << " threads";
    all.insert(all.end(), m->label.begin(), m->label.end());
  }
  ASSERT_EQ(all.size(), starts.size()) << nparts << " parts";
  for (std::size_t r = 0; r < all.size(); ++r) ASSERT_EQ(all[r], static_cast<float>(r));
}

TEST(LoadShard, OneFileRandomSizesNparts1To16) {
  std::mt19937_64 rng(11);
  TempDir dir;
  for (int trial = 0; trial < 12; ++trial) {
    const int rows = static_cast<int>(rng() % 200);
    const ShardText data = MakeText(rng, rows, 0, trial % 2 == 0);
    const std::string file = dir.Write("shard.libsvm", data.text);
    for (int nparts = 1; nparts <= 16; ++nparts) {
      ExpectPartsFollowTheRule(file, data.row_starts, data.text.size(), nparts, 1 + trial % 2);
    }
  }
}

TEST(LoadShard, ManyPartsOnASmallFileLeaveSomePartsEmpty) {
  std::mt19937_64 rng(12);
  TempDir dir;
  const ShardText data = MakeText(rng, 5, 0, false);
  const std::string file = dir.Write("tiny.libsvm", data.text);
  for (int nparts : {17, 64, 255, 256, 1000}) {
    ExpectPartsFollowTheRule(file, data.row_starts, data.text.size(), nparts, 2);
  }
}

TEST(LoadShard, PartCountsUpTo256) {
  std::mt19937_64 rng(16);
  TempDir dir;
  const ShardText data = MakeText(rng, 300, 0, false);
  const std::string file = dir.Write("mid.libsvm", data.text);
  for (int nparts : {17, 31, 32, 33, 63, 64, 100, 127, 128, 200, 255, 256}) {
    ExpectPartsFollowTheRule(file, data.row_starts, data.text.size(), nparts, 2);
  }
}

TEST(LoadShard, MultiThreadedPartsOfALargerFile) {
  std::mt19937_64 rng(13);
  TempDir dir;
  const ShardText data = MakeText(rng, 60000, 0, true);  // ~1.5 MB: several threads per part
  const std::string file = dir.Write("large.libsvm", data.text);
  for (int nparts : {1, 2, 3, 5}) {
    ExpectPartsFollowTheRule(file, data.row_starts, data.text.size(), nparts, 4);
  }
}

// Three files (one empty, the last without a trailing newline) split by their total bytes.
struct FileSet {
  TempDir dir;
  std::vector<std::uint64_t> starts;
  std::uint64_t total = 0;
};

void MakeFileSet(std::mt19937_64& rng, FileSet* set) {
  const int rows[] = {37, 0, 52};
  std::uint64_t label = 0;
  for (int f = 0; f < 3; ++f) {
    const ShardText data = MakeText(rng, rows[f], label, f != 2);
    for (std::uint64_t s : data.row_starts) set->starts.push_back(set->total + s);
    set->dir.Write(std::string("part-").append(std::to_string(f)).append(".libsvm"), data.text);
    set->total += data.text.size();
    label += rows[f];
  }
  set->dir.Write("other.txt", "not data\n");
}

TEST(LoadShard, CommaListSplitsByTotalBytes) {
  std::mt19937_64 rng(14);
  FileSet set;
  MakeFileSet(rng, &set);
  const std::string uri = set.dir.Path("part-0.libsvm") + "," + set.dir.Path("part-1.libsvm") +
                          "," + set.dir.Path("part-2.libsvm");
  for (int nparts = 1; nparts <= 16; ++nparts) {
    ExpectPartsFollowTheRule(uri, set.starts, set.total, nparts, 2);
  }
}

TEST(LoadShard, GlobIsSortedByName) {
  std::mt19937_64 rng(15);
  FileSet set;
  MakeFileSet(rng, &set);
  for (int nparts = 1; nparts <= 16; ++nparts) {
    ExpectPartsFollowTheRule(set.dir.Path("part-*.libsvm") + "?format=libsvm", set.starts,
                             set.total, nparts, 1);
  }
}

TEST(LoadShard, RejectsBadPartNumbers) {
  TempDir dir;
  const std::string file = dir.Write("a.libsvm", "1 0:1\n");
  for (const LoadOptions& bad : {LoadOptions{1, 1}, LoadOptions{-1, 2}, LoadOptions{0, 0}}) {
    Result<DMatrix> m = Load(file, bad);
    ASSERT_FALSE(m.ok());
    EXPECT_EQ(m.status().code(), StatusCode::kInvalidInput);
    EXPECT_NE(m.status().message().find("nparts"), std::string::npos) << m.status().message();
  }
}

}  // namespace
}  // namespace treering::data
