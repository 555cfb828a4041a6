// rank:pairwise, rank:ndcg, rank:map: XGBoost 1.7's LambdaRank (objective/rank_obj.cu, CPU
// path). Within each query group, documents are ordered by prediction; for every document,
// num_pairsample partners with a different label are drawn, each pair weighted (pairwise: 1,
// ndcg: |delta NDCG| of swapping the two, map: |delta MAP|), and the logistic loss of the pair
// adds a gradient to both documents.
//
// The pair sampler is XGBoost's: one std::minstd_rand per OpenMP thread seeded with
// (iteration + 1) * 1111, the groups split over threads as libgomp's schedule(static) does. So
// the gradients (and trees) equal XGBoost's for the same nthread, but depend on it, and a
// distributed job draws other pairs than one process (each rank starts its own streams).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "base/parallel_for.h"
#include "objective_impl.h"
#include "rank_order.h"

namespace treering::booster {
namespace {

struct ListEntry {
  float pred;
  float label;
  std::uint64_t row;
};

struct LambdaPair {
  unsigned pos;  // positions in the list sorted by prediction; pos has the higher label
  unsigned neg;
  float weight;
};

enum class LambdaKind { kPairwise, kNdcg, kMap };

// XGBoost's DCG term of one position, computed in its types (int gain over float log2).
float ItemDcg(unsigned label, std::uint32_t idx) {
  return label != 0 ? static_cast<float>((1 << label) - 1) / std::log2(static_cast<float>(idx + 2))
                    : 0.0f;
}

float NdcgDelta(std::uint32_t pos_pred_pos, std::uint32_t neg_pred_pos, int pos_label,
                int neg_label, float idcg) {
  const float pos_loginv = 1.0f / std::log2(pos_pred_pos + 2.0f);
  const float neg_loginv = 1.0f / std::log2(neg_pred_pos + 2.0f);
  const float original = static_cast<float>((1 << pos_label) - 1) * pos_loginv +
                         static_cast<float>((1 << neg_label) - 1) * neg_loginv;
  const float changed = static_cast<float>((1 << neg_label) - 1) * pos_loginv +
                        static_cast<float>((1 << pos_label) - 1) * neg_loginv;
  const float delta = (original - changed) * (1.0f / idcg);
  return delta < 0.0f ? -delta : delta;
}

// by_label: the group's (label, position) sorted by label, descending (XGBoost sorts a copy
// of the labels for the ideal DCG; the labels of by_label are that sequence).
void NdcgWeights(const std::vector<ListEntry>& list,
                 const std::vector<std::pair<float, unsigned>>& by_label,
                 std::vector<LambdaPair>* pairs) {
  double sum = 0.0;
  for (std::uint32_t i = 0; i < by_label.size(); ++i) {
    sum += ItemDcg(static_cast<unsigned>(by_label[i].first), i);
  }
  const auto idcg = static_cast<float>(sum);
  for (LambdaPair& p : *pairs) {
    p.weight = idcg == 0.0f
                   ? 0.0f
                   : p.weight * NdcgDelta(p.pos, p.neg, static_cast<int>(list[p.pos].label),
                                          static_cast<int>(list[p.neg].label), idcg);
  }
}

// Accumulated precisions down the list (MAPStats): as is, with one positive fewer before a
// position, and with one more.
struct MapStats {
  float ap_acc = 0, ap_acc_miss = 0, ap_acc_add = 0, hits = 0;
};

float MapDelta(int pos_pred_pos, int neg_pred_pos, float pos_label, float neg_label,
               const std::vector<MapStats>& s) {
  if (pos_pred_pos == neg_pred_pos || s.back().hits == 0) return 0.0f;
  if (pos_pred_pos > neg_pred_pos) {
    std::swap(pos_pred_pos, neg_pred_pos);
    std::swap(pos_label, neg_label);
  }
  float original = s[neg_pred_pos].ap_acc;
  if (pos_pred_pos != 0) original -= s[pos_pred_pos - 1].ap_acc;
  float changed = 0;
  const float label1 = pos_label > 0.0f ? 1.0f : 0.0f;
  const float label2 = neg_label > 0.0f ? 1.0f : 0.0f;
  if (label1 == label2) return 0.0f;
  if (label1 < label2) {
    changed += s[neg_pred_pos - 1].ap_acc_add - s[pos_pred_pos].ap_acc_add;
    changed += (s[pos_pred_pos].hits + 1.0f) / static_cast<float>(pos_pred_pos + 1);
  } else {
    changed += s[neg_pred_pos - 1].ap_acc_miss - s[pos_pred_pos].ap_acc_miss;
    changed += s[neg_pred_pos].hits / static_cast<float>(neg_pred_pos + 1);
  }
  const float ans = (changed - original) / s.back().hits;
  return ans < 0 ? -ans : ans;
}

void MapWeights(const std::vector<ListEntry>& list, std::vector<LambdaPair>* pairs) {
  std::vector<MapStats> stats(list.size());
  float hit = 0, acc1 = 0, acc2 = 0, acc3 = 0;
  for (std::size_t i = 1; i <= list.size(); ++i) {
    if (list[i - 1].label > 0.0f) {
      hit++;
      const auto fi = static_cast<float>(i);
      acc1 += hit / fi;
      acc2 += (hit - 1) / fi;
      acc3 += (hit + 1) / fi;
    }
    stats[i - 1] = {acc1, acc2, acc3, hit};
  }
  for (LambdaPair& p : *pairs) {
    p.weight *= MapDelta(static_cast<int>(p.pos), static_cast<int>(p.neg), list[p.pos].label,
                         list[p.neg].label, stats);
  }
}

float Sigmoid(float x) {  // XGBoost's common::Sigmoid, with its overflow guard and epsilon
  x = std::min(-x, 88.7f);
  return 1.0f / (std::exp(x) + 1.0f + 1e-16f);
}

class LambdaRankObjective : public Objective {
 public:
  LambdaRankObjective(std::string name, LambdaKind kind, int num_pairsample, float fix_list_weight)
      : name_(std::move(name)),
        kind_(kind),
        num_pairsample_(num_pairsample),
        fix_list_weight_(fix_list_weight) {}

