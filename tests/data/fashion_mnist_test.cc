// Fashion-MNIST through the real loader (integration: converts the Debian dataset with the
// demo's script, ~20 s). Expected shapes are the dataset's published ones: 60000 and 10000
// rows of 28x28 = 784 pixels, 6000 / 1000 images per class 0..9.
#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <string>

#include <gtest/gtest.h>

#include "data/load.h"
#include "temp_dir.h"

namespace treering::data {
namespace {

constexpr const char* kDataset = "/usr/share/datasets/fashion-mnist";

// Non-zero pixels the converter wrote: one ':' per entry (the file has no weights or qids).
std::uint64_t CountColons(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return static_cast<std::uint64_t>(
      std::count(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>(), ':'));
}

void ExpectFashionSet(const std::string& path, std::size_t rows, std::uint64_t per_label) {
  Result<DMatrix> m = Load(path + "?format=libsvm", {0, 1}, Context{.nthread = 2});
  ASSERT_TRUE(m.ok()) << m.status().message();
  EXPECT_EQ(m->NumRows(), rows);
  EXPECT_LE(m->num_col, 784u);  // 1 + largest index seen: a pixel never lit stays absent
  EXPECT_GE(m->num_col, 780u);
  EXPECT_LT(*std::max_element(m->index.begin(), m->index.end()), 784u);
  EXPECT_EQ(m->NumNonZero(), CountColons(path));
  std::map<float, std::uint64_t> counts;
  for (float y : m->label) ++counts[y];
  ASSERT_EQ(counts.size(), 10u);
  for (const auto& [label, count] : counts) {
    EXPECT_EQ(count, per_label) << "label " << label;
    EXPECT_EQ(label, static_cast<float>(static_cast<int>(label)));
  }
}

TEST(FashionMnist, LoadsWithPublishedShapesAndClassCounts) {
  if (!std::filesystem::exists(kDataset))
    GTEST_SKIP() << kDataset << " absent (dataset-fashion-mnist)";
  treering::testing::TempDir dir;
  const std::string command = std::string("/usr/bin/python3 ") + TREERING_FASHION_SCRIPT + " " +
                              dir.path() + " > /dev/null";
  ASSERT_EQ(std::system(command.c_str()), 0) << command;
  ExpectFashionSet(dir.Path("fashion.train.libsvm"), 60000, 6000);
  ExpectFashionSet(dir.Path("fashion.test.libsvm"), 10000, 1000);
}

}  // namespace
}  // namespace treering::data
