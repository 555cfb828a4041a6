// tree_learner=voting (PV-Tree): the ballot and election rules against hand-computed
// expectations; N thread ranks grow identical trees (the allgathered ballots make every rank
// elect the same features); with top_k >= the number of features every feature is elected and
// the model equals tree_learner=data's byte for byte; with a small top_k the model differs but
// its accuracy on held-out rows stays within a bound of data's; a bad top_k is an error.
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "booster/model_io.h"
#include "booster/tree/learner/gbtree_learner.h"
#include "booster/tree/sync/voting_ballot.h"
#include "booster/tree/sync/voting_split_search.h"
#include "context_keys.h"
#include "synthetic_data.h"
#include "thread_world.h"

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

// One rank's dense rows: a bin per feature and a gradient pair per row.
struct LocalRows {
  std::vector<std::vector<std::uint32_t>> bins;  // [row][feature], local bin
  std::vector<GradientPair> gpair;
};

// Gradients follow features 2 and 5 everywhere (elected at the root and its children) and
// feature 9 only in the last bin of feature 7 (the right child below: 1/16 of the rows, where
// feature 9 wins; too few at the root to be elected there); the rest is noise.
LocalRows MakeLocalRows(int rank, std::uint32_t features, std::uint32_t bins, int rows) {
  std::mt19937 rng(11 + rank);
  std::uniform_int_distribution<std::uint32_t> bin(0, bins - 1);
  std::uniform_real_distribution<float> noise(-0.3f, 0.3f);
  LocalRows out;
  for (int r = 0; r < rows; ++r) {
    std::vector<std::uint32_t> row(features);
    for (std::uint32_t& b : row) b = bin(rng);
    float g = (row[2] < bins / 2 ? -1.0f : 1.0f) + (row[5] < bins / 2 ? 1.0f : -1.0f);
    if (row[7] == bins - 1) g += row[9] < bins / 2 ? 2.5f : -2.5f;
    out.gpair.push_back({g + noise(rng), 1.0f});
    out.bins.push_back(std::move(row));
  }
  return out;
}

Histogram LocalHist(const LocalRows& rows, const std::vector<std::uint32_t>& ids,
                    const HistogramCuts& cuts, const GradientQuantiser& q) {
  Histogram h(cuts.TotalBins());
  for (std::uint32_t r : ids) {
    for (std::uint32_t f = 0; f < cuts.NumFeatures(); ++f) {
      h[cuts.ptrs[f] + rows.bins[r][f]] += q.Quantise(rows.gpair[r]);
    }
  }
  return h;
}

// A root and its two children on 3 ranks with top_k=2: the children's elected features known
// at the root are derived as root - sibling by a search told of the split (Split), and summed
// directly by one that is not; both must find the same splits, bit for bit (the right child's
// on feature 9, which only it elects).
TEST(VotingSplitSearch, SiblingsDerivedFromParentEqualDirectSums) {
  constexpr std::uint32_t kFeatures = 12, kBins = 16;
  HistogramCuts cuts;
  for (std::uint32_t f = 0; f < kFeatures; ++f) {
    for (std::uint32_t b = 0; b < kBins; ++b) cuts.values.push_back(float(b + 1));
    cuts.ptrs.push_back(cuts.ptrs.back() + kBins);
    cuts.min_vals.push_back(-1.0f);
  }
  TreeParam param;
  param.top_k = 2;
  const GradientQuantiser q(std::ldexp(1.0, 30), std::ldexp(1.0, 30));
  std::vector<std::vector<SplitCandidate>> derived(3), direct(3);
  treering::testing::ThreadWorld(3).Run([&](int rank, rabit::Comm* comm) {
    const LocalRows rows = MakeLocalRows(rank, kFeatures, kBins, 900);
    std::vector<std::uint32_t> all(rows.gpair.size()), left, right;
    for (std::uint32_t r = 0; r < all.size(); ++r) {
      all[r] = r;
      (rows.bins[r][7] < kBins - 1 ? left : right).push_back(r);
    }
    const std::vector<std::vector<std::uint32_t>*> spans{&all, &left, &right};
    std::vector<Histogram> hists;
    std::vector<GradientPairInt> sums;
    for (const auto* ids : spans) {
      hists.push_back(LocalHist(rows, *ids, cuts, q));
      GradientPairInt local;
      for (std::uint32_t r : *ids) local += q.Quantise(rows.gpair[r]);
      sums.push_back(GlobalSum(local, *comm));
    }
    auto span = [](const std::vector<std::uint32_t>& v) {
      return RowSpan{v.data(), v.data() + v.size()};
    };
    std::vector<std::uint32_t> features(kFeatures);
    for (std::uint32_t f = 0; f < kFeatures; ++f) features[f] = f;
    const SplitEvaluator global(param, cuts, q);
    for (bool split : {true, false}) {
      const Context one_thread{.nthread = 1};
      VotingSplitSearch search(param, cuts, comm, one_thread);
      search.EvaluateNodes({0}, {{&hists[0], sums[0], features}}, {span(all)}, rows.gpair, global);
      if (split) search.Split(0, 1, 2);
      (split ? derived : direct)[rank] = search.EvaluateNodes(
          {1, 2}, {{&hists[1], sums[1], features}, {&hists[2], sums[2], features}},
          {span(left), span(right)}, rows.gpair, global);
    }
  });
  for (int rank = 0; rank < 3; ++rank) {
    ASSERT_EQ(derived[rank].size(), 2u);
    for (std::size_t n = 0; n < 2; ++n) {
      const SplitCandidate &a = derived[rank][n], &b = direct[rank][n];
      EXPECT_GT(a.loss_chg, 0.0f);
      EXPECT_EQ(a.loss_chg, b.loss_chg) << "rank " << rank << " child " << n;
      EXPECT_EQ(a.feature, b.feature);
      EXPECT_EQ(a.split_bin, b.split_bin);
      EXPECT_EQ(a.left_sum, b.left_sum);
      EXPECT_EQ(a.default_left, b.default_left);
      EXPECT_EQ(a.feature, derived[0][n].feature);
      EXPECT_EQ(a.split_bin, derived[0][n].split_bin);
    }
    EXPECT_EQ(derived[rank][1].feature, 9u);
  }
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
  std::vector<data::DMatrix> shards = testing::ContiguousShards(all, world);
  std::vector<RankResult> out(static_cast<std::size_t>(world));
  treering::testing::ThreadWorld(world).Run([&](int rank, rabit::Comm* comm) {
    auto learner = test::CreateWithKeys<GBTreeLearner>(params, comm);
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
    auto learner = test::CreateWithKeys<GBTreeLearner>({{"tree_learner", "voting"}, {"top_k", bad}},
                                                       &rabit::DefaultComm());
    ASSERT_FALSE(learner.ok()) << bad;
    EXPECT_EQ(learner.status().key(), "top_k");
    EXPECT_NE(learner.status().message().find("top_k"), std::string::npos)
        << learner.status().message();
  }
  auto cat = test::CreateWithKeys<GBTreeLearner>(
      {{"tree_learner", "voting"}, {"feature_types", "q,c"}}, &rabit::DefaultComm());
  ASSERT_FALSE(cat.ok());
  EXPECT_EQ(cat.status().key(), "tree_learner");
  EXPECT_NE(cat.status().message().find("categorical"), std::string::npos);
  EXPECT_TRUE(test::CreateWithKeys<GBTreeLearner>({{"tree_learner", "voting"}, {"top_k", "1"}},
                                                  &rabit::DefaultComm())
                  .ok());
}

}  // namespace
}  // namespace treering::booster
