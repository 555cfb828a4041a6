// GlobalInterpolatedQuantiles (global_quantile.h): the global count n of each set, the
// positions InterpolatedQuantile reads (one or two order statistics), their keys by
// SearchKeys, then InterpolatedQuantile's own arithmetic on those values.
#include "booster/tree/grow/global_quantile.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>

#include "base/parallel_for.h"
#include "booster/tree/sketch/global_select.h"
#include "booster/tree/sketch/radix_sort.h"

namespace treering::booster {

std::vector<float> GlobalInterpolatedQuantiles(double alpha,
                                               const std::vector<std::vector<float>>& sets,
                                               int nthread, rabit::Comm* comm) {
  const std::size_t ns = sets.size();
  std::vector<std::vector<std::uint32_t>> keys(ns);
  ParallelForDynamic(ns, nthread, [&](std::size_t i) {
    keys[i].resize(sets[i].size());
    for (std::size_t k = 0; k < sets[i].size(); ++k) keys[i][k] = OrderedBits(sets[i][k]);
    std::sort(keys[i].begin(), keys[i].end());
  });
  std::vector<SortedKeys> cols(ns);
  // Per set: count (Sum), then smallest and largest key (Min of key and of ~key).
  std::vector<std::uint32_t> counts(ns), ends(2 * ns);
  for (std::size_t i = 0; i < ns; ++i) {
    cols[i] = {keys[i].data(), static_cast<std::uint32_t>(keys[i].size())};
    counts[i] = cols[i].n;
    ends[2 * i] = cols[i].n > 0 ? keys[i].front() : kNoKeyAbove;
    ends[2 * i + 1] = ~(cols[i].n > 0 ? keys[i].back() : kNoKey);
  }
  comm->Allreduce<rabit::op::Sum>(counts.data(), counts.size());
  comm->Allreduce<rabit::op::Min>(ends.data(), ends.size());
  // InterpolatedQuantile's positions: k alone, or k and k + 1 with weight d.
  struct Pick {
    std::size_t first = 0;  // its queries: [first, first + count)
    int count = 0;
    double d = 0;
  };
  std::vector<Pick> picks(ns);
  std::vector<KeySearch> queries;
  for (std::size_t i = 0; i < ns; ++i) {
    if (counts[i] == 0) continue;
    const auto n = static_cast<double>(counts[i]);
    KeySearch qr;
    qr.feature = static_cast<std::uint32_t>(i);
    qr.lo = ends[2 * i];
    qr.hi = ~ends[2 * i + 1];
    picks[i].first = queries.size();
    if (alpha <= 1 / (n + 1)) {
      qr.q = 0;
      picks[i].count = 1;
    } else if (alpha >= n / (n + 1)) {
      qr.q = counts[i] - 1;
      picks[i].count = 1;
    } else {
      const double x = alpha * (n + 1);
      const double k = std::floor(x) - 1;
      picks[i].d = (x - 1) - k;
      picks[i].count = 2;
      qr.q = static_cast<std::uint32_t>(k);
      queries.push_back(qr);
      qr.q += 1;
    }
    queries.push_back(qr);
  }
  SearchKeys(cols, nthread, *comm, &queries);
  std::vector<float> out(ns, std::numeric_limits<float>::quiet_NaN());
  for (std::size_t i = 0; i < ns; ++i) {
    const Pick& p = picks[i];
    if (p.count == 0) continue;
    const float v0 = FromOrderedBits(queries[p.first].lo);
    if (p.count == 1) {
      out[i] = v0;
      continue;
    }
    const float v1 = FromOrderedBits(queries[p.first + 1].lo);
    out[i] = static_cast<float>(v0 + p.d * (v1 - v0));
  }
  return out;
}

}  // namespace treering::booster