  const std::string& Name() const override { return name_; }

  Status CheckLabels(const LabelView& labels) const override {
    if (!labels.weight->empty()) {
      return Status::InvalidInput(
          name_ +
          ": rows carry weights; XGBoost weighs ranking per query group, which "
          "treering does not read (drop the weights)");
    }
    for (std::size_t i = 0; i < labels.NumRows(); ++i) {
      const float y = (*labels.label)[i];
      // The gain 2^label - 1 is an int shift in XGBoost: labels past 30 overflow it.
      if (!(y >= 0.0f && y < 31.0f)) {
        return Status::InvalidInput(name_ + ": label of row " + std::to_string(i) + " is " +
                                    std::to_string(y) + ", expected a relevance in [0, 31)");
      }
    }
    return Status::Ok();
  }

  void GetGradient(const std::vector<float>& margin, const LabelView& labels, const Context& ctx,
                   std::vector<GradientPair>* out) const override {
    const std::vector<std::uint64_t> gptr = QueryGroupBounds(labels);
    out->assign(margin.size(), GradientPair{});
    const std::int64_t ngroup = static_cast<std::int64_t>(gptr.size()) - 1;
    const int threads = ctx.Threads();
    ParallelFor(threads, threads, [&](int tid) {
      // libgomp's schedule(static): the first (n % T) threads take one group more.
      const std::int64_t q = ngroup / threads;
      const std::int64_t r = ngroup % threads;
      const std::int64_t begin = q * tid + std::min<std::int64_t>(tid, r);
      const std::int64_t end = begin + q + (tid < r ? 1 : 0);
      std::minstd_rand rnd((labels.iteration + 1) * 1111);
      Workspace ws;
      for (std::int64_t k = begin; k < end; ++k) {
        GroupGradient(margin, *labels.label, gptr[k], gptr[k + 1], &rnd, &ws, out);
      }
    });
  }

  void PredTransform(std::vector<float>* /*values*/, const Context& /*ctx*/) const override {}

  std::string DefaultMetric() const override { return "map"; }

