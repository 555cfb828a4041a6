// Dense loads without the index array (LoadOptions::omit_dense_index, docs/data.md "Memory"):
// the same matrix as an ordinary load, less the ids, and the ids never resident while loading.
#include <cstdio>
#include <fstream>
#include <random>
#include <sstream>
#include <string>

#include <gtest/gtest.h>

#include "data/load.h"
#include "temp_dir.h"

namespace treering::data {
namespace {

using treering::testing::TempDir;

// rows x features, every feature present; with `last_row_shifted` the last row holds features
// 1..features instead (same count, not dense), so the loader only finds out at the end.
std::string DenseText(int rows, int features, bool last_row_shifted) {
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> u(-3.0f, 3.0f);
  std::string text;
  char buf[32];
  for (int r = 0; r < rows; ++r) {
    text += r % 2 ? "1" : "0";
    const int first = last_row_shifted && r == rows - 1 ? 1 : 0;
    for (int f = first; f < first + features; ++f) {
      std::snprintf(buf, sizeof buf, " %d:%.5f", f, u(rng));
      text += buf;
    }
    text += '\n';
  }
  return text;
}

DMatrix MustLoad(const std::string& uri, bool omit, int nthread = 2) {
  LoadOptions options;
  options.omit_dense_index = omit;
  Result<DMatrix> m = Load(uri, options, Context{.nthread = nthread});
  EXPECT_TRUE(m.ok()) << m.status().message();
  return m.ok() ? std::move(*m) : DMatrix{};
}

void ExpectSame(const DMatrix& a, const DMatrix& b) {
  EXPECT_EQ(a.row_ptr, b.row_ptr);
  EXPECT_EQ(a.index, b.index);
  EXPECT_EQ(a.value, b.value);
  EXPECT_EQ(a.label, b.label);
  EXPECT_EQ(a.num_col, b.num_col);
}

// Peak resident set (VmHWM) in KiB; writing 5 to clear_refs resets it to the current RSS.
long PeakKiB() {
  std::ifstream status("/proc/self/status");
  std::string line;
  while (std::getline(status, line)) {
    if (line.rfind("VmHWM:", 0) == 0) return std::stol(line.substr(6));
  }
  return -1;
}
bool ResetPeak() {
  std::ofstream clear("/proc/self/clear_refs");
  clear << "5";
  clear.flush();
  return clear.good();
}

TEST(DenseIndex, DenseFileLoadsWithoutIdsAndOtherwiseTheSame) {
  TempDir dir;
  const std::string file = dir.Write("dense.libsvm", DenseText(20000, 28, false));
  const DMatrix plain = MustLoad(file, false);
  DMatrix dense = MustLoad(file, true);
  EXPECT_FALSE(plain.implicit_index);
  ASSERT_TRUE(dense.implicit_index);
  EXPECT_TRUE(dense.index.empty());
  EXPECT_EQ(dense.NumNonZero(), plain.NumNonZero());
  RestoreDenseIndex(&dense);
  EXPECT_FALSE(dense.implicit_index);
  ExpectSame(dense, plain);
}

TEST(DenseIndex, NotDenseAfterAllIsTheOrdinaryMatrix) {
  TempDir dir;
  // Same entry count in every row, but the last row is shifted: the ids handed back while
  // loading the rows before it must be written again.
  const std::string late = dir.Write("late.libsvm", DenseText(20000, 28, true));
  const DMatrix plain = MustLoad(late, false);
  const DMatrix omitted = MustLoad(late, true);
  EXPECT_FALSE(omitted.implicit_index);
  ExpectSame(omitted, plain);
  const std::string sparse = dir.Write("sparse.libsvm", "1 0:1 5:2\n0 1:3 2:4\n1 3:1\n");
  ExpectSame(MustLoad(sparse, true), MustLoad(sparse, false));
}

TEST(DenseIndex, IdsNeverResidentWhileLoading) {
  TempDir dir;
  const int rows = 100000, features = 28;
  const std::string file = dir.Write("big.libsvm", DenseText(rows, features, false));
  if (!ResetPeak()) GTEST_SKIP() << "cannot reset VmHWM through /proc/self/clear_refs";
  auto peak_growth = [&](bool omit) {
    const long before = PeakKiB();
    const DMatrix m = MustLoad(file, omit);
    EXPECT_EQ(m.implicit_index, omit);
    return PeakKiB() - before;
  };
  const long omitted = peak_growth(true);
  ASSERT_TRUE(ResetPeak());
  const long plain = peak_growth(false);
  const long entries_kib = long(rows) * features * 4 / 1024;
  const long rows_kib = long(rows) * (8 + 4) / 1024;
  // values + row_ptr + labels, parser buffers (1 MiB per thread), and at most a quarter of the
  // ids; an ordinary load holds all of them.
  EXPECT_LT(omitted, entries_kib + rows_kib + 4096 + entries_kib / 4)
      << "peak grew by " << omitted << " KiB; values " << entries_kib << " KiB";
  std::printf("peak growth: omitted ids %ld KiB, ordinary load %ld KiB, values %ld KiB\n", omitted,
              plain, entries_kib);
}

}  // namespace
}  // namespace treering::data
