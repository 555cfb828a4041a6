// The collective calls in a world of one (no tracker): what every call accepts and refuses,
// and that rabit's failures come back as -1 with their message. tracker_workers_test.c runs
// the same calls on three processes under an in-process tracker.
#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "treering/c_api.h"

namespace {

std::string Error() { return XGBGetLastError(); }

class CapiCollective : public testing::Test {
 protected:
  void SetUp() override { ASSERT_EQ(XGCommunicatorInit("{}"), 0) << Error(); }
  void TearDown() override { EXPECT_EQ(XGCommunicatorFinalize(), 0) << Error(); }
};

TEST_F(CapiCollective, WorldOfOne) {
  EXPECT_EQ(XGCommunicatorGetRank(), 0);
  EXPECT_EQ(XGCommunicatorGetWorldSize(), 1);
  EXPECT_EQ(XGCommunicatorIsDistributed(), 0);
  const char* name = nullptr;
  ASSERT_EQ(XGCommunicatorGetProcessorName(&name), 0) << Error();
  EXPECT_GT(std::string(name).size(), 0u);
  EXPECT_EQ(XGCommunicatorGetProcessorName(nullptr), -1);
  EXPECT_EQ(Error(), "XGCommunicatorGetProcessorName: name_str is null");
}

TEST_F(CapiCollective, AllreduceOfEveryTypeAndOpKeepsOneRanksValues) {
  std::int8_t i8[2] = {-3, 5};
  std::uint8_t u8[2] = {250, 6};
  std::int32_t i32[2] = {-70000, 9};
  std::uint32_t u32[2] = {4000000000u, 3};
  std::int64_t i64[2] = {-(1LL << 40), 7};
  std::uint64_t u64[2] = {1ULL << 63, 2};
  float f[2] = {1.5f, -2.25f};
  double d[2] = {1e300, -0.5};
  void* buffers[8] = {i8, u8, i32, u32, i64, u64, f, d};
  for (int type = 0; type < 8; ++type) {
    const int last_op = type < 6 ? 5 : 2;  // bitwise ops on integers only
    for (int op = 0; op <= last_op; ++op) {
      EXPECT_EQ(XGCommunicatorAllreduce(buffers[type], 2, type, op), 0)
          << "type " << type << " op " << op << ": " << Error();
    }
  }
  EXPECT_EQ(i8[0], -3);
  EXPECT_EQ(u8[0], 250);
  EXPECT_EQ(i32[0], -70000);
  EXPECT_EQ(u32[0], 4000000000u);
  EXPECT_EQ(i64[0], -(1LL << 40));
  EXPECT_EQ(u64[0], 1ULL << 63);
  EXPECT_EQ(f[1], -2.25f);
  EXPECT_EQ(d[0], 1e300);
}

TEST_F(CapiCollective, AllreduceRefusesWhatItCannotDo) {
  float f[1] = {1};
  EXPECT_EQ(XGCommunicatorAllreduce(f, 1, 6, 4), -1);
  EXPECT_EQ(Error(), "XGCommunicatorAllreduce: op 4: bitwise operations need an integer data_type");
  EXPECT_EQ(XGCommunicatorAllreduce(f, 1, 8, 2), -1);
  EXPECT_NE(Error().find("data_type: 8 is not a data type (0 int8"), std::string::npos) << Error();
  EXPECT_EQ(XGCommunicatorAllreduce(f, 1, 6, 6), -1);
  EXPECT_NE(Error().find("op: 6 is not an operation"), std::string::npos) << Error();
  EXPECT_EQ(XGCommunicatorAllreduce(f, 1, 6, -1), -1);
  EXPECT_EQ(XGCommunicatorAllreduce(nullptr, 3, 6, 2), -1);
  EXPECT_EQ(Error(), "XGCommunicatorAllreduce: send_receive_buffer is null");
  EXPECT_EQ(XGCommunicatorAllreduce(nullptr, 0, 6, 2), 0) << Error();
}

TEST_F(CapiCollective, BroadcastAndPrint) {
  char text[6] = "hello";
  EXPECT_EQ(XGCommunicatorBroadcast(text, sizeof(text), 0), 0) << Error();
  EXPECT_STREQ(text, "hello");
  EXPECT_EQ(XGCommunicatorBroadcast(text, sizeof(text), 1), -1);
  EXPECT_EQ(Error(), "XGCommunicatorBroadcast: root: 1 is not a rank (world size 1)");
  EXPECT_EQ(XGCommunicatorBroadcast(nullptr, 4, 0), -1);
  EXPECT_EQ(Error(), "XGCommunicatorBroadcast: send_receive_buffer is null");
  testing::internal::CaptureStdout();
  EXPECT_EQ(XGCommunicatorPrint("progress 1/3"), 0) << Error();
  EXPECT_NE(testing::internal::GetCapturedStdout().find("progress 1/3"), std::string::npos);
  EXPECT_EQ(XGCommunicatorPrint(nullptr), -1);
  EXPECT_EQ(Error(), "XGCommunicatorPrint: message is null");
}

TEST_F(CapiCollective, SecondInitIsRefused) {
  EXPECT_EQ(XGCommunicatorInit("{}"), -1);
  EXPECT_EQ(Error(),
            "XGCommunicatorInit: the communicator is already initialized (call "
            "XGCommunicatorFinalize first)");
}

TEST(CapiCommunicatorInit, RefusesBadConfigsNamingTheKey) {
  struct Case {
    const char* config;
    const char* message;
  };
  for (const Case& c : {
           Case{R"({"nthread": 4})", "config: unknown key 'nthread'"},
           Case{R"({"rabit_timout": 5})", "did you mean 'rabit_timeout'"},
           Case{R"({"rabit_timeout_sec": "soon"})",
                "config: rabit_timeout_sec (as rabit_timeout): rabit_timeout: expected seconds"},
           Case{R"({"dmlc_timeout": -3})",
                "config: dmlc_timeout (as rabit_timeout): rabit_timeout"},
           Case{R"({"dmlc_tracker_port": 0})", "config: dmlc_tracker_port (as DMLC_TRACKER_PORT)"},
           Case{R"({"DMLC_TRACKER_PORT": 70000})", "a port 1..65535"},
           Case{R"({"federated_server_address": "h:1"})", "federated learning is not supported"},
           Case{R"({"xgboost_communicator": "federated"})", "federated learning"},
           Case{R"({"dmlc_communicator": "nccl"})", "unknown communicator 'nccl'"},
           Case{R"({"DMLC_TASK_ID": [1]})", "DMLC_TASK_ID: expected a string, number"},
           Case{R"({"a": )", "not valid JSON"},
       }) {
    EXPECT_EQ(XGCommunicatorInit(c.config), -1) << c.config;
    EXPECT_NE(Error().find(c.message), std::string::npos) << c.config << " -> " << Error();
    EXPECT_EQ(XGCommunicatorGetWorldSize(), 1);
  }
}

TEST(CapiCommunicatorInit, NullConfigAndXgboostKeysGiveAWorldOfOne) {
  ASSERT_EQ(XGCommunicatorInit(nullptr), 0) << Error();
  ASSERT_EQ(XGCommunicatorFinalize(), 0) << Error();
  // XGBoost 1.7's documented rabit keys that mean nothing here are accepted and dropped.
  ASSERT_EQ(XGCommunicatorInit(R"({"xgboost_communicator": "rabit", "rabit_hadoop_mode": false,
      "rabit_reduce_buffer": "256MB", "rabit_timeout": true, "rabit_timeout_sec": 60,
      "DMLC_ROLE": "worker", "dmlc_retry": 3})"),
            0)
      << Error();
  EXPECT_EQ(XGCommunicatorGetWorldSize(), 1);
  ASSERT_EQ(XGCommunicatorFinalize(), 0) << Error();
}

// A tracker that is not there: rabit's failure (lower-case dmlc_ keys and numbers reach it as
// DMLC_TRACKER_URI / PORT) comes back as -1 with rabit's message, within the bootstrap timeout.
TEST(CapiCommunicatorInit, RabitFailureIsAnErrorNotACrash) {
  const auto start = std::chrono::steady_clock::now();
  EXPECT_EQ(XGCommunicatorInit(R"({"dmlc_tracker_uri": "127.0.0.1", "dmlc_tracker_port": 1,
      "rabit_bootstrap_timeout": 1.5})"),
            -1);
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_LT(s, 30);
  EXPECT_NE(Error().find("XGCommunicatorInit: rabit Init"), std::string::npos) << Error();
  EXPECT_EQ(XGCommunicatorGetWorldSize(), 1);
  ASSERT_EQ(XGCommunicatorInit("{}"), 0) << Error();  // not left half-initialized
  ASSERT_EQ(XGCommunicatorFinalize(), 0) << Error();
}

}  // namespace
