#include "mlp_budget.h"

#include <string>

#include "base/memory_budget.h"

namespace treering::booster::mlp {

std::uint64_t CountParams(const std::vector<std::uint64_t>& widths) {
  std::uint64_t n = 0;
  for (std::size_t i = 0; i + 1 < widths.size(); ++i) n += (widths[i] + 1) * widths[i + 1];
  return n;
}

Status CheckNetworkBudget(std::uint64_t inputs, const MlpParam& param, const Context& ctx,
                          rabit::Comm* comm) {
  std::vector<std::uint64_t> widths{inputs};
  for (int w : param.hidden_layers) widths.push_back(static_cast<std::uint64_t>(w));
  widths.push_back(static_cast<std::uint64_t>(param.NumOutputs()));
  const std::uint64_t slots = param.optimizer == OptimizerKind::kAdam ? 2 : 1;
  const std::uint64_t per_param = kBytesPerParamBase + kBytesPerParamPerSlot * slots;
  const std::uint64_t needed = CountParams(widths) * per_param;
  std::uint64_t available = ctx.MemoryBudget();
  comm->Allreduce<rabit::op::Min>(&available, 1);
  if (needed <= available) return Status::Ok();
  return Status::InvalidInput(
      std::to_string(inputs) + " inputs (the largest feature index + 1) make a network of " +
      std::to_string(CountParams(widths)) + " parameters: training needs ~" + Mebibytes(needed) +
      " on each worker, more than the " + Mebibytes(available) +
      " available; renumber the features densely or make hidden_layers smaller");
}

}  // namespace treering::booster::mlp
