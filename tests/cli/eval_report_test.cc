// Metric lines as XGBoost 1.7 prints them and the early-stopping rule of its Python package.
#include "eval_report.h"

#include <gtest/gtest.h>

namespace treering::cli {
namespace {

TEST(EvalReport, LineFormatAsXgboost) {
  // Values from XGBoost 1.7.4's CLI output on Fashion-MNIST (docs: xgboost-1.7-observed.md).
  EXPECT_EQ(FormatEvalLine(199, {{"test-merror", 0.0996}, {"test-mlogloss", 0.3155350448216917}}),
            "[199]\ttest-merror:0.09959999999999999\ttest-mlogloss:0.31553504482169170");
  EXPECT_EQ(FormatEvalLine(0, {}), "[0]");
}

std::vector<booster::EvalResult> Round(const char* name, double v) {
  return {{"x-y", 1}, {name, v}};
}

TEST(EarlyStopping, MinimisesLossAndStopsAfterStaleRounds) {
  EarlyStopping s(2);
  EXPECT_FALSE(s.Update(0, Round("test-logloss", 0.5)));
  EXPECT_FALSE(s.Update(1, Round("test-logloss", 0.4)));
  EXPECT_FALSE(s.Update(2, Round("test-logloss", 0.4)));  // equal is not better
  EXPECT_TRUE(s.Update(3, Round("test-logloss", 0.45)));
  EXPECT_EQ(s.best_round(), 1);
  const auto attributes = s.Attributes();
  EXPECT_EQ(attributes.at("best_iteration"), "1");
  EXPECT_EQ(attributes.at("best_score"), "0.4");
  EXPECT_EQ(attributes.at("best_ntree_limit"), "2");
  EXPECT_TRUE(EarlyStopping(2).Attributes().empty());
}

TEST(EarlyStopping, MaximisesAucAndAucprButNotMape) {
  EarlyStopping auc(1);
  EXPECT_FALSE(auc.Update(0, Round("valid-auc", 0.7)));
  EXPECT_FALSE(auc.Update(1, Round("valid-auc", 0.8)));
  EXPECT_TRUE(auc.Update(2, Round("valid-auc", 0.75)));
  EXPECT_EQ(auc.best_round(), 1);
  EarlyStopping aucpr(1);
  EXPECT_FALSE(aucpr.Update(0, Round("v-aucpr", 0.1)));
  EXPECT_TRUE(aucpr.Update(1, Round("v-aucpr", 0.05)));
  EarlyStopping mape(1);
  EXPECT_FALSE(mape.Update(0, Round("v-mape", 0.3)));
  EXPECT_FALSE(mape.Update(1, Round("v-mape", 0.2)));
  EXPECT_EQ(mape.best_round(), 1);
}

TEST(EarlyStopping, PythonReprOfScores) {
  EXPECT_EQ(PythonRepr(0.25), "0.25");
  EXPECT_EQ(PythonRepr(1.0), "1.0");
  EXPECT_EQ(PythonRepr(0.0), "0.0");
  EXPECT_EQ(PythonRepr(1e-05), "1e-05");
  EXPECT_EQ(PythonRepr(0.1 + 0.2), "0.30000000000000004");
}

}  // namespace
}  // namespace treering::cli
