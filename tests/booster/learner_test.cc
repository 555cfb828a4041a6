// The Learner facade: parameter handling, eval output, determinism across thread counts,
// training margins vs prediction, continued training, and learning on a clear signal.
#include <cmath>
#include <fstream>
#include <iterator>

#include <gtest/gtest.h>

#include "booster/tree/learner/gbtree_learner.h"
#include "booster/tree/predict/predictor.h"
#include "context_keys.h"
#include "synthetic_data.h"

namespace treering::booster {
namespace {

using Params = std::vector<std::pair<std::string, std::string>>;
using testing::MakeSynthetic;
using testing::SyntheticSpec;
using testing::Task;

// These tests are about the hist learner; tree_method unset would grow exact trees on one
// process (tests/cli/tree_method_test.py covers exact).
std::unique_ptr<GBTreeLearner> Make(Params params) {
  params.emplace_back("tree_method", "hist");
  auto learner = test::CreateWithKeys<GBTreeLearner>(params, &rabit::DefaultComm());
  EXPECT_TRUE(learner.ok()) << learner.status().message();
  return std::move(learner).value();
}

std::unique_ptr<GBTreeLearner> Train(const Params& params, data::DMatrix& dm, int rounds) {
  auto learner = Make(params);
  EXPECT_TRUE(learner->SetTrainData(&dm).ok());
  for (int i = 0; i < rounds; ++i) EXPECT_TRUE(learner->UpdateOneIter(i).ok());
  return learner;
}

void ExpectIdenticalModels(const GBTreeModel& a, const GBTreeModel& b) {
  ASSERT_EQ(a.trees.size(), b.trees.size());
  for (std::size_t t = 0; t < a.trees.size(); ++t) {
    const RegTree &x = a.trees[t], &y = b.trees[t];
    EXPECT_EQ(x.left, y.left) << t;
    EXPECT_EQ(x.split_index, y.split_index) << t;
    EXPECT_EQ(x.split_cond, y.split_cond) << t;
    EXPECT_EQ(x.default_left, y.default_left) << t;
    EXPECT_EQ(x.base_weight, y.base_weight) << t;
    EXPECT_EQ(x.loss_change, y.loss_change) << t;
    EXPECT_EQ(x.sum_hess, y.sum_hess) << t;
  }
}

TEST(LearnerParams, UnknownKeyAndBadValueAreInvalidInput) {
  auto unknown = test::CreateWithKeys<GBTreeLearner>({{"max_dept", "3"}}, &rabit::DefaultComm());
  ASSERT_FALSE(unknown.ok());
  EXPECT_EQ(unknown.status().code(), StatusCode::kInvalidInput);
  EXPECT_NE(unknown.status().message().find("max_dept"), std::string::npos);
  auto bad = test::CreateWithKeys<GBTreeLearner>({{"subsample", "1.5"}}, &rabit::DefaultComm());
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("(0, 1]"), std::string::npos);
  EXPECT_FALSE(
      test::CreateWithKeys<GBTreeLearner>({{"objective", "multi:softmax"}}, &rabit::DefaultComm())
          .ok());  // needs num_class
  EXPECT_TRUE(
      test::CreateWithKeys<GBTreeLearner>({{"tree_method", "exact"}}, &rabit::DefaultComm()).ok());
  EXPECT_TRUE(  // grown as hist, with a warning (tests/cli/forest_test.py)
      test::CreateWithKeys<GBTreeLearner>({{"tree_method", "gpu_hist"}}, &rabit::DefaultComm())
          .ok());
  for (const char* bad : {"0", "-1", "1.5"}) {
    auto forest =
        test::CreateWithKeys<GBTreeLearner>({{"num_parallel_tree", bad}}, &rabit::DefaultComm());
    ASSERT_FALSE(forest.ok()) << bad;
    EXPECT_NE(forest.status().message().find("num_parallel_tree"), std::string::npos);
  }
  EXPECT_FALSE(
      test::CreateWithKeys<GBTreeLearner>({{"eval_metric", "nope"}}, &rabit::DefaultComm()).ok());
  auto base = test::CreateWithKeys<GBTreeLearner>(
      {{"objective", "binary:logistic"}, {"base_score", "1.5"}}, &rabit::DefaultComm());
  ASSERT_FALSE(base.ok());
  EXPECT_EQ(base.status().code(), StatusCode::kInvalidInput);
  EXPECT_NE(base.status().message().find("base_score"), std::string::npos);
}

TEST(LearnerParams, AliasesAndDocs) {
  data::DMatrix dm = MakeSynthetic({});
  auto a = Train({{"objective", "binary:logistic"}, {"eta", "0.1"}}, dm, 2);
  auto b = Train({{"objective", "binary:logistic"}, {"learning_rate", "0.1"}}, dm, 2);
  ExpectIdenticalModels(a->Model(), b->Model());
  bool has_alias = false, has_max_bin = false;
  for (const auto& doc : GBTreeLearner::Params()) {
    has_alias |= doc.key == "reg_lambda";
    has_max_bin |= doc.key == "max_bin" && doc.default_value == "256";
  }
  EXPECT_TRUE(has_alias);
  EXPECT_TRUE(has_max_bin);
}

TEST(Learner, EvalNamesFollowSetAndMetricOrder) {
  data::DMatrix train = MakeSynthetic({}), test = MakeSynthetic({.seed = 9});
  auto learner =
      Make({{"objective", "binary:logistic"}, {"eval_metric", "auc"}, {"eval_metric", "logloss"}});
  ASSERT_TRUE(learner->SetTrainData(&train).ok());
  ASSERT_TRUE(learner->AddEvalSet("test", &test).ok());
  ASSERT_TRUE(learner->AddEvalSet("train", &train).ok());
  ASSERT_TRUE(learner->UpdateOneIter(0).ok());
  auto results = learner->EvalOneIter(0);
  ASSERT_TRUE(results.ok());
  ASSERT_EQ(results->size(), 4u);
  EXPECT_EQ((*results)[0].name, "test-auc");
  EXPECT_EQ((*results)[1].name, "test-logloss");
  EXPECT_EQ((*results)[3].name, "train-logloss");
  EXPECT_GT((*results)[0].value, 0.8);

  auto defaults = Make({{"objective", "multi:softmax"}, {"num_class", "3"}});
  data::DMatrix multi = MakeSynthetic({.task = Task::kMulticlass3});
  ASSERT_TRUE(defaults->SetTrainData(&multi).ok());
  ASSERT_TRUE(defaults->AddEvalSet("eval", &multi).ok());
  ASSERT_TRUE(defaults->UpdateOneIter(0).ok());
  EXPECT_EQ(defaults->EvalOneIter(0)->at(0).name, "eval-merror");
}

TEST(Learner, ModelIsIndependentOfThreadCount) {
  // 40000 rows: the root histogram takes the multi-threaded path with private buffers.
  for (double missing : {0.0, 0.2}) {
    data::DMatrix dm =
        MakeSynthetic({.rows = 40000, .features = 8, .missing = missing, .distinct_values = 300});
    // Subsampled (each group's own gradient scan) and not (the objective's maxima, the
    // vector gradient kernels: logistic and squared error).
    const std::vector<Params> configs = {
        {{"objective", "binary:logistic"},
         {"max_depth", "5"},
         {"colsample_bynode", "0.8"},
         {"subsample", "0.9"},
         {"seed", "4"}},
        {{"objective", "binary:logistic"}, {"max_depth", "5"}},
        {{"objective", "reg:squarederror"}, {"max_depth", "5"}, {"colsample_bylevel", "0.7"}}};
    for (const Params& base : configs) {
      Params one = base, two = base;
      one.emplace_back("nthread", "1");
      two.emplace_back("nthread", "2");
      ExpectIdenticalModels(Train(one, dm, 3)->Model(), Train(two, dm, 3)->Model());
    }
  }
}

TEST(Learner, TrainingMarginsEqualPredictionAndContinuedTrainingMatches) {
  data::DMatrix dm = MakeSynthetic({.task = Task::kMulticlass3});
  const Params params = {{"objective", "multi:softprob"}, {"num_class", "3"}};
  auto full = Make(params);
  ASSERT_TRUE(full->SetTrainData(&dm).ok());
  ASSERT_TRUE(full->AddEvalSet("train", &dm).ok());
  for (int i = 0; i < 4; ++i) ASSERT_TRUE(full->UpdateOneIter(i).ok());
  auto first = Train(params, dm, 2);
  auto resumed = Make(params);
  ASSERT_TRUE(resumed->LoadModel(first->Model()).ok());
  ASSERT_TRUE(resumed->SetTrainData(&dm).ok());
  for (int i = 2; i < 4; ++i) ASSERT_TRUE(resumed->UpdateOneIter(i).ok());
  ExpectIdenticalModels(full->Model(), resumed->Model());

  // mlogloss from the cached (leaf-updated) margins equals the one from a fresh walk.
  const double cached = full->EvalOneIter(3)->at(0).value;
  std::vector<float> prob;
  ASSERT_TRUE(full->Predict(&dm, {}, &prob).ok());
  double loss = 0;
  for (std::size_t r = 0; r < dm.NumRows(); ++r) {
    loss -= std::log(prob[r * 3 + static_cast<int>(dm.label[r])]);
  }
  EXPECT_NEAR(cached, loss / dm.NumRows(), 1e-9);
}

// A forest's rows left out of a tree's sample go through none of its levels and get their leaf
// from a walk down the finished tree (left_out_rows.cc): the training margins kept that way
// must equal a fresh prediction of the same rows, row for row. The metric of the training
// set (cached margins) and of a copy of it (a fresh walk with the float values) are the same
// sums in the same order, so any row in a wrong leaf changes the value.
TEST(Learner, ForestTrainingMarginsEqualPredictionWithSubsample) {
  for (double missing : {0.0, 0.2}) {  // dense rows (branch-free walk) and sparse rows
    data::DMatrix dm = MakeSynthetic({.task = Task::kRegression,
                                      .rows = 6000,
                                      .features = 8,
                                      .missing = missing,
                                      .distinct_values = 300});
    data::DMatrix copy = testing::RowRange(dm, 0, dm.NumRows());
    for (const char* policy : {"depthwise", "lossguide"}) {
      auto learner = Make({{"objective", "reg:squarederror"},
                           {"eval_metric", "rmse"},
                           {"eval_metric", "mae"},
                           {"num_parallel_tree", "4"},
                           {"subsample", "0.6"},
                           {"colsample_bynode", "0.8"},
                           {"max_depth", "5"},
                           {"max_leaves", "20"},
                           {"grow_policy", policy},
                           {"nthread", "2"}});
      ASSERT_TRUE(learner->SetTrainData(&dm).ok());
      ASSERT_TRUE(learner->AddEvalSet("train", &dm).ok());
      ASSERT_TRUE(learner->AddEvalSet("copy", &copy).ok());
      for (int i = 0; i < 2; ++i) {  // the second round's gradients read the first's margins
        ASSERT_TRUE(learner->UpdateOneIter(i).ok());
        auto results = learner->EvalOneIter(i);
        ASSERT_TRUE(results.ok());
        ASSERT_EQ(results->size(), 4u);
        for (int m = 0; m < 2; ++m) {
          EXPECT_EQ((*results)[m].value, (*results)[m + 2].value)
              << (*results)[m].name << " vs " << (*results)[m + 2].name << ", missing " << missing
              << ", " << policy << ", round " << i;
        }
      }
    }
  }
}

// Sum of the trees' leaf values for row r, one row at a time through LeafOf (features beyond
// the row's data are missing), added in tree order from 0 as Predict does.
std::vector<float> WalkOneRowAtATime(const GBTreeModel& model, const data::DMatrix& dm) {
  const int groups = model.NumGroups();
  std::vector<float> out(dm.NumRows() * groups, 0.0f);
  for (std::size_t r = 0; r < dm.NumRows(); ++r) {
    std::vector<float> features(dm.num_col, std::nanf(""));
    for (std::uint64_t j = dm.row_ptr[r]; j < dm.row_ptr[r + 1]; ++j) {
      features[dm.index[j]] = dm.value[j];
    }
    for (std::size_t t = 0; t < model.trees.size(); ++t) {
      const RegTree& tree = model.trees[t];
      out[r * groups + model.tree_info[t]] += tree.split_cond[LeafOf(tree, features)];
    }
  }
  return out;
}

// Every row with one more entry at feature `index` (past all the row's others).
data::DMatrix WithFeatureAt(const data::DMatrix& dm, std::uint32_t index) {
  data::DMatrix out;
  out.label = dm.label;
  for (std::size_t r = 0; r < dm.NumRows(); ++r) {
    for (std::uint64_t j = dm.row_ptr[r]; j < dm.row_ptr[r + 1]; ++j) {
      out.index.push_back(dm.index[j]);
      out.value.push_back(dm.value[j]);
    }
    out.index.push_back(index);
    out.value.push_back(1.0f);
    out.row_ptr.push_back(out.index.size());
  }
  out.num_col = index + 1;
  return out;
}

// The first `keep` features of every row (a data set narrower than the model's).
data::DMatrix FirstFeatures(const data::DMatrix& dm, std::uint32_t keep) {
  data::DMatrix out;
  out.label = dm.label;
  for (std::size_t r = 0; r < dm.NumRows(); ++r) {
    for (std::uint64_t j = dm.row_ptr[r]; j < dm.row_ptr[r + 1]; ++j) {
      if (dm.index[j] >= keep) continue;
      out.index.push_back(dm.index[j]);
      out.value.push_back(dm.value[j]);
    }
    out.row_ptr.push_back(out.index.size());
  }
  out.num_col = keep;
  return out;
}

// Predict walks rows eight at a time, reading dense rows in place and scattering sparse ones;
// every path must give what a plain one-row walk gives, bit for bit: dense rows, rows with
// missing values, a row count that leaves a partial group of eight (per thread: 5003 rows x 6
// trees is enough work for two), data narrower than the features the trees split on (those
// are missing), data wider than 64 Ki features (walked one row at a time), and several output
// groups (multi-class).
TEST(Learner, PredictionEqualsOneRowWalkDenseSparseAndNarrow) {
  const Params regression = {{"max_depth", "5"}, {"base_score", "0"}, {"nthread", "2"}};
  const Params multiclass = {{"max_depth", "4"},
                             {"base_score", "0"},
                             {"nthread", "2"},
                             {"objective", "multi:softprob"},
                             {"num_class", "3"}};
  // Leaves at many depths (the flat walk takes the deepest leaf's number of steps).
  const Params lossguide = {{"grow_policy", "lossguide"},
                            {"max_leaves", "9"},
                            {"max_depth", "0"},
                            {"base_score", "0"},
                            {"nthread", "2"}};
  for (double missing : {0.0, 0.2}) {
    for (int kind : {0, 1, 2}) {
      const bool classes = kind == 1;
      SCOPED_TRACE(::testing::Message() << "missing " << missing << " kind " << kind);
      data::DMatrix dm = MakeSynthetic({.task = classes ? Task::kMulticlass3 : Task::kRegression,
                                        .rows = 5003,
                                        .features = 6,
                                        .missing = missing});
      auto learner = Train(classes     ? multiclass
                           : kind == 2 ? lossguide
                                       : regression,
                           dm, classes ? 2 : 6);
      const GBTreeModel& model = learner->Model();
      bool splits_beyond_three = false;
      for (const RegTree& t : model.trees) {
        for (int n = 0; n < t.NumNodes(); ++n) {
          splits_beyond_three |= !t.IsLeaf(n) && t.split_index[n] >= 3;
        }
      }
      ASSERT_TRUE(splits_beyond_three);
      data::DMatrix narrow = FirstFeatures(dm, 3);
      data::DMatrix wide = WithFeatureAt(dm, 70000);
      for (data::DMatrix* data : {&dm, &narrow, &wide}) {
        std::vector<float> margins;
        ASSERT_TRUE(learner->Predict(data, {.output_margin = true}, &margins).ok());
        EXPECT_EQ(margins, WalkOneRowAtATime(model, *data));
      }
    }
  }
}

TEST(Learner, LossguideRespectsMaxLeaves) {
  data::DMatrix dm = MakeSynthetic({.rows = 3000});
  auto learner = Train({{"objective", "binary:logistic"},
                        {"grow_policy", "lossguide"},
                        {"max_leaves", "5"},
                        {"max_depth", "0"}},
                       dm, 3);
  for (const RegTree& tree : learner->Model().trees) {
    int leaves = 0;
    for (int n = 0; n < tree.NumNodes(); ++n) leaves += tree.IsLeaf(n);
    EXPECT_LE(leaves, 5);
    EXPECT_GE(leaves, 4);
  }
}

TEST(Learner, RegressionFitsSignal) {
  data::DMatrix train = MakeSynthetic({.task = Task::kRegression, .rows = 5000});
  auto learner = Train({{"max_depth", "4"}, {"eval_metric", "rmse"}}, train, 30);
  ASSERT_TRUE(learner->AddEvalSet("train", &train).ok());
  auto r = learner->EvalOneIter(30);
  ASSERT_TRUE(r.ok());
  double mean = 0, var = 0;
  for (float y : train.label) mean += y / train.NumRows();
  for (float y : train.label) var += (y - mean) * (y - mean) / train.NumRows();
  // A constant predictor scores sqrt(var); the trees must explain most of the variance.
  EXPECT_LT(r->at(0).value, 0.5 * std::sqrt(var));
}

}  // namespace
}  // namespace treering::booster

