// Pre-flight's link test line (booster/cli/preflight_links.h): both ends named with host,
// interface and address; ranks that could not listen; a long list cut after 8.
#include "preflight_links.h"

#include <gtest/gtest.h>

namespace treering::cli {
namespace {

TEST(PreflightLinksTest, NamesBothEnds) {
  const std::vector<LinkEndpoint> ends = {{"h0", "eth0", "10.0.0.1", 40001, ""},
                                          {"h1", "eth0", "10.0.0.2", 40123, ""},
                                          {"h2", "?", "fd00::3", 40200, ""},
                                          {"h3", "eth0", "10.0.0.4", 40555, ""}};
  EXPECT_FALSE(LinkTestMismatch(ends, {}));
  const auto line = LinkTestMismatch(ends, {{1, 3, "connection refused"}, {0, 2, "no answer"}});
  ASSERT_TRUE(line);
  EXPECT_EQ(*line,
            "rank 1 (h1, eth0 10.0.0.2:40123) cannot reach rank 3 (h3, eth0 10.0.0.4:40555): "
            "connection refused; rank 0 (h0, eth0 10.0.0.1:40001) cannot reach rank 2 (h2, ? "
            "[fd00::3]:40200): no answer");
}

TEST(PreflightLinksTest, ARankThatCannotListenAndALongList) {
  std::vector<LinkEndpoint> ends(12, {"h", "lo", "127.0.0.1", 1, ""});
  ends[5].error = "cannot listen on 10.9.9.9: cannot assign requested address";
  std::vector<LinkFailure> failures;
  for (int r = 0; r < 10; ++r) failures.push_back({r, 11, "connection refused"});
  const auto line = LinkTestMismatch(ends, failures);
  ASSERT_TRUE(line);
  EXPECT_EQ(line->rfind("rank 5 (h) cannot listen on 10.9.9.9", 0), 0u) << *line;
  EXPECT_NE(line->find("; and 3 more"), std::string::npos) << *line;
}

}  // namespace
}  // namespace treering::cli
