#include "booster/tree/learner/gbtree_learner.h"

#include <algorithm>
#include <chrono>
#include <cstdlib>

#include "base/parallel_for.h"
#include "booster/learner_support.h"
#include "booster/number_format.h"
#include "booster/tree/grow/leaf_refresh.h"
#include "booster/tree/learner/feature_budget.h"
#include "booster/tree/learner/train_memory.h"
#include "booster/tree/predict/predictor.h"
#include "booster/work_split.h"

namespace treering::booster {
namespace {

// Dart's drops and weights are per tree and per round; with several trees per round the
// weights XGBoost gives them have not been compared yet, so training is refused, not guessed.
Status DartForestRefused() {
  return Status::InvalidKey("num_parallel_tree",
                            "parameter num_parallel_tree: booster=dart with more than one tree "
                            "per round is not supported in treering yet");
}

class Stopwatch {
 public:
  double Seconds() const {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  }

 private:
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
};

// Time and collectives since construction, to charge a phase of a round to the RoundCost.
class CostMeter {
 public:
  explicit CostMeter(const rabit::Comm& comm) : comm_(comm), before_(comm.Stats()) {}
  void AddTo(RoundCost* cost) const {
    const rabit::CommStats after = comm_.Stats();
    const double sync_s = after.seconds - before_.seconds;
    cost->sync_s += sync_s;
    cost->comp_s += watch_.Seconds() - sync_s;
    cost->payload_bytes += static_cast<double>(after.payload_bytes - before_.payload_bytes);
    cost->calls += static_cast<double>(after.calls - before_.calls);
    cost->scattered_bytes += static_cast<double>(after.scattered_bytes - before_.scattered_bytes);
  }

