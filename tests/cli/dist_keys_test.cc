// The distributed-training keys of the CLI: debug_synchronize (boolean) and
// single_worker_seconds (a finite number >= 0), their defaults and their error messages.
#include <gtest/gtest.h>

#include "cli_params.h"

namespace treering::cli {
namespace {

Result<CliOptions> Build(std::initializer_list<std::pair<const char*, const char*>> kv) {
  std::vector<ConfigEntry> entries;
  for (const auto& [k, v] : kv) entries.push_back({k, v, "d.conf:1"});
  static const std::vector<booster::ParamDoc> kNoLearnerKeys;
  return BuildOptions(entries, kNoLearnerKeys);
}

TEST(DistKeys, DefaultsAreOff) {
  auto o = Build({{"data", "a"}});
  ASSERT_TRUE(o.ok()) << o.status().message();
  EXPECT_FALSE(o->debug_synchronize);
  EXPECT_EQ(o->single_worker_seconds, 0.0);
}

TEST(DistKeys, ValuesAreParsed) {
  auto o = Build({{"data", "a"}, {"debug_synchronize", "true"}, {"single_worker_seconds", "12.5"}});
  ASSERT_TRUE(o.ok()) << o.status().message();
  EXPECT_TRUE(o->debug_synchronize);
  EXPECT_EQ(o->single_worker_seconds, 12.5);
  o = Build({{"data", "a"}, {"single_worker_seconds", "3e2"}});
  ASSERT_TRUE(o.ok());
  EXPECT_EQ(o->single_worker_seconds, 300.0);
}

TEST(DistKeys, BadValuesNameTheKeyAndWhatIsExpected) {
  for (const char* bad : {"-1", "abc", "1.5s", "inf", "nan", ""}) {
    auto o = Build({{"data", "a"}, {"single_worker_seconds", bad}});
    ASSERT_FALSE(o.ok()) << bad;
    EXPECT_EQ(o.status().code(), StatusCode::kInvalidInput);
    EXPECT_EQ(o.status().message(), std::string("d.conf:1: single_worker_seconds = ") + bad +
                                        ": expected a number in [0, inf)");
  }
  auto o = Build({{"data", "a"}, {"debug_synchronize", "2"}});
  ASSERT_FALSE(o.ok());
  EXPECT_EQ(o.status().message(),
            "d.conf:1: debug_synchronize = 2: expected 0 or 1 (or false/true)");
}

}  // namespace
}  // namespace treering::cli
