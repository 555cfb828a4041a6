// Routing and validation of configuration keys: CLI keys typed, learner keys passed on in
// order, rabit keys to rabit::Init, unknown keys named with the nearest valid key.
#include "cli_params.h"

#include <gtest/gtest.h>

#include "base/nearest_key.h"

namespace treering::cli {
namespace {

// A stand-in for GBTreeLearner::Params(): the routing only needs the keys.
const std::vector<booster::ParamDoc>& LearnerDocs() {
  static const std::vector<booster::ParamDoc> kDocs = {{"objective", "reg:squarederror", ""},
                                                       {"max_depth", "6", ""},
                                                       {"eta", "0.3", ""},
                                                       {"eval_metric", "", ""},
                                                       {"num_class", "0", ""}};
  return kDocs;
}

std::vector<ConfigEntry> Entries(std::initializer_list<std::pair<const char*, const char*>> kv) {
  std::vector<ConfigEntry> out;
  int line = 0;
  for (const auto& [k, v] : kv) out.push_back({k, v, "t.conf:" + std::to_string(++line)});
  return out;
}

TEST(CliParams, DefaultsAsXgboostCli) {
  auto o = BuildOptions(Entries({{"data", "d.libsvm"}}), LearnerDocs());
  ASSERT_TRUE(o.ok()) << o.status().message();
  EXPECT_EQ(o->task, Task::kTrain);
  EXPECT_EQ(o->num_round, 10);
  EXPECT_EQ(o->model_dir, "./");
  EXPECT_EQ(o->name_pred, "pred.txt");
  EXPECT_EQ(o->name_dump, "dump.txt");
  EXPECT_EQ(o->save_period, 0);
  EXPECT_FALSE(o->eval_train);
}

TEST(CliParams, RoutesKeysAndKeepsOrder) {
  auto o = BuildOptions(Entries({{"data", "a"},
                                 {"eval_metric", "merror"},
                                 {"eval[test]", "t"},
                                 {"rabit_timeout", "30"},
                                 {"DMLC_TASK_ID", "3"},
                                 {"eval_metric", "mlogloss"},
                                 {"nthread", "2"},
                                 {"eval[valid]", "v"},
                                 {"train_path", "b"},
                                 {"num_round", "0"}}),
                        LearnerDocs());
  ASSERT_TRUE(o.ok()) << o.status().message();
  EXPECT_EQ(o->data, "b");  // the later alias wins
  EXPECT_EQ(o->num_round, 0);
  EXPECT_EQ(o->context.nthread, 2);  // the Context's key, not passed to the learner
  const KeyValues learner{{"eval_metric", "merror"}, {"eval_metric", "mlogloss"}};
  EXPECT_EQ(o->learner_params, learner);
  const KeyValues rabit{{"rabit_timeout", "30"}, {"DMLC_TASK_ID", "3"}};
  EXPECT_EQ(o->rabit_params, rabit);
  ASSERT_EQ(o->evals.size(), 2u);
  EXPECT_EQ(o->evals[0].name, "test");
  EXPECT_EQ(o->evals[1].uri, "v");
  EXPECT_EQ(o->learner_origins.at("eval_metric"), "t.conf:6");
}

TEST(CliParams, LaterEvalSetReplacesInPlace) {
  auto o = BuildOptions(
      Entries({{"data", "a"}, {"eval[test]", "t1"}, {"eval[train2]", "x"}, {"eval[test]", "t2"}}),
      LearnerDocs());
  ASSERT_TRUE(o.ok());
  ASSERT_EQ(o->evals.size(), 2u);
  EXPECT_EQ(o->evals[0].uri, "t2");
}

std::string ErrorOf(std::vector<ConfigEntry> entries) {
  auto o = BuildOptions(entries, LearnerDocs());
  EXPECT_FALSE(o.ok());
  if (o.ok()) return "";
  EXPECT_EQ(o.status().code(), StatusCode::kInvalidInput);
  return o.status().message();
}

TEST(CliParams, UnknownKeyNamesNearest) {
  EXPECT_EQ(ErrorOf(Entries({{"data", "a"}, {"max_dept", "3"}})),
            "t.conf:2: unknown key 'max_dept' (did you mean 'max_depth'?)");
  EXPECT_EQ(ErrorOf(Entries({{"num_rounds", "3"}})),
            "t.conf:1: unknown key 'num_rounds' (did you mean 'num_round'?)");
  EXPECT_EQ(ErrorOf(Entries({{"eval[]", "x"}})),
            "t.conf:1: unknown key 'eval[]' (did you mean 'eval[NAME]'?)");
}

TEST(CliParams, BadValuesNameKeyAndRange) {
  EXPECT_EQ(ErrorOf(Entries({{"data", "a"}, {"num_round", "-1"}})),
            "t.conf:2: num_round = -1: expected an integer in [0, 100000000]");
  EXPECT_EQ(ErrorOf(Entries({{"task", "predict"}})),
            "t.conf:1: task = predict: expected one of train, pred, dump, importance");
  EXPECT_EQ(ErrorOf(Entries({{"dump_format", "svg"}})),
            "t.conf:1: dump_format = svg: expected one of text, json, dot");
  EXPECT_EQ(ErrorOf(Entries({{"pred_margin", "yes"}})),
            "t.conf:1: pred_margin = yes: expected 0 or 1 (or false/true)");
  EXPECT_EQ(ErrorOf(Entries({{"booster", "gbforest"}})),
            "t.conf:1: booster = gbforest: expected one of gbtree, dart, gblinear, mlp");
}

TEST(CliParams, TasksNeedTheirInputs) {
  EXPECT_EQ(ErrorOf(Entries({{"eta", "0.1"}})), "config: task=train needs data = <training data>");
  EXPECT_EQ(ErrorOf(Entries({{"task", "pred"}, {"model_in", "m.json"}})),
            "config: task=pred needs test:data = <data to predict>");
  EXPECT_EQ(ErrorOf(Entries({{"task", "dump"}})),
            "config: task=dump needs model_in = <model.json>");
  EXPECT_EQ(ErrorOf(Entries({{"data", "a"}, {"early_stopping_rounds", "3"}})),
            "config: early_stopping_rounds needs an eval[NAME] set (or eval_train = 1)");
}

TEST(CliParams, SilentMeansVerbosityZero) {
  auto o = BuildOptions(Entries({{"data", "a"}, {"silent", "1"}}), LearnerDocs());
  ASSERT_TRUE(o.ok());
  EXPECT_EQ(o->context.verbosity, 0);
}

// nthread, seed and verbosity are the Context's keys (base/context.h): one range, one message,
// whatever booster the config names, and misspellings are suggested like any other key.
TEST(CliParams, ContextKeysHaveOneRangeAndOneMessage) {
  auto o = BuildOptions(
      Entries({{"data", "a"}, {"nthread", "4096"}, {"random_state", "-7"}, {"verbosity", "2"}}),
      LearnerDocs());
  ASSERT_TRUE(o.ok()) << o.status().message();
  EXPECT_EQ(o->context.nthread, 4096);
  EXPECT_EQ(o->context.seed, -7);
  EXPECT_EQ(o->context.verbosity, 2);
  EXPECT_TRUE(o->learner_params.empty());
  const std::string refused =
      "t.conf:2: parameter nthread: bad value '4097', allowed: an integer in [-4096, 4096]";
  EXPECT_EQ(ErrorOf(Entries({{"data", "a"}, {"nthread", "4097"}})), refused);
  EXPECT_EQ(ErrorOf(Entries({{"data", "a"}, {"nthread", "4097"}, {"booster", "mlp"}})), refused);
  EXPECT_EQ(ErrorOf(Entries({{"data", "a"}, {"nthred", "2"}})),
            "t.conf:2: unknown key 'nthred' (did you mean 'nthread'?)");
  // nthread = 0 (or absent) is every core, as in XGBoost.
  auto zero = BuildOptions(Entries({{"data", "a"}, {"nthread", "0"}}), LearnerDocs());
  ASSERT_TRUE(zero.ok());
  EXPECT_EQ(zero->context.Threads(), DefaultThreads());
}

TEST(CliParams, ContextKeysAreDocumentedOnce) {
  int nthread_rows = 0;
  for (const auto& d : CliParamDocs()) nthread_rows += d.key == "nthread";
  EXPECT_EQ(nthread_rows, 1);
}

TEST(CliParams, UnknownRabitKeyNamesLineAndNearest) {
  auto o = BuildOptions(Entries({{"data", "a"}, {"rabit_timout", "5"}}), LearnerDocs());
  ASSERT_FALSE(o.ok());
  EXPECT_EQ(o.status().code(), StatusCode::kInvalidInput);
  EXPECT_EQ(o.status().message(),
            "t.conf:2: unknown key 'rabit_timout' (did you mean 'rabit_timeout'?)");
  EXPECT_EQ(o.status().key(), "rabit_timout");
  // A bad rabit value is a config error at its line too (it used to surface in rabit::Init).
  EXPECT_EQ(ErrorOf(Entries({{"rabit_timeout", "soon"}})),
            "t.conf:1: rabit_timeout: expected seconds > 0, got 'soon'");
  EXPECT_EQ(ErrorOf(Entries({{"mock", "1,2"}})),
            "t.conf:1: mock: expected rank,version,seqno,ndeath (four integers), got '1,2'");
  // Outside rabit's prefix the rabit keys are candidates like any other.
  EXPECT_EQ(ErrorOf(Entries({{"rabbit_timeout", "5"}})),
            "t.conf:1: unknown key 'rabbit_timeout' (did you mean 'rabit_timeout'?)");
}

// DMLC_* / dmlc_* keys rabit does not read belong to other dmlc components: passed on, ignored.
TEST(CliParams, DmlcKeysOfOtherComponentsArePassedOn) {
  auto o = BuildOptions(
      Entries({{"data", "a"}, {"DMLC_ROLE", "worker"}, {"DMLC_NUM_ATTEMPT", "1"}}), LearnerDocs());
  ASSERT_TRUE(o.ok()) << o.status().message();
  const KeyValues rabit{{"DMLC_ROLE", "worker"}, {"DMLC_NUM_ATTEMPT", "1"}};
  EXPECT_EQ(o->rabit_params, rabit);
}

TEST(CliParams, ErrorsCarryTheKey) {
  auto bad = BuildOptions(Entries({{"num_round", "-1"}}), LearnerDocs());
  EXPECT_EQ(bad.status().key(), "num_round");
  auto alias = BuildOptions(Entries({{"train_path", "a"}, {"eval_train", "2"}}), LearnerDocs());
  EXPECT_EQ(alias.status().key(), "eval_train");
  auto unknown = BuildOptions(Entries({{"max_dept", "3"}}), LearnerDocs());
  EXPECT_EQ(unknown.status().key(), "max_dept");
}

TEST(CliParams, NoSuggestionWhenNothingIsClose) {
  EXPECT_EQ(ErrorOf(Entries({{"data", "a"}, {"frobnicate", "1"}})),
            "t.conf:2: unknown key 'frobnicate'");
}

// The "did you mean" cut-off (tests/base/nearest_key_test.cc) over the CLI's own keys.
TEST(NearestKey, SuggestsOnlyPlausibleKeys) {
  std::vector<std::string> keys;
  for (const auto& d : CliParamDocs()) keys.push_back(d.key);
  for (const auto& d : LearnerDocs()) keys.push_back(d.key);
  keys.push_back("rabit_timeout");
  EXPECT_EQ(NearestKey("frobnicate", keys), "");
  EXPECT_EQ(NearestKey("max_dept", keys), "max_depth");
  EXPECT_EQ(NearestKey("rabit_timout", keys), "rabit_timeout");
  EXPECT_EQ(NearestKey("etta", keys), "eta");
  EXPECT_EQ(NearestKey("x", keys), "");
}

}  // namespace
}  // namespace treering::cli

