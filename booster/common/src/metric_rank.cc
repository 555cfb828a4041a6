// ndcg, map, pre with their @k and '-' forms (XGBoost 1.7 metric/rank_metric.cc EvalRank): a
// per-query-group score averaged over groups, unweighted (XGBoost ignores weights here).
// Labels are relevances truncated to int; the gain is 2^rel - 1 over log2(position + 2). A
// group without relevant documents scores 1, or 0 with the '-' suffix. Distributed, each rank
// holds whole groups (the CLI shards on group boundaries), so one allreduce of
// {sum of group scores, groups} gives the global mean.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "base/parallel_for.h"
#include "booster/work_split.h"
#include "metric_impl.h"
#include "objective_impl.h"
#include "rank_order.h"

namespace treering::booster {
namespace {

enum class RankKind { kNdcg, kMap, kPrecision };

using PredRel = std::pair<float, unsigned>;

// rec in the order of its predictions, descending, ties as read (XGBoost's stable sort).
void SortByPrediction(std::vector<PredRel>* rec) {
  thread_local std::vector<std::uint64_t> keys;
  thread_local std::vector<std::size_t> order;
  thread_local std::vector<PredRel> sorted;
  GroupDescendingOrder(
      rec->size(), [&](std::size_t i) { return (*rec)[i].first; }, &keys, &order);
  sorted.clear();
  for (const std::size_t i : order) sorted.push_back((*rec)[i]);
  rec->swap(sorted);
}

class RankMetric : public Metric {
 public:
  RankMetric(std::string name, RankKind kind, unsigned topn, bool minus)
      : name_(std::move(name)), kind_(kind), topn_(topn), minus_(minus) {}

  const std::string& Name() const override { return name_; }

  Result<double> Evaluate(const std::vector<float>& preds, int groups, const LabelView& labels,
                          const Context& ctx, rabit::Comm& comm) const override {
    if (groups != 1) {
      return Status::InvalidInput("eval_metric " + name_ + " needs a one-output objective");
    }
    const std::vector<std::uint64_t> gptr = QueryGroupBounds(labels);
    const std::size_t ngroups = gptr.size() - 1;
    // Fixed chunks of groups, added in order: the sum does not depend on the thread count.
    // 32 groups: an MSLR-sized test set (a few hundred groups) still spreads over the threads.
    constexpr std::size_t kChunk = 32;
    std::vector<double> partial((ngroups + kChunk - 1) / kChunk, 0.0);
    ParallelFor(partial.size(), ctx.ThreadsFor(preds.size(), kBoosterGrain), [&](std::size_t c) {
      std::vector<PredRel> rec;
      for (std::size_t k = c * kChunk; k < std::min(ngroups, (c + 1) * kChunk); ++k) {
        rec.clear();
        for (std::uint64_t j = gptr[k]; j < gptr[k + 1]; ++j) {
          rec.emplace_back(preds[j], static_cast<unsigned>(static_cast<int>((*labels.label)[j])));
        }
        partial[c] += EvalGroup(&rec);
      }
    });
    double sums[2] = {0.0, static_cast<double>(ngroups)};
    for (double s : partial) sums[0] += s;
    if (comm.IsDistributed()) comm.Allreduce<rabit::op::Sum>(sums, 2);
    return sums[0] / sums[1];
  }

 private:
  double EvalGroup(std::vector<PredRel>* rec) const {
    switch (kind_) {
      case RankKind::kNdcg:
        return Ndcg(rec);
      case RankKind::kMap:
        return AveragePrecision(rec);
      case RankKind::kPrecision:
        return Precision(rec);
    }
    return 0.0;
  }

  double Dcg(const std::vector<PredRel>& rec) const {
    double sum = 0.0;
    for (std::size_t i = 0; i < rec.size() && i < topn_; ++i) {
      const unsigned rel = rec[i].second;
      // XGBoost's (1 << rel) - 1, without its undefined shift for labels past 30.
      if (rel != 0)
        sum += (std::ldexp(1.0, static_cast<int>(std::min(rel, 1024u))) - 1) / std::log2(i + 2.0);
    }
    return sum;
  }

  double Ndcg(std::vector<PredRel>* rec) const {
    SortByPrediction(rec);
    const double dcg = Dcg(*rec);
    // The ideal order: only the relevances are read, so ties need no order.
    std::sort(rec->begin(), rec->end(),
              [](const PredRel& a, const PredRel& b) { return a.second > b.second; });
    const double idcg = Dcg(*rec);
    if (idcg == 0.0) return minus_ ? 0.0 : 1.0;
    return dcg / idcg;
  }

  double AveragePrecision(std::vector<PredRel>* rec) const {
    SortByPrediction(rec);
    unsigned hits = 0;
    double sum = 0.0;
    for (std::size_t i = 0; i < rec->size(); ++i) {
      if ((*rec)[i].second == 0) continue;
      hits += 1;
      if (i < topn_) sum += static_cast<double>(hits) / static_cast<double>(i + 1);
    }
    if (hits == 0) return minus_ ? 0.0 : 1.0;
    return sum / hits;
  }

  double Precision(std::vector<PredRel>* rec) const {
    SortByPrediction(rec);
    unsigned hits = 0;
    for (std::size_t j = 0; j < rec->size() && j < topn_; ++j) hits += (*rec)[j].second != 0;
    return static_cast<double>(hits) / topn_;
  }

  std::string name_;
  RankKind kind_;
  unsigned topn_;
  bool minus_;
};

}  // namespace

Result<std::unique_ptr<Metric>> MakeRankMetric(const std::string& name) {
  const std::size_t at = name.find('@');
  const std::string base = name.substr(0, std::min(at, name.find('-')));
  RankKind kind;
  if (base == "ndcg") {
    kind = RankKind::kNdcg;
  } else if (base == "map") {
    kind = RankKind::kMap;
  } else if (base == "pre") {
    kind = RankKind::kPrecision;
  } else {
    return Status::InvalidInput("not a ranking metric: " + name);
  }
  std::string rest = name.substr(base.size());  // "", "-", "@k", "@k-"
  const bool minus = !rest.empty() && rest.back() == '-';
  if (minus) rest.pop_back();
  unsigned topn = std::numeric_limits<unsigned>::max();
  if (!rest.empty()) {
    const std::string k = rest.substr(1);
    const bool digits =
        rest[0] == '@' && !k.empty() && k.size() <= 9 &&
        std::all_of(k.begin(), k.end(), [](char c) { return c >= '0' && c <= '9'; });
    if (!digits) {
      return Status::InvalidInput("parameter eval_metric: '" + name + "': expected " + base + ", " +
                                  base + "@k, " + base + "- or " + base +
                                  "@k- with k a non-negative integer");
    }
    topn = static_cast<unsigned>(std::stoul(k));
  }
  return std::unique_ptr<Metric>(std::make_unique<RankMetric>(name, kind, topn, minus));
}

bool IsRankMetricName(const std::string& name) {
  for (const char* base : {"ndcg", "map", "pre"}) {
    const std::size_t n = std::char_traits<char>::length(base);
    if (name.compare(0, n, base) == 0 && (name.size() == n || name[n] == '@' || name[n] == '-')) {
      return true;
    }
  }
  return false;
}

}  // namespace treering::booster
