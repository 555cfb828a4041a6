#include "learner_factory.h"

#include <algorithm>

#include "booster/linear/linear_learner.h"
#include "booster/mlp/mlp_learner.h"
#include "booster/tree/learner/gbtree_learner.h"

namespace treering::cli {
namespace {

bool IsMlp(const std::string& booster) { return booster == "mlp"; }
bool IsLinear(const std::string& booster) { return booster == "gblinear"; }

template <typename L>
Result<std::unique_ptr<booster::Learner>> AsLearner(Result<std::unique_ptr<L>> learner) {
  if (!learner.ok()) return learner.status();
  return std::unique_ptr<booster::Learner>(std::move(learner.value()));
}

}  // namespace

std::string BoosterOf(const std::vector<ConfigEntry>& entries) {
  std::string booster = kDefaultBooster;
  for (const ConfigEntry& e : entries) {
    if (e.key == "booster") booster = e.value;
  }
  return booster;
}

const std::vector<booster::ParamDoc>& LearnerParamDocs(const std::string& booster) {
  if (IsLinear(booster)) return booster::linear::LinearLearner::Params();
  return IsMlp(booster) ? booster::mlp::MlpLearner::Params() : booster::GBTreeLearner::Params();
}

std::set<std::string> OtherLearnersKeys(const std::string& booster) {
  std::set<std::string> own;
  for (const booster::ParamDoc& d : LearnerParamDocs(booster)) own.insert(d.key);
  std::set<std::string> out;
  for (const char* other : {"gbtree", "gblinear"}) {
    for (const booster::ParamDoc& d : LearnerParamDocs(other)) {
      if (own.count(d.key) == 0) out.insert(d.key);
    }
  }
  return out;
}

std::string UnusedKeysWarning(const std::vector<std::string>& keys) {
  if (keys.empty()) return "";
  std::string list;
  for (const std::string& k : keys) list += (list.empty() ? "\"" : ", \"") + k + "\"";
  return "Parameters: { " + list + " } are not used.";  // XGBoost 1.7.4's words
}

namespace {

// One --help section: `title`, then key = default and meaning, aligned.
std::string KeySection(const std::string& title, const std::vector<booster::ParamDoc>& docs) {
  std::size_t width = 0;
  for (const auto& d : docs) width = std::max(width, d.key.size() + 3 + d.default_value.size());
  std::string out = title;
  for (const auto& d : docs) {
    std::string left = d.key + " = " + d.default_value;
    left.resize(width + 2, ' ');
    out += "  " + left + d.description + "\n";
  }
  return out;
}

}  // namespace

std::string OtherLearnersHelpText() {
  return KeySection("\nMLP keys, booster=mlp (key = default  meaning; docs/mlp.md):\n",
                    LearnerParamDocs("mlp")) +
         KeySection("\ngblinear keys beside the learner's, booster=gblinear (docs/learner.md):\n",
                    booster::linear::LinearParam::Table().Docs());
}

Result<std::unique_ptr<booster::Learner>> CreateLearner(const std::string& booster,
                                                        const KeyValues& params, const Context& ctx,
                                                        rabit::Comm* comm) {
  if (IsMlp(booster)) return AsLearner(booster::mlp::MlpLearner::Create(params, ctx, comm));
  if (IsLinear(booster)) {
    return AsLearner(booster::linear::LinearLearner::Create(params, ctx, comm));
  }
  return AsLearner(booster::GBTreeLearner::Create(params, ctx, comm));
}

}  // namespace treering::cli
