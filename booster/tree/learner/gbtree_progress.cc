// GBTreeLearner's part in the driver's round loop: XGBoost's round numbering, debug_synchronize's
// tree comparison, and the lines XGBoost's CLI prints (load time, "boosting round i") with
// treering's one-line summary.
#include <cstdio>

#include "booster/tree/learner/gbtree_learner.h"
#include "booster/tree/learner/tree_agreement.h"

namespace treering::booster {

// num_round more rounds, numbered from 0 whatever model_in holds (XGBoost's CLI).
RoundPlan GBTreeLearner::PlanRounds(int num_round, int save_period) const {
  return RoundPlan{0, num_round, save_period};
}

// Broadcasting every tree costs a round trip per tree: only when debug_synchronize asks.
Status GBTreeLearner::CheckRanksAgree(int iter, bool requested) {
  if (!requested) return Status::Ok();
  return CheckTreesAgree(model_, round_first_tree_, iter, *comm_);
}

std::vector<LogLine> GBTreeLearner::Lines(TrainStage stage, const TrainProgress& p) const {
  switch (stage) {
    case TrainStage::kDataLoaded:
      return {{2, "Loading data: " + std::to_string(p.load_s) + " sec"}};
    case TrainStage::kReady: {
      std::vector<LogLine> lines;
      if (!gpu_note_.empty()) lines.push_back({1, gpu_note_});
      if (!method_note_.empty()) lines.push_back({1, method_note_});
      return lines;
    }
    case TrainStage::kRoundBegin:
      return {{2, "boosting round " + std::to_string(p.round) + ", " + std::to_string(p.loop_s) +
                      " sec elapsed"}};
    case TrainStage::kBeforeTimingReport: {
      char line[256];
      std::snprintf(line, sizeof(line),
                    "treering: %d rounds in %.3f s (load %.3f s, setup %.3f s, boosting %.3f s, "
                    "evaluation %.3f s)",
                    p.rounds_run, p.job_s, p.load_s, timing_.setup_s, timing_.boost_s,
                    timing_.eval_s);
      return {{1, line}};
    }
    default:
      return {};
  }
}

}  // namespace treering::booster
