// Decide(): the consensus decision as a pure function of every rank's state.
#include <gtest/gtest.h>

#include "engine_params.h"
#include "engines/robust/consensus.h"

namespace rabit::engine {
namespace {

RankState Op(std::uint32_t version, std::uint64_t seq, Phase phase = Phase::kOp) {
  RankState s;
  s.phase = phase;
  s.version = version;
  s.seq = seq;
  s.bootstrap_done = 2;
  return s;
}

RankState Boot(std::uint64_t seq, std::uint64_t done) {
  RankState s;
  s.seq = seq;
  s.bootstrap_done = done;
  return s;
}

RankState Load(std::uint64_t done = 2) {
  RankState s;
  s.phase = Phase::kLoad;
  s.bootstrap_done = done;
  return s;
}

TEST(Consensus, EveryoneAtTheSameCollectiveRunsIt) {
  const Action a = Decide({Op(3, 5), Op(3, 5), Op(3, 5)});
  EXPECT_EQ(a.kind, ActionKind::kRun);
}

TEST(Consensus, LaggardIsServedByTheLowestRankThatFinishedTheCollective) {
  const std::vector<RankState> states = {Op(3, 4), Op(3, 6), Op(3, 5), Op(3, 6)};
  const Action a = Decide(states);
  EXPECT_EQ(a.kind, ActionKind::kServeResult);
  EXPECT_EQ(a.seq, 4u);
  EXPECT_EQ(a.holder, 1);
  EXPECT_TRUE(IsRequester(a, states, 0));
  EXPECT_FALSE(IsRequester(a, states, 2));
}

TEST(Consensus, RestartedRankGetsSetupResultsThenTheOldestCommittedCheckpoint) {
  const std::vector<RankState> booting = {Op(2, 1), Boot(1, 1), Op(2, 1, Phase::kCommit)};
  Action a = Decide(booting);
  EXPECT_EQ(a.kind, ActionKind::kServeBootstrap);
  EXPECT_EQ(a.holder, 0);
  EXPECT_EQ(a.seq, 1u);
  RankState committed = Op(3, 0);
  const std::vector<RankState> loading = {Op(3, 1), Load(), Op(2, 7, Phase::kCommit), committed};
  a = Decide(loading);
  EXPECT_EQ(a.kind, ActionKind::kServeCheckpoint);
  EXPECT_EQ(a.holder, 2);
  EXPECT_EQ(a.version, 2u);
  EXPECT_TRUE(IsRequester(a, loading, 1));
}

TEST(Consensus, PendingCommitFinishesWhenSomeoneCommitted) {
  const std::vector<RankState> states = {Op(4, 0), Op(3, 6, Phase::kCommit), Op(4, 1)};
  const Action a = Decide(states);
  EXPECT_EQ(a.kind, ActionKind::kFinishCommit);
  EXPECT_TRUE(IsRequester(a, states, 1));
  EXPECT_FALSE(IsRequester(a, states, 0));
}

TEST(Consensus, LoaderReplaysTheOlderVersionFromARankPendingItsCommit) {
  // Ranks 0 and 1 restarted and loaded version 19 (rank 2 has not committed 20 yet), rank 3 did.
  const std::vector<RankState> states = {Op(19, 0), Op(19, 0), Op(19, 6, Phase::kCommit),
                                         Op(20, 1)};
  const Action a = Decide(states);
  EXPECT_EQ(a.kind, ActionKind::kServeResult);
  EXPECT_EQ(a.holder, 2);
  EXPECT_TRUE(IsRequester(a, states, 0));
  EXPECT_TRUE(IsRequester(a, states, 1));
  EXPECT_FALSE(IsRequester(a, states, 2));
}

TEST(Consensus, AllLoadingIsAFreshStart) {
  EXPECT_EQ(Decide({Load(), Load()}).kind, ActionKind::kFreshStart);
}

TEST(Consensus, UnrecoverableStatesFailWithAReason) {
  // A restarted rank runs a setup collective nobody else ran.
  Action a = Decide({Op(1, 0), Boot(2, 2)});
  EXPECT_EQ(a.kind, ActionKind::kFail);
  EXPECT_NE(a.error.find("rank 1 runs setup collective #2"), std::string::npos) << a.error;
  // A rank mid-version while another already committed the next one: divergence.
  a = Decide({Op(2, 3), Op(3, 0)});
  EXPECT_EQ(a.kind, ActionKind::kFail);
  EXPECT_NE(a.error.find("rank 0 is at collective #3 of version 2"), std::string::npos) << a.error;
  // Local state whose only replica holder was restarted too.
  RankState holder = Op(2, 0);
  holder.has_local = 1;
  holder.local_replicas = 1;
  a = Decide({holder, Load(), Load()});
  EXPECT_EQ(a.kind, ActionKind::kFail);
  EXPECT_NE(a.error.find("of rank 1 is lost"), std::string::npos) << a.error;
}

TEST(MockParam, RepeatableAndValidated) {
  auto p = ReadEngineParams({{"mock", "1,2,3,0"}, {"mock", "0,0,0,1"}});
  ASSERT_TRUE(p.ok()) << p.status().message();
  ASSERT_EQ(p->mocks.size(), 2u);
  EXPECT_EQ(p->mocks[0].rank, 1);
  EXPECT_EQ(p->mocks[0].version, 2u);
  EXPECT_EQ(p->mocks[0].seq, 3u);
  EXPECT_EQ(p->mocks[1].ndeath, 1u);
  for (const char* bad : {"1,2,3", "1,2,3,4,5", "a,1,1,1", "1,,1,1", "-1,0,0,0"}) {
    auto q = ReadEngineParams({{"mock", bad}});
    ASSERT_FALSE(q.ok()) << bad;
    EXPECT_NE(q.status().message().find("mock: expected rank,version,seqno,ndeath"),
              std::string::npos)
        << q.status().message();
  }
}

}  // namespace
}  // namespace rabit::engine
