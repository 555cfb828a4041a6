#include "booster/tree/hist/gradient_quantiser.h"

#include <cmath>

namespace treering::booster {
namespace {

// Largest power of two s with max_abs * s * rows < 2^62.
double ScaleFor(double max_abs, double rows) {
  if (!(max_abs > 0)) return 1.0;
  int max_exp = 0, rows_exp = 0;
  std::frexp(max_abs, &max_exp);  // max_abs < 2^max_exp
  std::frexp(rows, &rows_exp);    // rows < 2^rows_exp
  return std::ldexp(1.0, 62 - rows_exp - max_exp);
}

}  // namespace

GradientQuantiser GradientQuantiser::ForGradients(const std::vector<GradientPair>& gpair,
                                                  int nthread, rabit::Comm& comm) {
  return FromLocalMaxima(MaximaOf(gpair, nthread), gpair.size(), comm);
}

GradientQuantiser GradientQuantiser::FromLocalMaxima(GradientMaxima local, std::size_t rows,
                                                     rabit::Comm& comm) {
  double stats[2] = {local.grad, local.hess};  // a max does not depend on the order
  comm.Allreduce<rabit::op::Max>(stats, 2);
  double total_rows = static_cast<double>(rows);
  comm.Allreduce<rabit::op::Sum>(&total_rows, 1);
  return GradientQuantiser(ScaleFor(stats[0], total_rows + 1), ScaleFor(stats[1], total_rows + 1));
}

GradientPairInt GlobalSum(GradientPairInt local, rabit::Comm& comm) {
  std::int64_t sums[2] = {local.grad, local.hess};
  comm.Allreduce<rabit::op::Sum>(sums, 2);
  return {sums[0], sums[1]};
}

}  // namespace treering::booster