namespace treering::cli {
namespace {

// XGBoost's config templates spell "not set" as NULL (src/cli_main.cc CLIParam, demo/CLI):
// every path key then keeps its default, instead of naming a file "NULL".
TEST(CliParams, NullMeansNotSet) {
  auto o = BuildOptions(Entries({{"data", "d.libsvm"},
                                 {"model_out", "m.json"},
                                 {"model_out", "NULL"},
                                 {"model_in", "NULL"},
                                 {"model_dir", "NULL"},
                                 {"name_pred", "NULL"},
                                 {"name_dump", "NULL"},
                                 {"test:data", "NULL"},
                                 {"fmap", "NULL"}}),
                        LearnerDocs());
  ASSERT_TRUE(o.ok()) << o.status().message();
  EXPECT_EQ(o->model_out, "");
  EXPECT_EQ(o->model_in, "");
  EXPECT_EQ(o->model_dir, "./");
  EXPECT_EQ(o->name_pred, "pred.txt");
  EXPECT_EQ(o->name_dump, "dump.txt");
  EXPECT_EQ(o->test_data, "");
  EXPECT_EQ(o->fmap, "");
  // A NULL model_in is missing for task=pred, as in XGBoost ("Must specify model_in").
  auto pred = BuildOptions(
      Entries({{"task", "pred"}, {"test:data", "t.libsvm"}, {"model_in", "NULL"}}), LearnerDocs());
  ASSERT_FALSE(pred.ok());
  EXPECT_NE(pred.status().message().find("needs model_in"), std::string::npos);
  // NULL is only special for paths: elsewhere it is a bad value.
  EXPECT_FALSE(BuildOptions(Entries({{"data", "d"}, {"num_round", "NULL"}}), LearnerDocs()).ok());
}

TEST(CliParams, PredictionRangeDumpAndSplitKeys) {
  auto o = BuildOptions(Entries({{"task", "dump"},
                                 {"model_in", "m.json"},
                                 {"name_fmap", "featmap.txt"},
                                 {"dump_format", "dot"},
                                 {"iteration_begin", "1"},
                                 {"iteration_end", "3"},
                                 {"ntree_limit", "2"},
                                 {"dsplit", "row"}}),
                        LearnerDocs());
  ASSERT_TRUE(o.ok()) << o.status().message();
  EXPECT_EQ(o->fmap, "featmap.txt");
  EXPECT_EQ(o->dump_format, booster::DumpFormat::kDot);
  EXPECT_EQ(o->iteration_begin, 1);
  EXPECT_EQ(o->iteration_end, 3);
  EXPECT_EQ(o->ntree_limit, 2);
  auto col = BuildOptions(Entries({{"data", "d"}, {"dsplit", "col"}}), LearnerDocs());
  ASSERT_FALSE(col.ok());
  EXPECT_NE(col.status().message().find("dsplit = col"), std::string::npos);
  auto bad = BuildOptions(Entries({{"data", "d"}, {"dump_format", "xml"}}), LearnerDocs());
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("t.conf:2"), std::string::npos);
}

TEST(CliParams, StdoutPredictionsTurnOffSnapshots) {  // XGBoost's CLIParam::Configure
  auto o = BuildOptions(Entries({{"data", "d"}, {"save_period", "2"}, {"name_pred", "stdout"}}),
                        LearnerDocs());
  ASSERT_TRUE(o.ok()) << o.status().message();
  EXPECT_EQ(o->save_period, 0);
}

TEST(CliParams, ExplanationOutputsOneAtATime) {
  EXPECT_EQ(ErrorOf(Entries({{"task", "pred"},
                             {"model_in", "m.json"},
                             {"test:data", "t.txt"},
                             {"pred_leaf", "1"},
                             {"pred_interactions", "1"}})),
            "config: pred_leaf, pred_contribs and pred_interactions are different outputs; set "
            "one");
  EXPECT_EQ(ErrorOf(Entries({{"task", "pred"},
                             {"model_in", "m.json"},
                             {"test:data", "t.txt"},
                             {"approx_contribs", "1"}})),
            "config: approx_contribs = 1 needs pred_contribs = 1 or pred_interactions = 1");
  auto ok = BuildOptions(Entries({{"task", "pred"},
                                  {"model_in", "m.json"},
                                  {"test:data", "t.txt"},
                                  {"pred_contribs", "1"},
                                  {"approx_contribs", "1"}}),
                         LearnerDocs());
  ASSERT_TRUE(ok.ok()) << ok.status().message();
  EXPECT_TRUE(ok->pred_contribs && ok->approx_contribs && !ok->pred_leaf);
  EXPECT_EQ(ErrorOf(Entries({{"task", "importance"}})),
            "config: task=importance needs model_in = <model.json>");
  EXPECT_EQ(ErrorOf(Entries({{"importance_type", "entropy"}})),
            "t.conf:1: importance_type = entropy: expected one of weight, gain, cover, "
            "total_gain, total_cover");
}

}  // namespace
}  // namespace treering::cli
