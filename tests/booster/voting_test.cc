// tree_learner=voting (PV-Tree): the ballot and election rules against hand-computed
// expectations; N thread ranks grow identical trees (the allgathered ballots make every rank
// elect the same features); with top_k >= the number of features every feature is elected and
// the model equals tree_learner=data's byte for byte; with a small top_k the model differs but
// its accuracy on held-out rows stays within a bound of data's; a bad top_k is an error.
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "booster/gbtree_learner.h"
#include "booster/model_io.h"
#include "synthetic_data.h"
#include "thread_world.h"
#include "voting_ballot.h"

namespace treering::booster {
namespace {

using Params = std::vector<std::pair<std::string, std::string>>;

SplitCandidate Candidate(std::uint32_t feature, float loss_chg) {
  SplitCandidate c;
  c.feature = feature;
  c.loss_chg = loss_chg;
  return c;
}

std::vector<std::uint32_t> Features(const std::vector<Ballot>& ballots) {
  std::vector<std::uint32_t> out;
  for (const Ballot& b : ballots) out.push_back(b.feature);
  return out;
}

TEST(VotingBallot, ProposesTopKByGainTiesToSmallerFeature) {
  const std::vector<SplitCandidate> c{Candidate(2, 1.0f), Candidate(5, 3.0f), Candidate(7, 1.0f),
                                      Candidate(9, 0.5f)};
  EXPECT_EQ(Features(ProposeFeatures(4, c, 2)), (std::vector<std::uint32_t>{5, 2}));
  const std::vector<Ballot> three = ProposeFeatures(4, c, 3);
  EXPECT_EQ(Features(three), (std::vector<std::uint32_t>{5, 2, 7}));
  for (const Ballot& b : three) EXPECT_EQ(b.node, 4u);
  // top_k beyond the candidates: all of them, a feature without any split (-inf) last.
  const std::vector<SplitCandidate> none{Candidate(1, -std::numeric_limits<float>::infinity()),
                                         Candidate(3, 0.0f)};
  EXPECT_EQ(Features(ProposeFeatures(0, none, 20)), (std::vector<std::uint32_t>{3, 1}));
}

TEST(VotingBallot, ElectsMostVotesThenGainThenSmallerFeature) {
  // Votes: f4 x3, f1 x2 (gain 5), f6 x2 (gain 5), f8 x2 (gain 9), f2 x1; f99 is not allowed.
  const std::vector<Ballot> b{{0, 4, 1}, {0, 1, 2},  {0, 6, 4}, {0, 99, 50}, {0, 4, 1}, {0, 1, 3},
                              {0, 8, 4}, {0, 2, 80}, {0, 4, 1}, {0, 6, 1},   {0, 8, 5}};
  const std::vector<std::uint32_t> allowed{1, 2, 4, 6, 8};
  EXPECT_EQ(ElectFeatures(b, allowed, 1), (std::vector<std::uint32_t>{4}));
  EXPECT_EQ(ElectFeatures(b, allowed, 2), (std::vector<std::uint32_t>{4, 8}));
  EXPECT_EQ(ElectFeatures(b, allowed, 3), (std::vector<std::uint32_t>{1, 4, 8}));
  EXPECT_EQ(ElectFeatures(b, allowed, 4), (std::vector<std::uint32_t>{1, 4, 6, 8}));
  // More seats than voted features: only features with a vote.
  EXPECT_EQ(ElectFeatures(b, allowed, 10), (std::vector<std::uint32_t>{1, 2, 4, 6, 8}));
  EXPECT_TRUE(ElectFeatures(b, {3, 5}, 4).empty());
}

data::DMatrix Rows(const data::DMatrix& dm, std::size_t begin, std::size_t end) {
  data::DMatrix out;
  out.row_ptr.assign(1, 0);
  out.num_col = dm.num_col;
  for (std::size_t r = begin; r < end; ++r) {
    for (std::uint64_t k = dm.row_ptr[r]; k < dm.row_ptr[r + 1]; ++k) {
      out.index.push_back(dm.index[k]);
      out.value.push_back(dm.value[k]);
    }
    out.row_ptr.push_back(out.index.size());
    out.label.push_back(dm.label[r]);
  }
  return out;
}

struct RankResult {
  std::string model;   // JSON
  double error = 0.0;  // binary error on the held-out rows
};

// Every rank's model after `rounds` rounds on contiguous shards of `all`, and its error on
// `test` (binary:logistic: predictions thresholded at 0.5).
std::vector<RankResult> TrainOnRanks(Params params, const data::DMatrix& all, data::DMatrix* test,
                                     int world, int rounds) {
  params.emplace_back("tree_method", "hist");
  std::vector<data::DMatrix> shards;
  for (int r = 0; r < world; ++r) {
    shards.push_back(Rows(all, all.NumRows() * r / world, all.NumRows() * (r + 1) / world));
  }
  std::vector<RankResult> out(static_cast<std::size_t>(world));
  treering::testing::ThreadWorld(world).Run([&](int rank, rabit::Comm* comm) {
    auto learner = GBTreeLearner::Create(params, comm);
    ASSERT_TRUE(learner.ok()) << learner.status().message();
    ASSERT_TRUE(learner.value()->SetTrainData(&shards[static_cast<std::size_t>(rank)]).ok());
    for (int i = 0; i < rounds; ++i) ASSERT_TRUE(learner.value()->UpdateOneIter(i).ok());
    auto json = ModelToJson(learner.value()->Model());
    ASSERT_TRUE(json.ok());
    RankResult& mine = out[static_cast<std::size_t>(rank)];
    mine.model = json.value();
    if (test == nullptr || rank != 0) return;
    std::vector<float> pred;
    ASSERT_TRUE(learner.value()->Predict(test, {}, &pred).ok());
    std::size_t wrong = 0;
    for (std::size_t i = 0; i < pred.size(); ++i)
      wrong += (pred[i] > 0.5f) != (test->label[i] > 0.5f);
    mine.error = double(wrong) / double(pred.size());
  });
  return out;
}

void ExpectVotingEqualsData(Params params, const data::DMatrix& all, int world, int rounds) {
  Params data = params, voting = params;
  data.emplace_back("tree_learner", "data");
  voting.emplace_back("tree_learner", "voting");
  const std::vector<RankResult> want = TrainOnRanks(data, all, nullptr, world, rounds);
  const std::vector<RankResult> got = TrainOnRanks(voting, all, nullptr, world, rounds);
  ASSERT_FALSE(want[0].model.empty());
  for (int r = 0; r < world; ++r) EXPECT_EQ(got[r].model, want[0].model) << "rank " << r;
}

// top_k = 12 >= 11 features: every rank proposes every feature, all are elected.
TEST(Voting, TopKCoveringAllFeaturesEqualsDataMode) {
  testing::SyntheticSpec spec;
  spec.rows = 1500;
  spec.features = 11;
  spec.distinct_values = 32;
  ExpectVotingEqualsData({{"objective", "binary:logistic"},
                          {"max_depth", "5"},
                          {"colsample_bynode", "0.8"},
                          {"top_k", "12"},
                          {"nthread", "1"}},
                         testing::MakeSynthetic(spec), 3, 4);
}

// Lossguide (one node per batch) on sparse multiclass data, top_k 20 >= 16 features.
TEST(Voting, LossGuideSparseTopKCoveringAllEqualsDataMode) {
  testing::SyntheticSpec spec;
  spec.task = testing::Task::kMulticlass3;
  spec.rows = 1200;
  spec.features = 16;
  spec.missing = 0.6;
  ExpectVotingEqualsData({{"objective", "multi:softprob"},
                          {"num_class", "3"},
                          {"grow_policy", "lossguide"},
                          {"max_leaves", "10"},
                          {"max_depth", "0"},
                          {"nthread", "2"}},
                         testing::MakeSynthetic(spec), 2, 2);
}

// top_k = 2 of 40 features on 4 ranks: 4 features summed per node. Every rank grows the same
// trees; the model is not data mode's, and its held-out error is within 0.03 of data mode's.
TEST(Voting, SmallTopKRanksAgreeAndAccuracyWithinBound) {
  testing::SyntheticSpec spec;
  spec.rows = 4000;
  spec.features = 40;
  spec.missing = 0.2;
  const data::DMatrix all = testing::MakeSynthetic(spec);
  spec.seed = 99;
  spec.rows = 2000;
  data::DMatrix test = testing::MakeSynthetic(spec);
  const Params base{{"objective", "binary:logistic"}, {"max_depth", "4"}, {"nthread", "1"}};
  Params data = base, voting = base;
  data.emplace_back("tree_learner", "data");
  voting.emplace_back("tree_learner", "voting");
  voting.emplace_back("top_k", "2");
  const std::vector<RankResult> want = TrainOnRanks(data, all, &test, 4, 6);
  const std::vector<RankResult> got = TrainOnRanks(voting, all, &test, 4, 6);
  for (int r = 1; r < 4; ++r) EXPECT_EQ(got[r].model, got[0].model) << "rank " << r;
  EXPECT_NE(got[0].model, want[0].model) << "top_k=2 of 40 features elected every feature";
  RecordProperty("voting_error", std::to_string(got[0].error));
  RecordProperty("data_error", std::to_string(want[0].error));
  EXPECT_LE(got[0].error, want[0].error + 0.03)
      << "voting " << got[0].error << ", data " << want[0].error;
}

// Monotone and interaction constraints with a small top_k: the ranks still agree.
TEST(Voting, ConstraintsRanksAgree) {
  testing::SyntheticSpec spec;
  spec.task = testing::Task::kRegression;
  spec.rows = 1500;
  spec.features = 8;
  const std::vector<RankResult> got =
      TrainOnRanks({{"objective", "reg:squarederror"},
                    {"monotone_constraints", "(1,0,-1)"},
                    {"interaction_constraints", "[[0,1,2],[3,4,5,6,7]]"},
                    {"tree_learner", "voting"},
                    {"top_k", "1"},
                    {"nthread", "1"}},
                   testing::MakeSynthetic(spec), nullptr, 3, 3);
  for (int r = 1; r < 3; ++r) EXPECT_EQ(got[r].model, got[0].model) << "rank " << r;
}

TEST(Voting, BadTopKAndCategoricalAreErrorsNamingTheKey) {
  for (const char* bad : {"0", "-3", "x"}) {
    auto learner =
        GBTreeLearner::Create({{"tree_learner", "voting"}, {"top_k", bad}}, &rabit::DefaultComm());
    ASSERT_FALSE(learner.ok()) << bad;
    EXPECT_EQ(learner.status().key(), "top_k");
    EXPECT_NE(learner.status().message().find("top_k"), std::string::npos)
        << learner.status().message();
  }
  auto cat = GBTreeLearner::Create({{"tree_learner", "voting"}, {"feature_types", "q,c"}},
                                   &rabit::DefaultComm());
  ASSERT_FALSE(cat.ok());
  EXPECT_EQ(cat.status().key(), "tree_learner");
  EXPECT_NE(cat.status().message().find("categorical"), std::string::npos);
  EXPECT_TRUE(
      GBTreeLearner::Create({{"tree_learner", "voting"}, {"top_k", "1"}}, &rabit::DefaultComm())
          .ok());
}

}  // namespace
}  // namespace treering::booster
