// Per-round metric lines in XGBoost's format and XGBoost's early-stopping rule.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "booster/learner.h"

namespace treering::cli {

// "[12]\ttest-auc:0.91234500000000000\ttest-logloss:..." — values fixed with 17 decimals,
// as XGBoost 1.7's EvalOneIter; just "[12]" when there are no results.
std::string FormatEvalLine(int iter, const std::vector<booster::EvalResult>& results);

// XGBoost Python's EarlyStopping callback (1.7): watches the last result of each round (the
// last eval set's last metric); auc/aucpr/map/ndcg (and their @k forms) are maximised, every
// other metric minimised; stops after `rounds` rounds without strict improvement.
class EarlyStopping {
 public:
  explicit EarlyStopping(int rounds) : rounds_(rounds) {}
  // `model_round` numbers rounds in the model (continued training counts earlier rounds).
  // Returns true when training should stop after this round.
  bool Update(int model_round, const std::vector<booster::EvalResult>& results);
  bool HasBest() const { return best_round_ >= 0; }
  int best_round() const { return best_round_; }
  // best_iteration, best_score, best_ntree_limit, spelled as XGBoost's Python package does;
  // none before the first Update.
  std::map<std::string, std::string> Attributes() const;
  // The bookkeeping as bytes, for the per-round checkpoint of a fault-tolerant job.
  std::string SaveState() const;
  void LoadState(const std::string& bytes);

 private:
  int rounds_;
  int best_round_ = -1;
  double best_score_ = 0;
  int stale_rounds_ = 0;
};

// Python's repr() of a double ("0.25", "1.0", "1e-05"), for best_score.
std::string PythonRepr(double value);

}  // namespace treering::cli