 private:
  struct Workspace {
    std::vector<ListEntry> list;
    std::vector<std::pair<float, unsigned>> rec;
    std::vector<LambdaPair> pairs;
    std::vector<std::uint64_t> keys;
    std::vector<std::size_t> order;
  };

  // Draws the pairs of one group: each document of a label bucket gets num_pairsample partners
  // from outside the bucket (rec is sorted by label, descending).
  void SamplePairs(std::minstd_rand* rnd, Workspace* ws) const {
    const auto& rec = ws->rec;
    for (unsigned i = 0; i < rec.size();) {
      unsigned j = i + 1;
      while (j < rec.size() && rec[j].first == rec[i].first) ++j;
      const unsigned nleft = i;
      const auto nright = static_cast<unsigned>(rec.size() - j);
      if (nleft + nright != 0) {
        for (int s = 0; s < num_pairsample_; ++s) {
          for (unsigned pid = i; pid < j; ++pid) {
            const unsigned ridx =
                std::uniform_int_distribution<unsigned>(0, nleft + nright - 1)(*rnd);
            if (ridx < nleft) {
              ws->pairs.push_back({rec[ridx].second, rec[pid].second, 1.0f});
            } else {
              ws->pairs.push_back({rec[pid].second, rec[ridx + j - i].second, 1.0f});
            }
          }
        }
      }
      i = j;
    }
  }

  void GroupGradient(const std::vector<float>& margin, const std::vector<float>& label,
                     std::uint64_t begin, std::uint64_t end, std::minstd_rand* rnd, Workspace* ws,
                     std::vector<GradientPair>* out) const {
    auto& list = ws->list;
    auto& rec = ws->rec;
    list.clear();
    ws->pairs.clear();
    GroupDescendingOrder(
        end - begin, [&](std::size_t i) { return margin[begin + i]; }, &ws->keys, &ws->order);
    for (const std::size_t i : ws->order)
      list.push_back({margin[begin + i], label[begin + i], begin + i});
    LabelDescendingOrder(
        list.size(), [&](std::size_t i) { return list[i].label; }, &rec);
    SamplePairs(rnd, ws);
    if (kind_ == LambdaKind::kNdcg) NdcgWeights(list, rec, &ws->pairs);
    if (kind_ == LambdaKind::kMap) MapWeights(list, &ws->pairs);
    float scale = 1.0f / static_cast<float>(num_pairsample_);
    if (fix_list_weight_ != 0.0f) scale *= fix_list_weight_ / static_cast<float>(end - begin);
    for (const LambdaPair& pair : ws->pairs) {
      const ListEntry& pos = list[pair.pos];
      const ListEntry& neg = list[pair.neg];
      const float w = pair.weight * scale;
      const float p = Sigmoid(pos.pred - neg.pred);
      const float g = p - 1.0f;
      const float h = std::max(p * (1.0f - p), 1e-16f);
      GradientPair& gp = (*out)[pos.row];
      gp.grad += g * w;
      gp.hess += 2.0f * w * h;
      GradientPair& gn = (*out)[neg.row];
      gn.grad += -g * w;
      gn.hess += 2.0f * w * h;
    }
  }

  std::string name_;
  LambdaKind kind_;
  int num_pairsample_;
  float fix_list_weight_;
};

}  // namespace

std::vector<std::uint64_t> QueryGroupBounds(const LabelView& labels) {
  if (labels.group_ptr != nullptr && !labels.group_ptr->empty()) return *labels.group_ptr;
  return {0, labels.NumRows()};
}

std::unique_ptr<Objective> MakeRankObjective(const ObjectiveConfig& config) {
  LambdaKind kind;
  if (config.name == "rank:pairwise") {
    kind = LambdaKind::kPairwise;
  } else if (config.name == "rank:ndcg") {
    kind = LambdaKind::kNdcg;
  } else if (config.name == "rank:map") {
    kind = LambdaKind::kMap;
  } else {
    return nullptr;
  }
  return std::make_unique<LambdaRankObjective>(config.name, kind, config.num_pairsample,
                                               config.fix_list_weight);
}

}  // namespace treering::booster
