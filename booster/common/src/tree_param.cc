#include "booster/tree_param.h"

#include <cctype>
#include <sstream>

namespace treering::booster {
namespace {

// XGBoost's tuple syntax "(1,0,-1)" (python-xgboost writes a list or dict of names as this).
Status ParseMonotone(const std::string& text, std::vector<int>* out) {
  // The table reports "bad value '<text>', allowed: <this>" with the file, line and key.
  const std::string bad = "a tuple of -1, 0 and 1 such as (1,0,-1)";
  std::size_t open = text.find_first_not_of(" \t"), close = text.find_last_not_of(" \t");
  if (open == std::string::npos || text[open] != '(' || text[close] != ')') {
    return Status::InvalidInput(bad);
  }
  std::vector<int> values;
  std::stringstream items(text.substr(open + 1, close - open - 1));
  for (std::string item; std::getline(items, item, ',');) {
    const std::size_t b = item.find_first_not_of(" \t"), e = item.find_last_not_of(" \t");
    if (b == std::string::npos) {
      if (values.empty() && items.eof()) break;  // "()" is no constraint
      return Status::InvalidInput(bad);
    }
    const std::string v = item.substr(b, e - b + 1);
    if (v != "1" && v != "0" && v != "-1" && v != "+1") {
      return Status::InvalidInput(bad);
    }
    values.push_back(std::stoi(v));
  }
  *out = std::move(values);
  return Status::Ok();
}

// XGBoost's nested list "[[0,1],[2,3,4]]" of feature indices (python-xgboost writes names
// as indices in this form).
Status ParseInteractions(const std::string& text, std::vector<std::vector<std::uint32_t>>* out) {
  const std::string bad = "lists of feature indices such as [[0,1],[2,3,4]]";
  std::vector<std::vector<std::uint32_t>> groups;
  std::size_t i = 0;
  auto skip = [&] {
    while (i < text.size() && (text[i] == ' ' || text[i] == '\t')) ++i;
  };
  auto eat = [&](char c) {
    skip();
    if (i < text.size() && text[i] == c) {
      ++i;
      return true;
    }
    return false;
  };
  if (!eat('[')) return Status::InvalidInput(bad);
  if (!eat(']')) {
    do {
      if (!eat('[')) return Status::InvalidInput(bad);
      std::vector<std::uint32_t> group;
      if (!eat(']')) {
        do {
          skip();
          std::size_t end = i;
          while (end < text.size() && std::isdigit(static_cast<unsigned char>(text[end]))) ++end;
          if (end == i || end - i > 9) return Status::InvalidInput(bad);
          group.push_back(static_cast<std::uint32_t>(std::stoul(text.substr(i, end - i))));
          i = end;
        } while (eat(','));
        if (!eat(']')) return Status::InvalidInput(bad);
      }
      groups.push_back(std::move(group));
    } while (eat(','));
    if (!eat(']')) return Status::InvalidInput(bad);
  }
  skip();
  if (i != text.size()) return Status::InvalidInput(bad);
  *out = std::move(groups);
  return Status::Ok();
}

// XGBoost's feature_types: a comma list of q, c, int, float, i (python-xgboost and the CLI's
// fmap use the same names).
Status ParseFeatureTypes(const std::string& text, std::vector<std::string>* out) {
  const std::string bad = "a comma list of q, c, int, float, i such as q,c,q";
  std::vector<std::string> types;
  std::stringstream items(text);
  for (std::string item; std::getline(items, item, ',');) {
    const std::size_t b = item.find_first_not_of(" \t"), e = item.find_last_not_of(" \t");
    if (b == std::string::npos) return Status::InvalidInput(bad);
    const std::string t = item.substr(b, e - b + 1);
    if (t != "q" && t != "c" && t != "int" && t != "float" && t != "i") {
      return Status::InvalidInput(bad);
    }
    types.push_back(t);
  }
  if (!text.empty() && text.back() == ',') return Status::InvalidInput(bad);
  *out = std::move(types);
  return Status::Ok();
}

}  // namespace

const ParamTable<TreeParam>& TreeParam::Table() {
  using P = TreeParam;
  constexpr RealRange kNonNegative{.lo = 0};
  constexpr RealRange kFraction{.lo = 0, .hi = 1, .lo_open = true};
  static const ParamTable<P> kTable({
      RealField("eta", &P::eta, kNonNegative, "step size shrinkage applied to leaf values")
          .Alias("learning_rate"),
      RealField("gamma", &P::min_split_loss, kNonNegative,
                "minimum loss reduction (loss_chg) to make a split")
          .Alias("min_split_loss"),
      IntField("max_depth", &P::max_depth, 0, 64,
               "maximum tree depth, 0 = unlimited (lossguide with max_leaves only)"),
      IntField("max_leaves", &P::max_leaves, 0, 2147483647LL,
               "maximum number of leaves, 0 = unlimited"),
      RealField("min_child_weight", &P::min_child_weight, kNonNegative,
                "minimum hessian sum in a child"),
      IntField("min_data_in_leaf", &P::min_data_in_leaf, 0, 2147483647LL,
               "LightGBM's key, not XGBoost's: minimum rows in a child, estimated as LightGBM "
               "does from its hessian (H_child x node rows / H_node); 0 = off"),
      RealField("max_delta_step", &P::max_delta_step, kNonNegative,
                "clip leaf weights to [-x, x], 0 = off (0.7 for count:poisson)")
          .MarkSet(&P::max_delta_step_set),
      RealField("subsample", &P::subsample, kFraction, "fraction of rows sampled per tree"),
      IntField("num_parallel_tree", &P::num_parallel_tree, 1, 1 << 20,
               "trees grown per class per round from the same gradients, each with its own "
               "row and column samples (a random forest with eta=1, num_round=1); XGBoost "
               "divides eta by it for each tree")
          .MarkSet(&P::num_parallel_tree_set),
      RealField("colsample_bytree", &P::colsample_bytree, kFraction,
                "fraction of features sampled per tree"),
      RealField("colsample_bylevel", &P::colsample_bylevel, kFraction,
                "fraction of the tree's features sampled per level"),
      RealField("colsample_bynode", &P::colsample_bynode, kFraction,
                "fraction of the level's features sampled per node"),
      RealField("lambda", &P::reg_lambda, kNonNegative, "L2 regularisation on leaf weights")
          .Alias("reg_lambda"),
      RealField("alpha", &P::reg_alpha, kNonNegative, "L1 regularisation on leaf weights")
          .Alias("reg_alpha"),
      IntField("max_bin", &P::max_bin, 2, 65536,
               "maximum number of histogram bins per feature (uint8 dense bins up to 256, "
               "uint16 above)"),
      IntField("max_memory", &P::max_memory, 0, 1 << 30,
               "external memory (a data URI with #cacheprefix): MiB of resident memory the "
               "process keeps to while training from the binned pages; 0 = no cap"),
      EnumField("grow_policy", &P::grow_policy,
                {{"depthwise", GrowPolicy::kDepthWise}, {"lossguide", GrowPolicy::kLossGuide}},
                "depthwise grows level by level (max_depth), lossguide the best leaf first "
                "(max_leaves)"),
      ParamField<P>{
          "monotone_constraints", "", "()",
          "per feature (1,0,-1): the model increases (1), decreases (-1) or is free "
          "(0) along it; features past the tuple are free",
          [](P* p, const std::string& v) { return ParseMonotone(v, &p->monotone_constraints); }},
      ParamField<P>{"interaction_constraints", "", "[]",
                    "groups of feature indices [[0,1],[2,3,4]]: a tree path splits only on "
                    "features of one group (the root on any feature)",
                    [](P* p, const std::string& v) {
                      return ParseInteractions(v, &p->interaction_constraints);
                    }},
      ParamField<P>{
          "feature_types", "", "",
          "per feature q (numerical), c (categorical), int, float or i, comma "
          "separated as q,c,q; c features get categorical splits (hist only)",
          [](P* p, const std::string& v) { return ParseFeatureTypes(v, &p->feature_types); }},
      IntField("max_cat_to_onehot", &P::max_cat_to_onehot, 1, 2147483647LL,
               "a categorical feature with fewer categories than this is split one category "
               "against the rest, otherwise by a partition of its categories"),
      IntField("max_cat_threshold", &P::max_cat_threshold, 1, 2147483647LL,
               "most categories a partition split scans from either end of the gradient order"),
      ChoiceField("tree_method", &P::tree_method, {"auto", "exact", "approx", "hist", "gpu_hist"},
                  "auto: exact on one process below 4M rows (hist when the config needs what "
                  "exact lacks: colsample, constraints, lossguide), else approx; approx is "
                  "grown as hist; gpu_hist is grown as hist on the CPU, with a warning"),
      IntField("gpu_id", &P::gpu_id, -1, 1 << 20,
               "XGBoost's GPU ordinal; treering has no GPU code: a device (>= 0) trains on "
               "the CPU, with a warning"),
      ChoiceField("predictor", &P::predictor, {"auto", "cpu_predictor", "gpu_predictor"},
                  "XGBoost's predictor choice; every prediction runs on the CPU "
                  "(gpu_predictor with a warning)"),
      EnumField("tree_learner", &P::tree_learner,
                {{"data", TreeLearner::kData},
                 {"allreduce", TreeLearner::kAllreduce},
                 {"voting", TreeLearner::kVoting}},
                "distributed hist: data reduce-scatters each level's histograms by feature "
                "owner, each rank evaluating its own features; allreduce sums them whole on "
                "every rank; the same trees either way; voting (PV-Tree) sums only the 2 * "
                "top_k features the ranks' local top_k votes elect per node (other trees, "
                "fewer bytes; no categorical features)"),
      IntField("top_k", &P::top_k, 1, 1000000,
               "tree_learner=voting: features each rank votes for per node (its best by "
               "local gain)"),
  });
  return kTable;
}

Status TreeParam::Validate() const {
  if (max_depth == 0 && max_leaves == 0) {
    return Status::InvalidKey(
        "max_depth",
        "parameter max_depth: 0 (unlimited) needs max_leaves > 0, or the tree is unbounded");
  }
  if (max_depth == 0 && grow_policy == GrowPolicy::kDepthWise) {
    return Status::InvalidKey("max_depth",
                              "parameter max_depth: 0 (unlimited) needs grow_policy=lossguide");
  }
  if (tree_learner == TreeLearner::kVoting && HasCategorical()) {
    return Status::InvalidKey("tree_learner",
                              "parameter tree_learner: voting does not support categorical "
                              "features (feature_types c); use data or allreduce");
  }
  return Status::Ok();
}

// The one warning for XGBoost's GPU words ("" when none was used): what was asked and what runs.
std::string GpuFallbackWarning(const TreeParam& p) {
  std::string asked;
  if (p.tree_method == "gpu_hist") asked += "tree_method=gpu_hist";
  if (p.gpu_id >= 0) {
    asked += std::string(asked.empty() ? "" : ", ") + "gpu_id=" + std::to_string(p.gpu_id);
  }
  if (p.predictor == "gpu_predictor") {
    asked += std::string(asked.empty() ? "" : ", ") + "predictor=gpu_predictor";
  }
  if (asked.empty()) return "";
  return "WARNING: " + asked + ": treering has no GPU support; " +
         (p.tree_method == "gpu_hist" ? "training with tree_method=hist on the CPU instead"
                                      : "running on the CPU instead");
}

}  // namespace treering::booster
