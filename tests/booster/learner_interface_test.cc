// The Learner interface as the driver uses it, once per learner (gbtree and mlp): the rabit
// checkpoint bytes let a fresh learner continue exactly where the first one was, the round plan
// numbers rounds as each learner's keys say, and the round cost is counted.
#include <functional>
#include <memory>
#include <ostream>
#include <string>

#include <gtest/gtest.h>

#include "booster/mlp/mlp_learner.h"
#include "booster/tree/learner/gbtree_learner.h"
#include "context_keys.h"
#include "rabit/comm.h"
#include "synthetic_data.h"

namespace treering::booster {
namespace {

using Params = std::vector<std::pair<std::string, std::string>>;

struct Case {
  std::string name;
  std::function<Result<std::unique_ptr<Learner>>()> create;
};
void PrintTo(const Case& c, std::ostream* out) { *out << c.name; }

template <typename L>
Result<std::unique_ptr<Learner>> AsLearner(Result<std::unique_ptr<L>> learner) {
  if (!learner.ok()) return learner.status();
  return std::unique_ptr<Learner>(std::move(learner.value()));
}

const Case kCases[] = {
    {"gbtree",
     [] {
       return AsLearner(test::CreateWithKeys<GBTreeLearner>({{"objective", "binary:logistic"},
                                                             {"max_depth", "3"},
                                                             {"subsample", "0.8"},
                                                             {"nthread", "1"}},
                                                            &rabit::DefaultComm()));
     }},
    {"mlp",
     [] {
       return AsLearner(mlp::MlpLearner::Create({{"objective", "binary:logistic"},
                                                 {"hidden_layers", "4"},
                                                 {"batch_size", "64"},
                                                 {"epochs", "4"}},
                                                Context{.nthread = 1}, &rabit::DefaultComm()));
     }},
};

// nthread, seed / random_state and verbosity are the Context's keys alone (base/context.h):
// no learner table parses them a second time with a range of its own.
TEST(LearnerKeys, ContextKeysAreNotLearnerKeys) {
  for (const auto* docs : {&GBTreeLearner::Params(), &mlp::MlpLearner::Params()}) {
    for (const ParamDoc& d : *docs) {
      EXPECT_EQ(Context::Table().Find(d.key), nullptr) << d.key;
    }
  }
  auto refused = GBTreeLearner::Create({{"nthread", "2"}}, Context{}, &rabit::DefaultComm());
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.status().key(), "nthread");
}

class LearnerInterface : public ::testing::TestWithParam<Case> {
 protected:
  // A learner on its own copy of the data (the MLP rewrites its matrices), `rounds` rounds in.
  std::unique_ptr<Learner> Trained(int rounds, const std::string* checkpoint = nullptr) {
    auto learner = GetParam().create();
    EXPECT_TRUE(learner.ok()) << learner.status().message();
    data_.push_back(std::make_unique<data::DMatrix>(testing::MakeSynthetic({.rows = 600})));
    EXPECT_TRUE((*learner)->SetTrainData(data_.back().get()).ok());
    EXPECT_TRUE((*learner)->AddEvalSet("train", data_.back().get()).ok());
    if (checkpoint != nullptr) {
      EXPECT_TRUE((*learner)->RestoreCheckpoint(*checkpoint).ok());
    }
    for (int i = 0; i < rounds; ++i) {
      EXPECT_TRUE((*learner)->UpdateOneIter(i).ok());
      EXPECT_TRUE((*learner)->EvalOneIter(i).ok());
    }
    return std::move(learner).value();
  }

 private:
  std::vector<std::unique_ptr<data::DMatrix>> data_;
};

TEST_P(LearnerInterface, CheckpointContinuesTheUninterruptedRun) {
  auto full = Trained(4);
  auto first = Trained(2);
  std::string checkpoint;
  first->SaveCheckpoint(&checkpoint);
  auto restarted = Trained(2, &checkpoint);
  EXPECT_EQ(restarted->RoundsInModel(), 4);
  auto want = full->SerializeModel();
  auto got = restarted->SerializeModel();
  ASSERT_TRUE(want.ok() && got.ok());
  EXPECT_TRUE(want.value() == got.value()) << GetParam().name << ": models differ";
  EXPECT_TRUE(restarted->CheckRanksAgree(3, /*requested=*/true).ok());
}

TEST_P(LearnerInterface, RoundCostAndTraits) {
  auto learner = Trained(1);
  EXPECT_GT(learner->LastRoundCost().comp_s, 0.0);
  EXPECT_EQ(learner->Traits().model_suffix,
            GetParam().name == "mlp" ? "mlp" : "model");  // XGBoost CLI's NNNN.model
  // gbtree: num_round more rounds from 0; mlp: up to `epochs` (4), numbered on from 1.
  const RoundPlan plan = learner->PlanRounds(/*num_round=*/10, /*save_period=*/2);
  EXPECT_EQ(plan.first, GetParam().name == "mlp" ? 1 : 0);
  EXPECT_EQ(plan.rounds, GetParam().name == "mlp" ? 3 : 10);
  EXPECT_EQ(plan.save_period, GetParam().name == "mlp" ? 0 : 2);
}

INSTANTIATE_TEST_SUITE_P(BothLearners, LearnerInterface, ::testing::ValuesIn(kCases),
                         [](const auto& info) { return info.param.name; });

}  // namespace
}  // namespace treering::booster
