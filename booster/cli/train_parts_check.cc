#include "train_parts_check.h"

#include <cstdint>
#include <string>

#include "rabit/rabit.h"
#include "task_support.h"

namespace treering::cli {

Status CheckTrainingParts(const CliOptions& options, const data::DMatrix& part) {
  const bool has_rows = part.NumRows() > 0;
  enum { kRows, kWeighted, kUnweighted, kEmpty, kCount };
  std::uint64_t sums[kCount] = {part.NumRows(), has_rows && !part.weight.empty(),
                                has_rows && part.weight.empty(), !has_rows};
  rabit::Allreduce<rabit::op::Sum>(sums, kCount);
  const std::string data = "data = " + options.data + ": ";
  const std::string parts = std::to_string(rabit::GetWorldSize()) + " parts";
  if (sums[kRows] == 0) {
    return Status::InvalidInput(
        data + "the training data has no rows" +
        (rabit::GetWorldSize() > 1 ? " (in any of the " + parts + ")" : ""));
  }
  if (sums[kWeighted] > 0 && sums[kUnweighted] > 0) {
    return Status::InvalidInput(data + std::to_string(sums[kWeighted]) + " of the " + parts +
                                " have label:weight on every row and " +
                                std::to_string(sums[kUnweighted]) +
                                " on none: weight every row or none, as XGBoost requires");
  }
  if (sums[kEmpty] > 0) {
    LogRank0(options, 2,
             data + std::to_string(sums[kEmpty]) + " of the " + parts +
                 " hold no rows (fewer lines than parts); the other ranks' rows are trained on");
  }
  return Status::Ok();
}

}  // namespace treering::cli
