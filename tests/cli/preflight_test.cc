// Pre-flight's comparison of the ranks' configurations (booster/cli/preflight.h).
#include "preflight.h"

#include <gtest/gtest.h>

namespace treering::cli {
namespace {

TEST(PreflightTest, EntriesAreSortedAndTheLastValueWins) {
  CliOptions o;
  o.num_round = 5;
  o.learner_params = {{"max_depth", "4"}, {"eta", "0.1"}, {"max_depth", "6"}};
  o.data = "/mnt/a/train.libsvm";  // paths may differ between hosts: not compared
  EXPECT_EQ(PreflightEntries(o, "0.1.0"),
            (std::vector<std::string>{"booster=gbtree", "eta=0.1", "max_depth=6", "num_round=5",
                                      "treering_version=0.1.0"}));
}

TEST(PreflightTest, AgreeingRanksPass) {
  const std::vector<std::string> e = {"booster=gbtree", "max_depth=6"};
  EXPECT_FALSE(PreflightMismatch({e, e, e}));
}

TEST(PreflightTest, NamesEveryKeyAndTheRanksOnEachSide) {
  const std::vector<std::string> a = {"max_depth=6", "treering_version=0.1.0"};
  const std::vector<std::string> b = {"max_depth=4", "treering_version=0.1.0"};
  const std::vector<std::string> c = {"eta=0.3", "max_depth=6", "treering_version=0.0.9"};
  auto m = PreflightMismatch({a, a, b, a, c});
  ASSERT_TRUE(m);
  EXPECT_EQ(*m,
            "eta: (unset) on ranks 0-3, 0.3 on rank 4; max_depth: 6 on ranks 0-1,3-4, 4 on rank 2; "
            "treering_version: 0.1.0 on ranks 0-3, 0.0.9 on rank 4");
}

}  // namespace
}  // namespace treering::cli