namespace treering::booster {
namespace {

TEST(LearnerDocs, EveryParameterIsDocumented) {
  std::ifstream in(LEARNER_DOC_PATH);
  ASSERT_TRUE(in.good()) << LEARNER_DOC_PATH;
  const std::string doc((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  for (const auto& p : GBTreeLearner::Params()) {
    EXPECT_NE(doc.find(p.key), std::string::npos) << p.key << " missing from docs/learner.md";
  }
}

}  // namespace
}  // namespace treering::booster

namespace treering::booster {
namespace {

// iteration_begin / iteration_end (XGBoost's LayerToTree): rounds [b, e) are trees
// [b * K, e * K); the first k rounds of a 4-round model predict what a k-round model predicts
// (a tree does not depend on later ones), margins of disjoint ranges add up, and a range
// beyond the model is a user error.
TEST(Learner, IterationRangeSelectsRounds) {
  data::DMatrix dm = MakeSynthetic({.task = Task::kMulticlass3});
  const Params params = {{"objective", "multi:softprob"}, {"num_class", "3"}};
  auto four = Train(params, dm, 4);
  auto two = Train(params, dm, 2);
  std::vector<float> first_two, reference, all, tail, head;
  ASSERT_TRUE(four->Predict(&dm, {.iteration_end = 2}, &first_two).ok());
  ASSERT_TRUE(two->Predict(&dm, {}, &reference).ok());
  EXPECT_EQ(first_two, reference);
  ASSERT_TRUE(four->Predict(&dm, {.output_margin = true}, &all).ok());
  ASSERT_TRUE(four->Predict(&dm, {.output_margin = true, .iteration_end = 1}, &head).ok());
  ASSERT_TRUE(
      four->Predict(&dm, {.output_margin = true, .iteration_begin = 1, .iteration_end = 4}, &tail)
          .ok());
  std::vector<float> base;
  ASSERT_TRUE(four->Predict(&dm, {.output_margin = true, .iteration_begin = 4}, &base).ok());
  ASSERT_EQ(all.size(), head.size());
  for (std::size_t i = 0; i < all.size(); ++i) {
    EXPECT_NEAR(head[i] + tail[i] - base[i], all[i], 1e-5) << i;  // base margin counted twice
  }
  std::vector<float> out;
  const Status beyond = four->Predict(&dm, {.iteration_end = 5}, &out);
  EXPECT_EQ(beyond.code(), StatusCode::kInvalidInput);
  EXPECT_NE(beyond.message().find("4 rounds"), std::string::npos) << beyond.message();
  EXPECT_FALSE(four->Predict(&dm, {.iteration_begin = 3, .iteration_end = 2}, &out).ok());
}

}  // namespace
}  // namespace treering::booster
