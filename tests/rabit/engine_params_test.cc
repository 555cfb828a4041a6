// rabit's parameter table: an unknown rabit_* key is an error naming the nearest known key (in
// ReadEngineParams, in rabit::Init and in the CheckParam the CLI calls), DMLC_* / dmlc_* keys of
// other components and the program's own arguments are ignored, and every error carries the key.
#include "engine_params.h"

#include <cstdlib>
#include <map>

#include <gtest/gtest.h>

#include "rabit/params.h"
#include "rabit/rabit.h"

namespace rabit::engine {
namespace {

TEST(EngineParamKeys, UnknownRabitKeyIsAnErrorWithTheNearestKey) {
  auto p = ReadEngineParams({{"rabit_timout", "5"}});
  ASSERT_FALSE(p.ok());
  EXPECT_EQ(p.status().code(), treering::StatusCode::kInvalidInput);
  EXPECT_EQ(p.status().key(), "rabit_timout");
  EXPECT_EQ(p.status().message(), "unknown key 'rabit_timout' (did you mean 'rabit_timeout'?)");
  p = ReadEngineParams({{"rabit_frobnicate", "1"}});
  ASSERT_FALSE(p.ok());
  EXPECT_EQ(p.status().message(), "unknown key 'rabit_frobnicate'");  // nothing plausible
}

// XGBoost4J passes DMLC_WORKER_STOP_PROCESS_ON_ERROR to Rabit.init, dmlc launchers DMLC_ROLE;
// programs pass their whole command line.
TEST(EngineParamKeys, OtherComponentsKeysAndProgramArgumentsAreIgnored) {
  auto p = ReadEngineParams({{"DMLC_WORKER_STOP_PROCESS_ON_ERROR", "false"},
                             {"DMLC_ROLE", "worker"},
                             {"dmlc_worker_connect_retry", "3"},
                             {"num_round", "10"},
                             {"rabit_timeout", "7"}});
  ASSERT_TRUE(p.ok()) << p.status().message();
  EXPECT_DOUBLE_EQ(p->timeout_seconds, 7);
}

TEST(EngineParamKeys, AliasesAndEnvironmentNamesAsArguments) {
  auto p = ReadEngineParams({{"rabit_num_trial", "3"}, {"TREERING_MAX_ATTEMPTS", "4"}});
  ASSERT_TRUE(p.ok()) << p.status().message();
  EXPECT_EQ(p->num_attempt, 3u);
  EXPECT_EQ(p->max_attempts, 4u);
  EXPECT_EQ(ReadEngineParams({{"DMLC_NUM_ATTEMPT", "2"}})->num_attempt, 2u);
}

// rabit_hang_report: a key like XGBoost users' other rabit_* keys, also read from the
// environment under its own name; unset is -1 (the tracker's --hang-report applies).
TEST(EngineParamKeys, HangReportFromKeyOrEnvironment) {
  EXPECT_EQ(ReadEngineParams({})->hang_report_seconds, -1);
  EXPECT_EQ(ReadEngineParams({{"rabit_hang_report", "5"}})->hang_report_seconds, 5);
  EXPECT_EQ(ReadEngineParams({{"rabit_hang_report", "0"}})->hang_report_seconds, 0);
  setenv("rabit_hang_report", "7.5", 1);
  EXPECT_EQ(ReadEngineParams({})->hang_report_seconds, 7.5);
  EXPECT_EQ(ReadEngineParams({{"rabit_hang_report", "2"}})->hang_report_seconds, 2);  // key wins
  unsetenv("rabit_hang_report");
  auto bad = ReadEngineParams({{"rabit_hang_report", "-1"}});
  EXPECT_EQ(bad.status().key(), "rabit_hang_report");
  EXPECT_NE(bad.status().message().find("seconds >= 0"), std::string::npos);
}

TEST(EngineParamKeys, BadValuesCarryTheKeyAsWritten) {
  auto p = ReadEngineParams({{"rabit_timeout", "soon"}});
  EXPECT_EQ(p.status().key(), "rabit_timeout");
  EXPECT_EQ(p.status().message(), "rabit_timeout: expected seconds > 0, got 'soon'");
  p = ReadEngineParams({{"DMLC_NUM_ATTEMPT", "x"}});
  EXPECT_EQ(p.status().key(), "DMLC_NUM_ATTEMPT");
  p = ReadEngineParams({{"rabit_max_attempts", "0"}});
  EXPECT_EQ(p.status().message(), "rabit_max_attempts: expected attempts >= 1, got '0'");
}

TEST(EngineParamKeys, CheckParamIsInitsCheckWithoutTheEnvironment) {
  setenv("DMLC_TRACKER_PORT", "0", 1);  // bad, but not CheckParam's business
  const bool environment_fails = !ReadEngineParams({}).ok();
  const treering::Status good = CheckParam("rabit_timeout", "5");
  unsetenv("DMLC_TRACKER_PORT");
  EXPECT_TRUE(environment_fails);
  EXPECT_TRUE(good.ok()) << good.message();
  EXPECT_EQ(CheckParam("rabit_timout", "5").key(), "rabit_timout");
  EXPECT_NE(CheckParam("rabit_timout", "5").message().find("did you mean 'rabit_timeout'"),
            std::string::npos);
  EXPECT_FALSE(CheckParam("mock", "1,2").ok());
  EXPECT_FALSE(CheckParam("rabit_engine", "carrier-pigeon").ok());
  EXPECT_TRUE(CheckParam("DMLC_ROLE", "worker").ok());
  EXPECT_TRUE(CheckParam("mock", "1,2,3,0").ok());
}

TEST(EngineParamKeys, WhichKeysAreRabits) {
  for (const char* key : {"rabit_timeout", "rabit_timout", "DMLC_TASK_ID", "dmlc_x", "mock"}) {
    EXPECT_TRUE(IsParamKey(key)) << key;
  }
  for (const char* key : {"num_round", "mocks", "TREERING_MAX_ATTEMPTS", "rabit"}) {
    EXPECT_FALSE(IsParamKey(key)) << key;
  }
}

// The documented defaults are read from EngineParams{}, so they cannot drift from the code.
TEST(EngineParamKeys, DocsShowTheDefaultsTheEngineUses) {
  std::map<std::string, std::string> defaults;
  for (const treering::ParamDoc& d : ParamDocs()) defaults[d.key] = d.default_value;
  EXPECT_EQ(defaults.at("rabit_reduce_ring_mincount"), "auto");
  EXPECT_EQ(defaults.at("rabit_allreduce"), "auto");
  EXPECT_EQ(defaults.at("rabit_link_latency_us"), "20");
  EXPECT_EQ(defaults.at("rabit_link_bandwidth_mbps"), "20000");
  EXPECT_EQ(defaults.at("rabit_tracker_port"), "9091");
  EXPECT_EQ(defaults.at("rabit_timeout"), "300");
  EXPECT_EQ(defaults.at("rabit_world_size"), "-1");
  EXPECT_EQ(defaults.at("rabit_num_trial"), "0");  // the alias row
  for (const auto& [env, key] : EnvironmentNames()) EXPECT_EQ(defaults.count(key), 1u) << env;
}

// Library users pass their argv to Init: a rabit_* typo is rabit::Error, not a silent default.
TEST(EngineParamKeys, InitRejectsAnUnknownRabitKey) {
  char prog[] = "prog", typo[] = "rabit_timout=5", role[] = "DMLC_ROLE=worker", own[] = "-v";
  char* argv[] = {prog, role, own, typo};
  try {
    rabit::Init(4, argv);
    ADD_FAILURE() << "Init accepted rabit_timout";
    rabit::Finalize();
  } catch (const rabit::Error& e) {
    EXPECT_NE(std::string(e.what()).find("unknown key 'rabit_timout' (did you mean "
                                         "'rabit_timeout'?)"),
              std::string::npos)
        << e.what();
  }
  char* fine[] = {prog, role, own};
  EXPECT_NO_THROW(rabit::Init(3, fine));  // no tracker: the single engine
  EXPECT_EQ(rabit::GetWorldSize(), 1);
  rabit::Finalize();
}

}  // namespace
}  // namespace rabit::engine
