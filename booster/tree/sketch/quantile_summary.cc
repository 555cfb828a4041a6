#include "booster/tree/sketch/quantile_summary.h"

namespace treering::booster {

Summary MakeExactSummary(const std::vector<float>& sorted_values,
                         const std::vector<float>& sorted_weights) {
  Summary out;
  float rank = 0;  // float like XGBoost's RType, so ranks round identically
  for (std::size_t i = 0; i < sorted_values.size();) {
    const float value = sorted_values[i];
    float w = 0;
    for (; i < sorted_values.size() && sorted_values[i] == value; ++i) w += sorted_weights[i];
    out.push_back({rank, rank + w, w, value});
    rank += w;
  }
  return out;
}

Summary MakeExactSummary(const std::vector<float>& sorted_values) {
  // Sized to the distinct values (a low-cardinality column of 10 M rows needs a few entries,
  // not 160 MB of reserved address space; growing by doubling cost copies and page faults).
  std::size_t distinct = 0;
  for (std::size_t i = 0; i < sorted_values.size(); ++i) {
    distinct += i == 0 || sorted_values[i] != sorted_values[i - 1];
  }
  Summary out;
  out.reserve(distinct);
  float rank = 0;
  for (std::size_t i = 0; i < sorted_values.size();) {
    const float value = sorted_values[i];
    float w = 0;
    for (; i < sorted_values.size() && sorted_values[i] == value; ++i) w += 1.0f;
    out.push_back({rank, rank + w, w, value});
    rank += w;
  }
  return out;
}

float PruneTarget(float begin, float range, std::size_t k, std::size_t steps) {
  return 2 * ((k * range) / steps + begin);
}

Summary Prune(const Summary& src, std::size_t max_size) {
  if (src.size() <= max_size) return src;
  return PruneWalk(src, max_size);
}

Summary PruneWalk(const Summary& src, std::size_t max_size) {
  const float begin = src.front().rmax;
  const float range = src.back().rmin - src.front().rmax;
  const std::size_t n = max_size - 1;
  Summary out{src.front()};
  std::size_t i = 1, last = 0;  // `last` avoids taking one entry twice
  for (std::size_t k = 1; k < n; ++k) {
    const float dx2 = PruneTarget(begin, range, k, n);
    while (i < src.size() - 1 && dx2 >= src[i + 1].rmax + src[i + 1].rmin) ++i;
    if (i == src.size() - 1) break;
    if (dx2 < src[i].RMinNext() + src[i + 1].RMaxPrev()) {
      if (i != last) {
        out.push_back(src[i]);
        last = i;
      }
    } else if (i + 1 != last) {
      out.push_back(src[i + 1]);
      last = i + 1;
    }
  }
  if (last != src.size() - 1) out.push_back(src.back());
  return out;
}

Summary Combine(const Summary& sa, const Summary& sb) {
  if (sa.empty()) return sb;
  if (sb.empty()) return sa;
  Summary out;
  out.reserve(sa.size() + sb.size());
  auto a = sa.begin(), b = sb.begin();
  float aprev_rmin = 0, bprev_rmin = 0;
  while (a != sa.end() && b != sb.end()) {
    if (a->value == b->value) {
      out.push_back({a->rmin + b->rmin, a->rmax + b->rmax, a->wmin + b->wmin, a->value});
      aprev_rmin = a->RMinNext();
      bprev_rmin = b->RMinNext();
      ++a;
      ++b;
    } else if (a->value < b->value) {
      out.push_back({a->rmin + bprev_rmin, a->rmax + b->RMaxPrev(), a->wmin, a->value});
      aprev_rmin = a->RMinNext();
      ++a;
    } else {
      out.push_back({b->rmin + aprev_rmin, b->rmax + a->RMaxPrev(), b->wmin, b->value});
      bprev_rmin = b->RMinNext();
      ++b;
    }
  }
  for (; a != sa.end(); ++a) {
    out.push_back({a->rmin + bprev_rmin, a->rmax + sb.back().rmax, a->wmin, a->value});
  }
  for (; b != sb.end(); ++b) {
    out.push_back({b->rmin + aprev_rmin, b->rmax + sa.back().rmax, b->wmin, b->value});
  }
  return out;
}

}  // namespace treering::booster
