// InterpolatedQuantile (leaf_refresh.h) of values spread over the ranks, without gathering
// them: the order statistics it interpolates between are found by SearchKeys
// (sketch/global_select.h) over each rank's sorted keys, so every rank gets the value one
// process computes from all the values, whatever the sharding (issue 34).
#pragma once

#include <vector>

#include "rabit/comm.h"

namespace treering::booster {

// For every set i: InterpolatedQuantile(alpha, the union over ranks of sets[i]); NaN when the
// set is empty on every rank. A collective: every rank passes the same number of sets. Up to a
// zero's sign: -0 and +0 tie, and one process returns the first of a tie in input order where
// only the smallest or largest value is taken (alpha <= 1/(n+1) or >= n/(n+1)).
std::vector<float> GlobalInterpolatedQuantiles(double alpha,
                                               const std::vector<std::vector<float>>& sets,
                                               int nthread, rabit::Comm* comm);

}  // namespace treering::booster
