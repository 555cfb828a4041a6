// The library-wide calls: versions, build facts, per-thread errors and configuration, and the
// log callback, through the C API only.
#include <cstring>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "treering/c_api.h"

namespace {

std::string GetConfig() {
  const char* out = nullptr;
  EXPECT_EQ(XGBGetGlobalConfig(&out), 0) << XGBGetLastError();
  return out == nullptr ? "" : out;
}

// The lines the callback received (the callback is a plain C function pointer).
std::mutex lines_mutex;
std::vector<std::string> lines;
void Collect(const char* line) {
  std::lock_guard lock(lines_mutex);
  lines.emplace_back(line);
}

// Each test starts from XGBoost's defaults on the main thread.
class CapiGlobal : public testing::Test {
 protected:
  void SetUp() override {
    ASSERT_EQ(XGBSetGlobalConfig(R"({"verbosity": 1, "use_rmm": false})"), 0);
  }
  void TearDown() override {
    EXPECT_EQ(XGBSetGlobalConfig(R"({"verbosity": 1, "use_rmm": false})"), 0);
  }
};

TEST(CapiVersion, VersionIsTheApiImplemented) {
  int major = 0, minor = 0, patch = 0;
  XGBoostVersion(&major, &minor, &patch);
  EXPECT_EQ(major, 1);
  EXPECT_EQ(minor, 7);
  EXPECT_EQ(patch, 4);
  XGBoostVersion(nullptr, nullptr, nullptr);  // any pointer may be null
}

TEST_F(CapiGlobal, BuildInfoIsJsonWithXgboostKeysAndTreeringVersion) {
  const char* info = nullptr;
  ASSERT_EQ(XGBuildInfo(&info), 0) << XGBGetLastError();
  const std::string s = info;
  EXPECT_EQ(s.front(), '{');
  EXPECT_NE(s.find("\"USE_OPENMP\":true"), std::string::npos) << s;
  EXPECT_NE(s.find("\"USE_CUDA\":false"), std::string::npos) << s;
  EXPECT_NE(s.find("\"TREERING_VERSION\":\"0."), std::string::npos) << s;
  EXPECT_EQ(XGBuildInfo(nullptr), -1);
  EXPECT_STREQ(XGBGetLastError(), "XGBuildInfo: out is null");
}

TEST_F(CapiGlobal, LastErrorIsPerThread) {
  EXPECT_EQ(XGBSetGlobalConfig(nullptr), -1);
  EXPECT_STREQ(XGBGetLastError(), "XGBSetGlobalConfig: config is null");
  std::string other;
  std::thread([&] { other = XGBGetLastError(); }).join();
  EXPECT_EQ(other, "");
}

TEST_F(CapiGlobal, ConfigDefaultsSetAndRead) {
  std::string fresh;  // a thread that never set anything sees the defaults
  std::thread([&] { fresh = GetConfig(); }).join();
  EXPECT_EQ(fresh, R"({"use_rmm":false,"verbosity":1})");
  ASSERT_EQ(XGBSetGlobalConfig(R"({"verbosity": 3})"), 0) << XGBGetLastError();
  EXPECT_EQ(GetConfig(), R"({"use_rmm":false,"verbosity":3})");
  // XGBoost reads every value as text: strings, integral floats and booleans as strings work.
  ASSERT_EQ(XGBSetGlobalConfig(R"({"verbosity": "2", "use_rmm": "true"})"), 0);
  EXPECT_EQ(GetConfig(), R"({"use_rmm":true,"verbosity":2})");
  ASSERT_EQ(XGBSetGlobalConfig(R"({"verbosity": 0.0, "use_rmm": false})"), 0);
  EXPECT_EQ(GetConfig(), R"({"use_rmm":false,"verbosity":0})");
}

TEST_F(CapiGlobal, ConfigRefusesBadValuesAndUnknownKeysAndChangesNothing) {
  ASSERT_EQ(XGBSetGlobalConfig(R"({"verbosity": 2})"), 0);
  struct Case {
    const char* config;
    const char* message_part;
  };
  for (const Case& c :
       {Case{R"({"verbosity": 4})", "verbosity: expected an integer in [0, 3]"},
        Case{R"({"verbosity": 1.5})", "verbosity"}, Case{R"({"verbosity": "loud"})", "verbosity"},
        Case{R"({"use_rmm": 2})", "use_rmm: expected true or false"},
        Case{R"({"verbosity": 0, "nthread": 4})", "unknown global parameter 'nthread'"},
        Case{R"([1, 2])", "expected a JSON object"}, Case{R"({"verbosity": )", "not valid JSON"}}) {
    EXPECT_EQ(XGBSetGlobalConfig(c.config), -1) << c.config;
    EXPECT_NE(std::string(XGBGetLastError()).find(c.message_part), std::string::npos)
        << c.config << " -> " << XGBGetLastError();
    EXPECT_EQ(GetConfig(), R"({"use_rmm":false,"verbosity":2})") << c.config;
  }
  EXPECT_EQ(XGBGetGlobalConfig(nullptr), -1);
  EXPECT_STREQ(XGBGetLastError(), "XGBGetGlobalConfig: out_config is null");
}

TEST_F(CapiGlobal, ConfigIsPerThreadAsInXgboost) {
  ASSERT_EQ(XGBSetGlobalConfig(R"({"verbosity": 3})"), 0);
  std::string seen;
  std::thread([&] { seen = GetConfig(); }).join();
  EXPECT_EQ(seen, R"({"use_rmm":false,"verbosity":1})");
  EXPECT_EQ(GetConfig(), R"({"use_rmm":false,"verbosity":3})");
}

// XGCommunicatorInit reports the keys it drops at info level (2): the callback gets the line at
// verbosity 2 and nothing at the default 1; a null callback restores stderr.
TEST_F(CapiGlobal, LogLinesGoToTheCallbackAtTheGlobalVerbosity) {
  ASSERT_EQ(XGBRegisterLogCallback(Collect), 0);
  ASSERT_EQ(XGCommunicatorInit(R"({"rabit_debug": 1})"), 0) << XGBGetLastError();
  ASSERT_EQ(XGCommunicatorFinalize(), 0) << XGBGetLastError();
  {
    std::lock_guard lock(lines_mutex);
    EXPECT_TRUE(lines.empty()) << lines.front();
  }
  ASSERT_EQ(XGBSetGlobalConfig(R"({"verbosity": 2})"), 0);
  ASSERT_EQ(XGCommunicatorInit(R"({"rabit_debug": 1})"), 0) << XGBGetLastError();
  ASSERT_EQ(XGCommunicatorFinalize(), 0) << XGBGetLastError();
  {
    std::lock_guard lock(lines_mutex);
    ASSERT_EQ(lines.size(), 2u);
    EXPECT_EQ(lines[0],
              "XGCommunicatorInit: rabit_debug ignored (an XGBoost engine setting treering has "
              "no use for)");
    EXPECT_EQ(lines[1], "XGCommunicatorInit: rank 0 of 1");
    lines.clear();
  }
  ASSERT_EQ(XGBRegisterLogCallback(nullptr), 0);
  testing::internal::CaptureStderr();
  ASSERT_EQ(XGCommunicatorInit("{}"), 0) << XGBGetLastError();
  ASSERT_EQ(XGCommunicatorFinalize(), 0);
  EXPECT_EQ(testing::internal::GetCapturedStderr(), "XGCommunicatorInit: rank 0 of 1\n");
  std::lock_guard lock(lines_mutex);
  EXPECT_TRUE(lines.empty());
}

}  // namespace