 private:
  const rabit::Comm& comm_;
  const rabit::CommStats before_;
  const Stopwatch watch_;
};

}  // namespace

GBTreeLearner::GBTreeLearner(LearnerParam lparam, TreeParam tparam,
                             std::unique_ptr<Objective> objective, const Context& ctx,
                             rabit::Comm* comm, DartParam dart, UpdateParam update)
    : lparam_(std::move(lparam)),
      tparam_(tparam),
      objective_(std::move(objective)),
      ctx_(ctx),
      comm_(comm),
      dart_param_(std::move(dart)),
      update_param_(std::move(update)) {
  model_.dart = dart_param_.IsDart();
  model_.num_parallel_tree = tparam_.num_parallel_tree;
  model_.objective = lparam_.objective;
  model_.num_class = lparam_.num_class;
  model_.base_score = lparam_.base_score;
  model_.scale_pos_weight = lparam_.scale_pos_weight;
  model_.boost_from_average = !lparam_.base_score_set;  // XGBoost's LearnerModelParamLegacy
  model_.objective_params = ObjectiveParamsOf(lparam_);
  // reg:quantileerror: one output per alpha is XGBoost 2.x's num_target.
  if (model_.num_class <= 1) model_.num_target = objective_->NumGroups();
  // Create() has checked that base_score suits the objective.
  auto margin = objective_->ProbToMargin(model_.base_score);
  base_margin_ = margin.ok() ? margin.value() : 0.0f;
}

Status GBTreeLearner::LoadModel(GBTreeModel model) {
  if (model.linear) {
    return Status::InvalidKey("booster",
                              "the model is a gblinear model: set booster = gblinear to use it");
  }
  // XGBoost 1.7 (learner.cc, ConfigureObjective) configures a loaded model with num_class > 1
  // and a one-output objective as multi:softmax: a copy or reload of a booster trained by a
  // custom multi-class objective predicts class indices there, and so it does here.
  // Only a caller who names the model's own objective keeps it.
  if (model.num_class > 1 && model.objective.rfind("multi:", 0) != 0 &&
      !(lparam_.objective_set && lparam_.objective == model.objective)) {
    model.objective = "multi:softmax";
    model.objective_param_block.clear();  // the softmax block replaces the old objective's
    model.objective_params.clear();
  }
  if (lparam_.objective_set && model.objective != lparam_.objective) {
    return Status::InvalidInput("objective " + lparam_.objective + " disagrees with the model's " +
                                model.objective);
  }
  if (lparam_.num_class_set && model.num_class != lparam_.num_class) {
    return Status::InvalidInput("num_class " + std::to_string(lparam_.num_class) +
                                " disagrees with the model's " + std::to_string(model.num_class));
  }
  ObjectiveConfig oc{model.objective, model.num_class, model.scale_pos_weight,
                     tparam_.max_delta_step};
  // The objective's own parameters as the model file carries them (XGBoost's param blocks).
  if (Status s = ReadObjectiveParams(model.objective_params, &oc); !s.ok()) return s;
  auto objective = Objective::Create(oc);
  if (!objective.ok()) return objective.status();
  if (model.num_class <= 1 && objective.value()->NumGroups() == 1) {  // 1.7's multi-target
    objective = WithTargets(std::move(objective).value(), model.num_target);
    if (!objective.ok()) return objective.status();
  }
  if (model.num_class <= 1 && objective.value()->NumGroups() != model.num_target) {
    return Status::InvalidInput(
        "model: num_target " + std::to_string(model.num_target) + " disagrees with the " +
        std::to_string(objective.value()->NumGroups()) + " outputs of " + model.objective);
  }
  auto margin = objective.value()->ProbToMargin(model.base_score);
  if (!margin.ok()) return margin.status();
  if (model.tree_info.size() != model.trees.size()) {
    return Status::InvalidInput("model: tree_info has " + std::to_string(model.tree_info.size()) +
                                " entries for " + std::to_string(model.trees.size()) + " trees");
  }
  if (dart_param_.booster_set && model.dart != dart_param_.IsDart()) {
    return Status::InvalidKey("booster", "booster " + dart_param_.booster +
                                             " disagrees with the model's " +
                                             (model.dart ? "dart" : "gbtree"));
  }
  if (tparam_.num_parallel_tree_set && !model.trees.empty() &&
      model.num_parallel_tree != tparam_.num_parallel_tree) {
    return Status::InvalidKey(
        "num_parallel_tree",
        "parameter num_parallel_tree = " + std::to_string(tparam_.num_parallel_tree) +
            " disagrees with the model's " + std::to_string(model.num_parallel_tree) +
            " trees per round");
  }
  if (model.trees.empty()) model.num_parallel_tree = tparam_.num_parallel_tree;
  if (model.dart && model.num_parallel_tree > 1 && train_ != nullptr) return DartForestRefused();
  dart_param_.booster = model.dart ? "dart" : "gbtree";
  if (train_values_dropped_) {
    return Status::InvalidInput(
        "a model cannot be set after training started on a matrix "
        "whose values were freed once binned");
  }
  if (train_ != nullptr) {  // training data already set: the stream starts now, as on a reload
    dart_.reset();
    if (model.dart) dart_.emplace(dart_param_, seed_);
  }
  objective_ = std::move(objective).value();
  lparam_.objective = model.objective;
  lparam_.num_class = model.num_class;
  lparam_.huber_slope = oc.huber_slope;
  lparam_.tweedie_variance_power = oc.tweedie_variance_power;
  lparam_.num_pairsample = oc.num_pairsample;
  lparam_.fix_list_weight = oc.fix_list_weight;
  lparam_.aft_loss_distribution = oc.aft_loss_distribution;
  lparam_.aft_loss_distribution_scale = oc.aft_loss_distribution_scale;
  lparam_.quantile_alpha = oc.quantile_alpha;
  base_margin_ = margin.value();
  model_ = std::move(model);
  trees_to_update_.clear();  // a model loaded is updated from its first round again
  update_started_ = false;
  // New trees may split on any feature of the training data already set.
  if (train_ != nullptr) {
    model_.num_feature =
        std::max<std::uint64_t>(model_.num_feature, updater_->Cuts().NumFeatures());
  }
  train_trees_applied_ = 0;
  train_margins_.clear();
  for (auto& set : eval_sets_) {
    set.trees_applied = 0;
    set.margins.clear();
  }
  eval_cache_.clear();
  return ResolveMetrics();
}

Status GBTreeLearner::CheckData(const data::DMatrix& dm, const std::string& what) const {
  // survival:aft learns from label_lower_bound / label_upper_bound alone, as XGBoost does.
  const bool bounds_only = dm.label.empty() && objective_->Name() == "survival:aft";
  if (dm.label.size() != dm.NumRows() * dm.label_columns && !bounds_only) {
    return Status::InvalidInput(what + ": " + std::to_string(dm.label.size()) + " labels for " +
                                std::to_string(dm.NumRows()) + " rows x " +
                                std::to_string(dm.label_columns) + " label columns");
  }
  if (!dm.label.empty() && dm.label_columns != LabelColumns()) {
    return Status::InvalidKey(
        objective_->InterceptQuantiles().empty() ? "num_target" : "quantile_alpha",
        what + ": labels have " + std::to_string(dm.label_columns) + " columns, the model (" +
            model_.objective + ", num_target " + std::to_string(model_.num_target) + ") takes " +
            std::to_string(LabelColumns()) +
            (objective_->InterceptQuantiles().empty()
                 ? ""
                 : " (one label column, one output per quantile_alpha value, as XGBoost 2.x)"));
  }
  if (Status s = CheckRowInfo(dm, objective_->NumGroups(), what); !s.ok()) return s;
  return objective_->CheckLabels(LabelsOf(dm)).WithContext(what);
}

Status GBTreeLearner::ResolveMetrics() {
  auto metrics = CreateMetrics(lparam_, *objective_);
  if (!metrics.ok()) return metrics.status();
  metrics_ = std::move(metrics).value();
  return Status::Ok();
}

Status GBTreeLearner::SetTrainData(data::DMatrix* train) {
  Stopwatch watch;
  if (Status s = AdoptTargets(*train); !s.ok()) return s;
  if (Status s = CheckData(*train, "training data"); !s.ok()) return s;
  if (Status s = ResolveMetrics(); !s.ok()) return s;
  // XGBoost 1.7's InitBaseScore: estimated from the data before the first tree only
  // (reg:quantileerror: 2.x's estimate).
  if (objective_->LeafQuantile() && model_.boost_from_average && model_.trees.empty() &&
      !update_param_.update) {
    const std::vector<float> alphas = objective_->InterceptQuantiles();
    model_.base_score = alphas.empty() ? MedianBaseScore(LabelsOf(*train), comm_)
                                       : QuantileBaseScore(alphas, LabelsOf(*train), comm_);
    base_margin_ = model_.base_score;
  }
  std::uint64_t num_feature = std::max<std::uint64_t>(train->num_col, model_.num_feature);
  comm_->Allreduce<rabit::op::Max>(&num_feature, 1);
  // Narrowed to 32 bits below: a count over the limit used to wrap (2^32 -> 0, then SIGSEGV).
  if (Status s = CheckFeatureBudget(num_feature, *comm_); !s.ok()) return s;
  model_.num_feature = num_feature;
  if (tparam_.monotone_constraints.size() > num_feature) {  // XGBoost's TreeEvaluator check
    return Status::InvalidKey(
        "monotone_constraints",
        "parameter monotone_constraints: " + std::to_string(tparam_.monotone_constraints.size()) +
            " constraints for " + std::to_string(num_feature) + " features");
  }
  std::int64_t seed = ctx_.seed;
  comm_->Broadcast(&seed, sizeof(seed), 0);
  seed_ = static_cast<std::uint64_t>(seed);
  // This rank's first global row (shards are consecutive row ranges in rank order): subsample
  // draws by global row.
  row_offset_ = 0;
  if (comm_->IsDistributed()) {
    const std::vector<std::uint64_t> rows =
        comm_->AllgatherV(std::vector<std::uint64_t>{train->NumRows()});
    for (int r = 0; r < comm_->Rank(); ++r) row_offset_ += rows[std::size_t(r)];
  }
  // XGBoost seeds its global stream once, when the learner is configured for training.
  dart_.reset();
  if (model_.dart) dart_.emplace(dart_param_, seed_);
  if (model_.dart && model_.num_parallel_tree > 1) return DartForestRefused();
  auto method = ResolveTreeMethod(*train);
  if (!method.ok()) return method.status();
  grow_param_ = tparam_;
  TrainMemoryPlan memory = PlanTrainMemory(
      *train, tparam_,
      {allow_train_value_drop_, method.value(), num_feature, model_.dart, model_.num_parallel_tree,
       !model_.trees.empty(), update_param_.update, objective_->LeafQuantile().has_value()});
  if (train->external) {  // the values are in column files; training reads only the pages
    if (method.value() == "exact" || tparam_.HasCategorical() || model_.dart ||
        model_.num_parallel_tree != 1 || !model_.trees.empty() || update_param_.update) {
      return Status::InvalidKey(
          "data",
          "data: external memory (#cacheprefix) grows hist trees from scratch only: "
          "not with tree_method=exact, categorical features, dart, num_parallel_tree "
          "> 1, a model to continue or process_type=update");
    }
    memory = TrainMemoryPlan{false, true};
  }
  if (memory.restore_index) data::RestoreDenseIndex(train);
  train->values_disposable = memory.drop_values;
  auto updater = TreeUpdater::Create(grow_param_, *train, static_cast<std::uint32_t>(num_feature),
                                     method.value() == "exact", seed_, ctx_, comm_);
  if (!updater.ok()) return updater.status();
  updater_ = std::move(updater).value();
  if (memory.drop_values) DropTrainValues(train);
  train_values_dropped_ = memory.drop_values;
  train_ = train;
  model_.feature_types = tparam_.feature_types;
  train_margins_.clear();
  train_trees_applied_ = 0;
  timing_.setup_s += watch.Seconds();
  return Status::Ok();
}

Status GBTreeLearner::AddEvalSet(const std::string& name, data::DMatrix* dm) {
  if (Status s = CheckData(*dm, "eval set " + name); !s.ok()) return s;
  eval_sets_.push_back({name, dm, {}, 0});
  return Status::Ok();
}

// XGBoost's rule: a matrix's own base_margin replaces base_score's margin for its rows.
std::vector<float> GBTreeLearner::BaseMargins(const data::DMatrix& dm) const {
  const std::size_t n = dm.NumRows() * static_cast<std::size_t>(objective_->NumGroups());
  if (dm.base_margin.size() == n) return dm.base_margin;
  return std::vector<float>(n, base_margin_);
}

void GBTreeLearner::CatchUp(const data::DMatrix& dm, std::vector<float>* margins,
                            int* trees_applied) const {
  if (model_.dart) margins->clear();  // every round changes earlier trees' weights
  if (margins->empty()) {
    *margins = BaseMargins(dm);
    *trees_applied = 0;
  }
  const int total = static_cast<int>(model_.trees.size());
  AddTreeOutputs(model_, dm, *trees_applied, total, ctx_.Threads(), margins);
  *trees_applied = total;
}

// Every row is in exactly one leaf's range of the partition or among its left-out rows (with
// their leaves), so each margin gets one addition whatever the thread split. The ranges tile
// the partition's row array, the left-out rows follow them; threads take equal slices of the
// whole (a split by node id gave one thread nearly every leaf: the deepest level's leaves
// have the highest ids).
void GBTreeLearner::AddLeavesToMargins(const RegTree& tree, int group) {
  const int groups = objective_->NumGroups();
  const RowPartition& partition = updater_->Partition();
  const TreeGrower::LeftOutRows left_out = updater_->LeftOut();
  struct LeafRows {
    const std::uint32_t* begin;
    const std::uint32_t* end;
    float value;
  };
  std::vector<LeafRows> leaves;
  for (int node = 0; node < tree.NumNodes(); ++node) {
    const RowSpan rows = partition.Rows(node);
    if (tree.IsLeaf(node) && rows.size() > 0) {
      leaves.push_back({rows.begin, rows.end, tree.split_cond[node]});
    }
  }
  std::sort(leaves.begin(), leaves.end(),
            [](const LeafRows& a, const LeafRows& b) { return a.begin < b.begin; });
  const std::uint32_t* all = partition.Rows(0).begin;
  const auto kept = static_cast<std::int64_t>(partition.NumRows(0));
  const auto total = kept + static_cast<std::int64_t>(left_out.rows.size());
  float* margins = train_margins_.data();
  ParallelForBlocks(total, ctx_.ThreadsFor(std::size_t(total), kBoosterGrain),
                    [&](int, std::int64_t begin, std::int64_t end) {
                      for (std::int64_t i = std::max(begin, kept); i < end; ++i) {
                        const std::uint32_t row = left_out.rows.begin[i - kept];
                        margins[std::size_t(row) * groups + group] +=
                            tree.split_cond[left_out.leaf[i - kept]];
                      }
                      end = std::min(end, kept);
                      if (begin >= end) return;
                      const std::uint32_t* lo = all + begin;
                      const std::uint32_t* hi = all + end;
                      auto leaf = std::upper_bound(
                          leaves.begin(), leaves.end(), lo,
                          [](const std::uint32_t* p, const LeafRows& l) { return p < l.end; });
                      for (; leaf != leaves.end() && leaf->begin < hi; ++leaf) {
                        const std::uint32_t* r_end = std::min(hi, leaf->end);
                        for (const std::uint32_t* r = std::max(lo, leaf->begin); r != r_end; ++r) {
                          margins[std::size_t(*r) * groups + group] += leaf->value;
                        }
                      }
                    });
}

// num_parallel_tree trees from the same gradients, each with its own row sample (XGBoost's
// BoostNewTrees); the column sampler is reseeded by tree number inside Grow.
void GBTreeLearner::BoostGroup(int group, const std::vector<GradientPair>& all_gpair,
                               const GradientMaxima* maxima) {
  const int groups = objective_->NumGroups();
  const bool own_copy = groups > 1 || tparam_.subsample < 1.0f;
  std::vector<GradientPair>& gpair = group_gpair_;
  GradientMaxima own_maxima;
  // Sampling streams follow the model's own round and tree numbers (not `iter`, which
  // restarts at 0 when training continues from model_in), so a job resumed from a snapshot
  // grows the trees of the uninterrupted run.
  const int round = static_cast<int>(model_.trees.size()) / model_.TreesPerRound();
  const std::vector<GradientPair>* unsampled = ForestGradients(group, all_gpair);
  struct ForestScope {  // ends the forest however the loop ends (a failed collective throws)
    TreeUpdater* updater;
    ~ForestScope() { updater->SetForestGradients(nullptr); }
  } scope{updater_.get()};
  updater_->SetForestGradients(unsampled);
  // Where each tree's sample reads the group's pairs.
  const GradientPair* group_src =
      unsampled != nullptr ? unsampled->data() : all_gpair.data() + group;
  const std::size_t group_stride = unsampled != nullptr ? 1 : static_cast<std::size_t>(groups);
  for (int k = 0; k < model_.num_parallel_tree; ++k) {
    // Sampling zeroes gradients in the copy: each tree starts again from the group's own.
    if (own_copy && (k == 0 || tparam_.subsample < 1.0f)) {
      if (dart_) {  // dart's exact draws count the group's pairs before the sample
        gpair.resize(train_->NumRows());
        ParallelFor(gpair.size(), ctx_.ThreadsFor(gpair.size(), kBoosterGrain),
                    [&](std::size_t row) { gpair[row] = all_gpair[row * groups + group]; });
        dart_->BeforeTree(updater_->Exact(), tparam_.subsample < 1.0f, gpair);
        own_maxima = SampleGradients(round, group, k, gpair.data(), 1, &gpair);
      } else {
        own_maxima = SampleGradients(round, group, k, group_src, group_stride, &gpair);
      }
    } else if (dart_) {
      dart_->BeforeTree(updater_->Exact(), tparam_.subsample < 1.0f, own_copy ? gpair : all_gpair);
    }
    GrowTree(group, own_copy ? gpair : all_gpair, own_copy ? &own_maxima : maxima);
  }
}

// A forest's trees all see the round's starting margins (XGBoost refreshes quantile leaves
// with those and adds the trees to its predictions after the round). Without a leaf refresh
// nothing reads the margins during the round (the gradients are taken first), so each hist
// tree's leaves are added through its row partition as it is grown: every margin gets its
// trees in model order, the additions EndRound's walk would make, without walking 1M rows
// through every tree (0.85 s of a 100-tree forest on higgs1m).
bool GBTreeLearner::ForestAddedAtEnd() const {
  return model_.num_parallel_tree > 1 && (updater_->Exact() || objective_->LeafQuantile());
}

void GBTreeLearner::GrowTree(int group, const std::vector<GradientPair>& group_gpair,
                             const GradientMaxima* maxima) {
  const bool add_now = !ForestAddedAtEnd();
  RegTree tree = updater_->Grow(group_gpair, maxima, model_.trees.size());
  if (updater_->Exact()) {
    model_.trees.push_back(std::move(tree));
    model_.tree_info.push_back(group);
    // The exact grower keeps no row partition, so the new tree is walked for the margins.
    const int t = static_cast<int>(model_.trees.size());
    if (add_now) AddTreeOutputs(model_, *train_, t - 1, t, ctx_.Threads(), &train_margins_);
    return;
  }
  // Hist trees only: 1.7's exact updater (colmaker) reports no row positions, so its leaves stay.
  if (const std::optional<double> alpha = objective_->LeafQuantileOf(group)) {
    LeafRefreshInput in{&updater_->Partition(), &train_margins_, LabelsOf(*train_), &group_gpair};
    in.group = group;
    in.groups = objective_->NumGroups();
    if (objective_->LeafRefreshScaledByEta()) in.eta = grow_param_.eta;
    RefreshLeaves(*alpha, in, ctx_.Threads(), comm_, &tree);
  }
  if (add_now) AddLeavesToMargins(tree, group);
  model_.trees.push_back(std::move(tree));
  model_.tree_info.push_back(group);
}

void GBTreeLearner::BeginRound() {
  round_cost_ = RoundCost{};
  round_first_tree_ = static_cast<int>(model_.trees.size());
  grow_param_.eta = tparam_.eta / static_cast<float>(model_.num_parallel_tree);
  if (dart_) {  // training margins without the dropped trees
    const std::vector<float> weights = dart_->DropTrees(model_.weight_drop);
    train_margins_ = BaseMargins(*train_);
    train_trees_applied_ = static_cast<int>(model_.trees.size());
    AddTreeOutputs(model_, *train_, 0, train_trees_applied_, ctx_.Threads(), &train_margins_,
                   &weights);
  } else {
    CatchUp(*train_, &train_margins_, &train_trees_applied_);
  }
}

void GBTreeLearner::EndRound() {
  if (ForestAddedAtEnd()) {  // the forest's trees in order, as XGBoost's predictor
    AddTreeOutputs(model_, *train_, round_first_tree_, static_cast<int>(model_.trees.size()),
                   ctx_.Threads(), &train_margins_);
  }
  train_trees_applied_ = static_cast<int>(model_.trees.size());
  if (dart_) {
    dart_->CommitRound(model_.trees.size() - round_first_tree_, tparam_.eta, &model_.weight_drop);
    train_margins_.clear();  // the weights changed: CatchUp recomputes them
  }
}

Status GBTreeLearner::UpdateOneIter(int /*iter*/) {
  if (train_ == nullptr) return Status::InvalidInput("UpdateOneIter: no training data set");
  if (Status s = objective_->CanComputeGradients(); !s.ok()) return s;
  if (update_param_.update) return UpdateExistingRound();
  Stopwatch watch;
  const CostMeter meter(*comm_);
  BeginRound();
  // One output group and every row kept: the objective's maxima are the tree's (one pass
  // over the gradients fewer); otherwise each group's gradients are scanned for their own.
  // XGBoost passes the round number to the objective (rank:* seeds its pair sampler with it).
  const LabelView labels = LabelsOf(*train_, round_first_tree_ / model_.TreesPerRound());
  if (objective_->NumGroups() == 1 && tparam_.subsample >= 1.0f) {
    const GradientMaxima maxima =
        objective_->GetGradientAndMaxima(train_margins_, labels, ctx_, &gpair_);
    BoostGroup(0, gpair_, &maxima);
  } else {
    objective_->GetGradient(train_margins_, labels, ctx_, &gpair_);
    for (int group = 0; group < objective_->NumGroups(); ++group) {
      BoostGroup(group, gpair_, nullptr);
    }
  }
  EndRound();
  timing_.boost_s += watch.Seconds();
  meter.AddTo(&round_cost_);
  return Status::Ok();
}

Result<std::vector<EvalResult>> GBTreeLearner::EvalOneIter(int /*iter*/) {
  Stopwatch watch;
  const CostMeter meter(*comm_);
  std::vector<EvalResult> results;
  for (auto& set : eval_sets_) {
    const bool is_train = set.dm == train_;
    std::vector<float>& margins = is_train ? train_margins_ : set.margins;
    CatchUp(*set.dm, &margins, is_train ? &train_trees_applied_ : &set.trees_applied);
    std::vector<float> preds = margins;
    objective_->EvalTransform(&preds, ctx_);
    for (const auto& metric : metrics_) {
      auto value = Score(*metric, preds, *set.dm);
      if (!value.ok()) return value.status();
      results.push_back({set.name + "-" + metric->Name(), value.value()});
    }
  }
  timing_.eval_s += watch.Seconds();
  meter.AddTo(&round_cost_);
  return results;
}

// XGBoost's LayerToTree: rounds [begin, end) are trees [begin * K, end * K) with K trees per round
// (classes x num_parallel_tree); end = 0 means every tree.
Result<int> GBTreeLearner::IterationEnd(const PredictOptions& options) const {
  const int rounds = model_.NumRounds();
  const int end = options.iteration_end == 0 ? rounds : options.iteration_end;
  if (options.iteration_begin < 0 || end > rounds || options.iteration_begin > end) {
    return Status::InvalidInput(
        "config: iteration range [" + std::to_string(options.iteration_begin) + ", " +
        std::to_string(end) + ") is not within the model's " + std::to_string(rounds) + " rounds");
  }
  return end;
}

Status GBTreeLearner::Predict(data::DMatrix* dm, const PredictOptions& options,
                              std::vector<float>* out) const {
  const Result<int> checked_end = IterationEnd(options);
  if (!checked_end.ok()) return checked_end.status();
  const int end = checked_end.value();
  if (options.output != PredictOutput::kValue) return Explain(*dm, options, end, out);
  const int groups = model_.NumGroups();
  const int per_round = model_.TreesPerRound();
  if (!dm->base_margin.empty() &&
      dm->base_margin.size() != dm->NumRows() * static_cast<std::size_t>(groups)) {
    return Status::InvalidInput("base_margin has " + std::to_string(dm->base_margin.size()) +
                                " values for " + std::to_string(dm->NumRows()) + " rows x " +
                                std::to_string(groups) + " output groups");
  }
  *out = BaseMargins(*dm);
  AddTreeOutputs(model_, *dm, options.iteration_begin * per_round, end * per_round, ctx_.Threads(),
                 out);
  if (!options.output_margin) objective_->PredTransform(out, ctx_);
  return Status::Ok();
}

}  // namespace treering::booster
