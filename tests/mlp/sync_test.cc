// Synchronous SGD across in-process ranks: R workers with batch B take the same steps as one
// worker with batch R*B; ranks stay identical; shards of unequal size agree on the step count;
// global standardisation; shuffles as a function of (seed, epoch); bucket plans; resume.
#include <algorithm>
#include <cmath>

#include <gtest/gtest.h>

#include "booster/mlp/gradient_buckets.h"
#include "booster/mlp/model_file.h"
#include "booster/mlp/trainer.h"
#include "synthetic.h"
#include "thread_world.h"

namespace treering::booster::mlp {
namespace {

constexpr int kFeatures = 12;
constexpr int kClasses = 3;

MlpParam SmallParam(OptimizerKind opt, int batch) {
  MlpParam p;
  p.hidden_layers = {16, 8};
  p.optimizer = opt;
  p.learning_rate = opt == OptimizerKind::kAdam ? 0.01 : 0.1;
  p.lambda = 0.01;
  p.batch_size = batch;
  p.epochs = 3;
  p.shuffle = false;
  p.lr_scaling = false;  // same learning rate for 1 x 2B and 2 x B
  p.objective = "multi:softmax";
  p.num_class = kClasses;
  p.bucket_bytes = 1024;  // several buckets even for this small net
  p.first_bucket_bytes = 1024;
  return p;
}

struct RankResult {
  std::vector<float> params;
  std::int64_t steps_per_epoch = 0;
  bool agree = false;
  double last_loss = 0;
};

// Trains `epochs` epochs on shards[r] for each rank; returns each rank's final state.
std::vector<RankResult> Train(const MlpParam& param, std::vector<data::DMatrix> shards) {
  const int world = static_cast<int>(shards.size());
  std::vector<RankResult> out(static_cast<std::size_t>(world));
  treering::testing::ThreadWorld tw(world);
  tw.Run([&](int rank, rabit::Comm* comm) {
    data::DMatrix& m = shards[static_cast<std::size_t>(rank)];
    const InputScaling scaling = ComputeScaling(m, kFeatures, true, comm);
    scaling.ScaleRows(&m, 1);
    Trainer t(param, Architecture({kFeatures, 16, 8, kClasses}, param.activation),
              Context{.nthread = 1}, comm);
    t.Start(nullptr);
    t.SetTrainShard(&m);
    EpochReport r;
    for (int e = 0; e < param.epochs; ++e) r = t.RunEpoch(scaling);
    RankResult& res = out[static_cast<std::size_t>(rank)];
    res.params = t.params();
    res.steps_per_epoch = t.steps_per_epoch();
    res.agree = t.RanksAgree();
    res.last_loss = r.train_loss;
  });
  return out;
}

// Rows of m dealt in blocks of `batch`: block b goes to rank b % world, so with shuffle off
// rank r's step-s minibatch is the r-th slice of one worker's step-s minibatch of world*batch.
std::vector<data::DMatrix> DealBlocks(const data::DMatrix& m, int world, std::size_t batch) {
  std::vector<std::vector<std::size_t>> rows(static_cast<std::size_t>(world));
  for (std::size_t i = 0; i < m.NumRows(); ++i) rows[(i / batch) % world].push_back(i);
  std::vector<data::DMatrix> shards;
  for (const auto& r : rows) shards.push_back(testing::SliceRows(m, r));
  return shards;
}

void ExpectOneWorkerEqualsTwo(OptimizerKind opt) {
  const data::DMatrix all =
      testing::SyntheticRows(200, kFeatures, kClasses, 5);  // last step partial
  const auto one = Train(SmallParam(opt, 16), {all});
  const auto two = Train(SmallParam(opt, 8), DealBlocks(all, 2, 8));
  ASSERT_EQ(one[0].steps_per_epoch, two[0].steps_per_epoch);
  EXPECT_TRUE(two[0].agree);
  EXPECT_EQ(two[0].params, two[1].params);  // ranks bit-identical
  double worst = 0;
  for (std::size_t i = 0; i < one[0].params.size(); ++i) {
    worst = std::max(worst, std::fabs(double(one[0].params[i]) - two[0].params[i]) /
                                (1e-3 + std::fabs(one[0].params[i])));
  }
  EXPECT_LT(worst, 1e-3);  // float summation order differs, nothing else
  EXPECT_NEAR(one[0].last_loss, two[0].last_loss, 1e-4);
  EXPECT_NE(one[0].params,
            InitialParams(Architecture({kFeatures, 16, 8, kClasses}, Activation::kRelu), 0));
}

TEST(SyncSgd, OneWorkerBatch2BEqualsTwoWorkersBatchBWithSgd) {
  ExpectOneWorkerEqualsTwo(OptimizerKind::kSgd);
}

TEST(SyncSgd, OneWorkerBatch2BEqualsTwoWorkersBatchBWithAdam) {
  ExpectOneWorkerEqualsTwo(OptimizerKind::kAdam);
}

TEST(SyncSgd, UnequalShardsAgreeOnStepsAndStayIdentical) {
  const data::DMatrix all = testing::SyntheticRows(70, kFeatures, kClasses, 9);
  std::vector<std::size_t> a, b, c;
  for (std::size_t i = 0; i < 70; ++i) (i < 40 ? a : i < 61 ? b : c).push_back(i);
  MlpParam p = SmallParam(OptimizerKind::kSgd, 8);
  p.shuffle = true;
  const auto res = Train(
      p, {testing::SliceRows(all, a), testing::SliceRows(all, b), testing::SliceRows(all, c)});
  for (const RankResult& r : res) {
    EXPECT_EQ(r.steps_per_epoch, 5);  // ceil(40 / 8): the largest shard decides
    EXPECT_TRUE(r.agree);
    EXPECT_EQ(r.params, res[0].params);
  }
}

// The end-of-epoch check fails when replicas diverge: here rank 1 applies a different L2
// penalty, so the same averaged gradients lead to different weights.
TEST(SyncSgd, ChecksumComparisonCatchesDivergedRanks) {
  const data::DMatrix all = testing::SyntheticRows(64, kFeatures, kClasses, 6);
  auto shards = DealBlocks(all, 2, 8);
  std::vector<int> agree(2, -1);
  treering::testing::ThreadWorld(2).Run([&](int rank, rabit::Comm* comm) {
    MlpParam p = SmallParam(OptimizerKind::kSgd, 8);
    p.lambda = rank == 0 ? 0.0 : 0.5;
    data::DMatrix& m = shards[static_cast<std::size_t>(rank)];
    const InputScaling scaling = ComputeScaling(m, kFeatures, true, comm);
    scaling.ScaleRows(&m, 1);
    Trainer t(p, Architecture({kFeatures, 16, 8, kClasses}, p.activation), Context{.nthread = 1},
              comm);
    t.Start(nullptr);
    t.SetTrainShard(&m);
    agree[static_cast<std::size_t>(rank)] = t.RanksAgree() ? 1 : 0;  // right after the broadcast
    t.RunEpoch(scaling);
    agree[static_cast<std::size_t>(rank)] += t.RanksAgree() ? 10 : 0;
  });
  EXPECT_EQ(agree[0], 1);  // equal after the broadcast, different after the epoch: both see it
  EXPECT_EQ(agree[1], 1);
}

TEST(SyncSgd, ScalingUsesGlobalStatistics) {
  const data::DMatrix all = testing::SyntheticRows(50, kFeatures, kClasses, 2);
  std::vector<std::size_t> a, b;
  for (std::size_t i = 0; i < 50; ++i) (i % 3 == 0 ? a : b).push_back(i);
  std::vector<data::DMatrix> shards{testing::SliceRows(all, a), testing::SliceRows(all, b)};
  std::vector<InputScaling> got(2);
  treering::testing::ThreadWorld(2).Run([&](int r, rabit::Comm* comm) {
    got[static_cast<std::size_t>(r)] =
        ComputeScaling(shards[static_cast<std::size_t>(r)], kFeatures, true, comm);
  });
  // Expected: mean and population std over all 50 rows, absent entries counted as 0.
  for (int j = 0; j < kFeatures; ++j) {
    double s = 0, s2 = 0;
    for (std::size_t e = 0; e < all.index.size(); ++e) {
      if (all.index[e] == static_cast<std::uint32_t>(j)) {
        s += all.value[e];
        s2 += double(all.value[e]) * all.value[e];
      }
    }
    const double mean = s / 50, sd = std::sqrt(s2 / 50 - mean * mean);
    EXPECT_NEAR(got[0].inv_std[j], 1.0 / sd, 1e-5);
    EXPECT_NEAR(got[0].center[j], mean / sd, 1e-5);
    EXPECT_EQ(got[0].inv_std[j], got[1].inv_std[j]);
  }
}

TEST(SyncSgd, EpochOrderIsAFunctionOfSeedAndEpoch) {
  EXPECT_EQ(EpochOrder(1000, 7, 3, true), EpochOrder(1000, 7, 3, true));
  EXPECT_NE(EpochOrder(1000, 7, 3, true), EpochOrder(1000, 7, 4, true));
  EXPECT_NE(EpochOrder(1000, 7, 3, true), EpochOrder(1000, 8, 3, true));
  std::vector<std::uint32_t> order = EpochOrder(1000, 7, 3, true);
  std::sort(order.begin(), order.end());
  EXPECT_EQ(order, EpochOrder(1000, 7, 3, false));  // a permutation
}

TEST(SyncSgd, BucketPlanHasSmallFirstBucketAndCoversEverything) {
  const auto plan = PlanBuckets(10000, 4096, 16384);
  ASSERT_EQ(plan.size(), 4u);  // 1024, 4096, 4096, 784 floats
  EXPECT_EQ(plan[0].end, 1024u);
  EXPECT_EQ(plan[1].end - plan[1].begin, 4096u);
  EXPECT_EQ(plan.back().end, 10000u);
  for (std::size_t i = 1; i < plan.size(); ++i) EXPECT_EQ(plan[i].begin, plan[i - 1].end);
}

// 2 epochs, save (through the model file bytes), resume for 2 more == 4 straight epochs, on two
// ranks, bit for bit: parameters, optimizer slots and step count.
TEST(SyncSgd, ResumeFromSnapshotEqualsUninterrupted) {
  for (OptimizerKind opt : {OptimizerKind::kSgd, OptimizerKind::kAdam}) {
    MlpParam p = SmallParam(opt, 8);
    p.shuffle = true;
    p.epochs = 4;
    const data::DMatrix all = testing::SyntheticRows(90, kFeatures, kClasses, 4);
    auto shards = DealBlocks(all, 2, 8);
    const Architecture arch({kFeatures, 16, 8, kClasses}, p.activation);
    std::vector<TrainerState> straight(2), resumed(2);
    treering::testing::ThreadWorld(2).Run([&](int rank, rabit::Comm* comm) {
      data::DMatrix m = shards[static_cast<std::size_t>(rank)];
      const InputScaling scaling = ComputeScaling(m, kFeatures, true, comm);
      scaling.ScaleRows(&m, 1);
      Trainer full(p, arch, Context{.nthread = 1}, comm);
      full.Start(nullptr);
      full.SetTrainShard(&m);
      for (int e = 0; e < 4; ++e) full.RunEpoch(scaling);
      straight[static_cast<std::size_t>(rank)] = full.State();

      Trainer first(p, arch, Context{.nthread = 1}, comm);
      first.Start(nullptr);
      first.SetTrainShard(&m);
      for (int e = 0; e < 2; ++e) first.RunEpoch(scaling);
      MlpModel snapshot{arch.widths(), p.activation, p.objective, p.num_class, opt, 0,
                        scaling,       first.State()};
      auto loaded = ParseModel(SerializeModel(snapshot), "snapshot");
      ASSERT_TRUE(loaded.ok()) << loaded.status().message();
      Trainer second(p, arch, Context{.nthread = 1}, comm);
      second.Start(&loaded->state);
      second.SetTrainShard(&m);
      while (second.epochs_done() < 4) second.RunEpoch(loaded->scaling);
      resumed[static_cast<std::size_t>(rank)] = second.State();
    });
    for (int r = 0; r < 2; ++r) {
      EXPECT_EQ(straight[r].params, resumed[r].params);
      EXPECT_EQ(straight[r].slots, resumed[r].slots);
      EXPECT_EQ(straight[r].steps, resumed[r].steps);
      EXPECT_EQ(resumed[r].epochs_done, 4);
    }
  }
}

}  // namespace
}  // namespace treering::booster::mlp
