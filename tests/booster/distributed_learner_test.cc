// The tree learner on N ranks that are threads of one process (ThreadWorld behind rabit::Comm):
// with exact sketches (few distinct values), N workers each holding a contiguous shard of the
// rows grow the trees one process grows on all rows, bit for bit, for N = 1, 2, 3, 4, 7. A
// skipped histogram allreduce, sketch merge, feature-count agreement or split combine makes a
// rank's trees differ from the single-process ones, so each of those syncs is checked here.
#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "booster/model_io.h"
#include "booster/tree/learner/gbtree_learner.h"
#include "context_keys.h"
#include "synthetic_data.h"
#include "thread_world.h"

namespace treering::booster {
namespace {

using Params = std::vector<std::pair<std::string, std::string>>;

// Rows [begin, end) of dm as a matrix of their own (what data::Load gives rank r of N).
data::DMatrix Rows(const data::DMatrix& dm, std::size_t begin, std::size_t end) {
  data::DMatrix out;
  out.row_ptr.assign(1, 0);
  for (std::size_t r = begin; r < end; ++r) {
    for (std::uint64_t k = dm.row_ptr[r]; k < dm.row_ptr[r + 1]; ++k) {
      out.index.push_back(dm.index[k]);
      out.value.push_back(dm.value[k]);
      out.num_col = std::max<std::uint64_t>(out.num_col, dm.index[k] + 1ull);
    }
    out.row_ptr.push_back(out.index.size());
    out.label.push_back(dm.label[r]);
    if (!dm.weight.empty()) out.weight.push_back(dm.weight[r]);
  }
  return out;
}

struct RankOutcome {
  std::string model_json;
  std::vector<EvalResult> last_eval;
};

// Trains `rounds` rounds on each rank's shard of `all` (contiguous, as equal as possible) and
// returns every rank's model file and last metric line.
// tree_method=hist on every world size: unset, one process would grow exact trees.
std::vector<RankOutcome> TrainOnRanks(Params params, const data::DMatrix& all, int world,
                                      int rounds) {
  params.emplace_back("tree_method", "hist");
  std::vector<data::DMatrix> shards;
  for (int r = 0; r < world; ++r) {
    shards.push_back(Rows(all, all.NumRows() * r / world, all.NumRows() * (r + 1) / world));
  }
  std::vector<RankOutcome> out(static_cast<std::size_t>(world));
  treering::testing::ThreadWorld(world).Run([&](int rank, rabit::Comm* comm) {
    auto learner = test::CreateWithKeys<GBTreeLearner>(params, comm);
    ASSERT_TRUE(learner.ok()) << learner.status().message();
    data::DMatrix& shard = shards[static_cast<std::size_t>(rank)];
    ASSERT_TRUE(learner.value()->SetTrainData(&shard).ok());
    ASSERT_TRUE(learner.value()->AddEvalSet("train", &shard).ok());
    for (int i = 0; i < rounds; ++i) {
      ASSERT_TRUE(learner.value()->UpdateOneIter(i).ok());
      auto results = learner.value()->EvalOneIter(i);
      ASSERT_TRUE(results.ok());
      out[static_cast<std::size_t>(rank)].last_eval = results.value();
    }
    auto json = ModelToJson(learner.value()->Model());
    ASSERT_TRUE(json.ok());
    out[static_cast<std::size_t>(rank)].model_json = json.value();
  });
  return out;
}

void ExpectSameAsOneProcess(const Params& params, const data::DMatrix& all, int rounds) {
  const std::vector<RankOutcome> single = TrainOnRanks(params, all, 1, rounds);
  ASSERT_FALSE(single[0].model_json.empty());
  for (int world : {2, 3, 4, 7}) {
    SCOPED_TRACE("world " + std::to_string(world));
    const std::vector<RankOutcome> ranks = TrainOnRanks(params, all, world, rounds);
    for (int r = 0; r < world; ++r) {
      const RankOutcome& got = ranks[static_cast<std::size_t>(r)];
      EXPECT_EQ(got.model_json, single[0].model_json) << "rank " << r;
      ASSERT_EQ(got.last_eval.size(), single[0].last_eval.size());
      for (std::size_t m = 0; m < got.last_eval.size(); ++m) {
        EXPECT_EQ(got.last_eval[m].name, single[0].last_eval[m].name);
        // Metric sums are doubles added in another order: equal to rounding.
        EXPECT_NEAR(got.last_eval[m].value, single[0].last_eval[m].value, 1e-9);
      }
    }
  }
}

TEST(DistributedLearner, BinaryDepthWiseEqualsOneProcess) {
  testing::SyntheticSpec spec;
  spec.rows = 1400;
  spec.features = 7;
  spec.distinct_values = 30;
  const data::DMatrix all = testing::MakeSynthetic(spec);
  ExpectSameAsOneProcess({{"objective", "binary:logistic"},
                          {"max_depth", "4"},
                          {"eta", "0.3"},
                          {"max_bin", "16"},  // fewer bins than values: cuts need the merge
                          {"eval_metric", "auc"},
                          {"eval_metric", "logloss"},
                          {"nthread", "1"}},
                         all, 4);
}

// Issue 34: every rank holds more distinct values than its sketch keeps (max_bin 8: 64
// entries; 1400 continuous rows, 200 per rank at 7 ranks), so the cuts need the exact global
// prune; subsample draws by global row, and reg:absoluteerror's leaves and base score are the
// quantiles of all ranks' rows.
TEST(DistributedLearner, PrunedSketchesSamplingAndAbsoluteErrorEqualOneProcess) {
  testing::SyntheticSpec spec;
  spec.rows = 1400;
  spec.distinct_values = 1 << 20;
  for (const char* objective : {"binary:logistic", "reg:absoluteerror"}) {
    SCOPED_TRACE(objective);
    spec.task = objective[0] == 'b' ? testing::Task::kBinary : testing::Task::kRegression;
    ExpectSameAsOneProcess({{"objective", objective},
                            {"max_depth", "3"},
                            {"max_bin", "8"},
                            {"subsample", "0.7"},
                            {"colsample_bytree", "0.8"},
                            {"nthread", "1"}},
                           testing::MakeSynthetic(spec), 3);
  }
}

TEST(DistributedLearner, WeightedRegressionLossGuideEqualsOneProcess) {
  testing::SyntheticSpec spec;
  spec.task = testing::Task::kRegression;
  spec.rows = 1200;
  spec.weights = true;
  spec.missing = 0.3;
  const data::DMatrix all = testing::MakeSynthetic(spec);
  ExpectSameAsOneProcess({{"objective", "reg:squarederror"},
                          {"grow_policy", "lossguide"},
                          {"max_leaves", "9"},
                          {"max_depth", "0"},
                          {"colsample_bynode", "0.7"},
                          {"eval_metric", "rmse"},
                          {"nthread", "2"}},
                         all, 3);
}

TEST(DistributedLearner, MulticlassEqualsOneProcess) {
  testing::SyntheticSpec spec;
  spec.task = testing::Task::kMulticlass3;
  spec.rows = 900;
  const data::DMatrix all = testing::MakeSynthetic(spec);
  ExpectSameAsOneProcess({{"objective", "multi:softprob"},
                          {"num_class", "3"},
                          {"max_depth", "3"},
                          {"eval_metric", "mlogloss"},
                          {"eval_metric", "merror"},
                          {"nthread", "1"}},
                         all, 2);
}

// A forest's trees share the round's gradients and draw columns by tree index: N ranks grow
// one process's forest (row sampling draws by global row, for single trees and forests alike).
TEST(DistributedLearner, MulticlassForestEqualsOneProcess) {
  testing::SyntheticSpec spec;
  spec.task = testing::Task::kMulticlass3;
  spec.rows = 600;
  const data::DMatrix all = testing::MakeSynthetic(spec);
  ExpectSameAsOneProcess({{"objective", "multi:softprob"},
                          {"num_class", "3"},
                          {"num_parallel_tree", "3"},
                          {"colsample_bynode", "0.7"},
                          {"max_depth", "3"},
                          {"eval_metric", "mlogloss"},
                          {"nthread", "1"}},
                         all, 2);
}

// Monotone bounds and interaction sets are per node state: every rank must derive the same ones
// from the same splits.
TEST(DistributedLearner, ConstraintsEqualOneProcess) {
  testing::SyntheticSpec spec;
  spec.task = testing::Task::kRegression;
  spec.rows = 1000;
  spec.missing = 0.2;
  const data::DMatrix all = testing::MakeSynthetic(spec);
  ExpectSameAsOneProcess({{"objective", "reg:squarederror"},
                          {"max_depth", "5"},
                          {"monotone_constraints", "(1,-1,0,1)"},
                          {"interaction_constraints", "[[0,1,2],[2,3,4,5]]"},
                          {"eval_metric", "rmse"},
                          {"nthread", "1"}},
                         all, 3);
}

// A feature that only the last rank's rows carry: its count and cuts must come from that rank.
// Issue 17's row-wise objectives and their metrics (survival:cox is left out: as in XGBoost,
// each rank's rows form their own risk sets, so N ranks are not the one-process model).
TEST(DistributedLearner, OtherObjectivesEqualOneProcess) {
  const std::vector<std::pair<testing::Task, Params>> cases = {
      {testing::Task::kPositive,
       {{"objective", "reg:tweedie"},
        {"tweedie_variance_power", "1.2"},
        {"eval_metric", "tweedie-nloglik@1.2"},
        {"eval_metric", "gamma-deviance"}}},
      {testing::Task::kPositive,
       {{"objective", "reg:gamma"}, {"eval_metric", "gamma-nloglik"}, {"eval_metric", "mape"}}},
      {testing::Task::kRegression,
       {{"objective", "reg:pseudohubererror"}, {"huber_slope", "0.5"}, {"eval_metric", "mphe"}}},
      {testing::Task::kBinary,
       {{"objective", "binary:hinge"}, {"eval_metric", "aucpr"}, {"eval_metric", "error"}}}};
  for (const auto& [task, params] : cases) {
    SCOPED_TRACE(params[0].second);
    testing::SyntheticSpec spec;
    spec.task = task;
    spec.rows = 700;
    spec.weights = true;
    Params p = params;
    p.insert(p.end(), {{"max_depth", "3"}, {"nthread", "1"}});
    ExpectSameAsOneProcess(p, testing::MakeSynthetic(spec), 3);
  }
}

TEST(DistributedLearner, FeatureSeenByOneRankOnly) {
  testing::SyntheticSpec spec;
  spec.rows = 800;
  spec.features = 4;
  data::DMatrix all = testing::MakeSynthetic(spec);
  data::DMatrix widened;
  widened.row_ptr.assign(1, 0);
  for (std::size_t r = 0; r < all.NumRows(); ++r) {
    for (std::uint64_t k = all.row_ptr[r]; k < all.row_ptr[r + 1]; ++k) {
      widened.index.push_back(all.index[k]);
      widened.value.push_back(all.value[k]);
    }
    if (r >= all.NumRows() * 3 / 4) {  // feature 9 in the last quarter, tied to the label
      widened.index.push_back(9);
      widened.value.push_back(all.label[r] > 0.5f ? 1.0f : 0.0f);
    }
    widened.row_ptr.push_back(widened.index.size());
    widened.label.push_back(all.label[r]);
  }
  widened.num_col = 10;
  ExpectSameAsOneProcess({{"objective", "binary:logistic"}, {"max_depth", "3"}, {"nthread", "1"}},
                         widened, 3);
}

// min_data_in_leaf (LightGBM's) counts a child's rows as H_child x node_rows / H_node. Squared
// error without weights has hessian 1 per row, so the count is exact: every leaf (its cover is
// its row count) holds >= 40 rows, where the same trees without the key have smaller leaves.
// Node rows are summed over the ranks, so N workers still grow the one-process trees.
TEST(DistributedLearner, MinDataInLeafHoldsAndEqualsOneProcess) {
  testing::SyntheticSpec spec;
  spec.task = testing::Task::kRegression;
  spec.rows = 1200;
  const data::DMatrix all = testing::MakeSynthetic(spec);
  Params params = {{"objective", "reg:squarederror"},
                   {"grow_policy", "lossguide"},
                   {"max_leaves", "24"},
                   {"max_depth", "0"},
                   {"min_child_weight", "0"},
                   {"eval_metric", "rmse"},
                   {"nthread", "1"}};
  auto smallest_leaf = [&](const Params& p, int world = 1) {
    const std::vector<RankOutcome> one = TrainOnRanks(p, all, world, 3);
    float smallest = 1e30f;
    auto model = ModelFromJson(one[0].model_json, "rank 0");
    EXPECT_TRUE(model.ok());
    if (!model.ok()) return smallest;
    for (const RegTree& tree : model.value().trees) {
      for (std::size_t n = 0; n < tree.left.size(); ++n) {
        if (tree.IsLeaf(static_cast<int>(n))) smallest = std::min(smallest, tree.sum_hess[n]);
      }
    }
    return smallest;
  };
  EXPECT_LT(smallest_leaf(params), 40.0f);  // the limit binds: the test can tell
  params.emplace_back("min_data_in_leaf", "40");
  EXPECT_GE(smallest_leaf(params), 40.0f);
  ExpectSameAsOneProcess(params, all, 3);
  // Voting grows other trees, but its final search over the elected features keeps the limit.
  params.emplace_back("tree_learner", "voting");
  params.emplace_back("top_k", "2");
  EXPECT_GE(smallest_leaf(params, 3), 40.0f);
}

// XGBoost 1.7's colmaker refuses distributed training; so does exact here, with its words,
// before any round, on every rank (each rank decides from the world size alone).
TEST(DistributedLearner, ExactIsRefusedWhenDistributed) {
  testing::SyntheticSpec spec;
  spec.rows = 200;
  const data::DMatrix all = testing::MakeSynthetic(spec);
  std::vector<data::DMatrix> shards = {Rows(all, 0, 100), Rows(all, 100, 200)};
  std::vector<std::string> messages(2);
  treering::testing::ThreadWorld(2).Run([&](int rank, rabit::Comm* comm) {
    auto learner = test::CreateWithKeys<GBTreeLearner>({{"tree_method", "exact"}}, comm);
    ASSERT_TRUE(learner.ok()) << learner.status().message();
    const Status s = learner.value()->SetTrainData(&shards[static_cast<std::size_t>(rank)]);
    messages[static_cast<std::size_t>(rank)] = s.ok() ? "" : s.message();
  });
  for (const std::string& m : messages) {
    EXPECT_NE(m.find("doesn't support distributed training"), std::string::npos) << m;
  }
}

}  // namespace
}  // namespace treering::booster
