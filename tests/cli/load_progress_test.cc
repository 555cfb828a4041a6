// The loader's progress line (booster/cli/load_progress.h): its text and its bytes.
#include "load_progress.h"

#include <gtest/gtest.h>

namespace treering::cli {
namespace {

TEST(LoadProgressTest, Text) {
  EXPECT_EQ(FormatLoadProgress("data = t.libsvm", {1, 45'200'000, 120'000'000, 0}, 0.5),
            "data = t.libsvm: counting 45.2 of 120.0 MB, 90.4 MB/s");
  EXPECT_EQ(FormatLoadProgress("data = t.libsvm", {2, 1'000'000, 2'000'000, 1234}, 0),
            "data = t.libsvm: parsing 1.0 of 2.0 MB, 0.0 MB/s, 1234 rows");
}

TEST(LoadProgressTest, DrawsInPlaceAndErasesAtTheEndOnlyWhenEnabled) {
  char* text = nullptr;
  std::size_t size = 0;
  std::FILE* out = open_memstream(&text, &size);
  data::LoadOptions off_options, on_options;
  {
    LoadProgressLine off("x", false, out);
    off.Attach(&off_options);
    LoadProgressLine on("d", true, out);
    on.Attach(&on_options);
    on_options.progress({2, 0, 1'000'000, 7});
  }
  std::fclose(out);
  EXPECT_FALSE(off_options.progress);
  EXPECT_EQ(std::string(text, size), "\r\033[Kd: parsing 0.0 of 1.0 MB, 0.0 MB/s, 7 rows\r\033[K");
  std::free(text);
}

}  // namespace
}  // namespace treering::cli
