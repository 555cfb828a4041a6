#include "booster_object.h"

#include <algorithm>
#include <cmath>
#include <set>

#include "base/nearest_key.h"
#include "booster/model_formats.h"
#include "booster/tree_param.h"
#include "booster_config.h"
#include "global_config.h"
#include "learner_factory.h"  // booster/cli: the CLI's one learner factory
#include "rabit/rabit.h"

namespace treering::capi {
namespace {

// Keys XGBoost's Python package sets on every booster that mean nothing to treering, which
// validates every parameter anyway.
// gpu_id = -1 (the CPU) is what XGBoost's C demos and older Python code set; a device goes to
// the learner, which runs on the CPU (GpuWarning says so).
bool IgnoredKey(const std::string& key, const std::string& value) {
  if (key == "gpu_id" && value == "-1") return true;
  return key == "validate_parameters";
}

// XGBoost's GPU words as the learner reads them: its one warning, for stderr ("" if none).
std::string GpuWarning(const std::vector<std::pair<std::string, std::string>>& params) {
  booster::TreeParam p;
  for (const auto& [key, value] : params) {
    if (key == "tree_method" || key == "gpu_id" || key == "predictor") {
      if (!booster::TreeParam::Table().Set(&p, key, value).ok()) return "";  // the learner says
    }
  }
  return booster::GpuFallbackWarning(p);
}

std::string BoosterName(const std::vector<std::pair<std::string, std::string>>& params) {
  std::string name = cli::kDefaultBooster;
  for (const auto& [key, value] : params) {
    if (key == "booster") name = value;
  }
  return name;
}

bool HasKey(const std::vector<std::pair<std::string, std::string>>& params, const char* key) {
  for (const auto& p : params) {
    if (p.first == key) return true;
  }
  return false;
}

// XGBoost refuses NaN and infinite labels (and weights) before training on them.
void CheckFinite(const std::vector<float>& values, const char* what, const char* field) {
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (!std::isfinite(values[i])) {
      throw ApiError(std::string(what) + ": " + field + "[" + std::to_string(i) + "] is " +
                     (std::isnan(values[i]) ? "NaN" : "infinite"));
    }
  }
}

void CheckMetaInfo(const data::DMatrix& dm, const char* what) {
  // Survival data may carry label_lower_bound / label_upper_bound and no label (XGBoost 1.7
  // trains survival:aft on them; the learner refuses missing labels for other objectives).
  const bool bounds_only = dm.label.empty() && !dm.label_lower_bound.empty();
  if (dm.label.size() != dm.NumRows() * dm.label_columns && !bounds_only) {
    throw ApiError(std::string(what) + ": label: " + std::to_string(dm.label.size()) +
                   " values for " + std::to_string(dm.NumRows()) + " rows x " +
                   std::to_string(dm.label_columns) + " columns");
  }
  CheckFinite(dm.label, what, "label");
  CheckFinite(dm.weight, what, "weight");
  CheckFinite(dm.base_margin, what, "base_margin");
}

// The matrix's feature types as the feature_types param takes them, when one is categorical
// ("" otherwise: numeric types change no split, and the model stays the CLI's).
std::string FeatureTypesValue(const data::DMatrix& dm) {
  if (std::find(dm.feature_types.begin(), dm.feature_types.end(), "c") == dm.feature_types.end()) {
    return "";
  }
  std::string out;
  for (const std::string& t : dm.feature_types) out += (out.empty() ? "" : ",") + t;
  return out;
}

}  // namespace

std::vector<std::pair<std::string, std::string>> BoosterObject::LearnerParams() const {
  std::vector<std::pair<std::string, std::string>> out;
  const std::set<std::string> others = cli::OtherLearnersKeys(BoosterName(params));
  for (const auto& [key, value] : params) {
    if (Context::Table().Find(key) == nullptr && !IgnoredKey(key, value) &&
        others.count(key) == 0) {
      out.emplace_back(key, value);
    }
  }
  if (!train_feature_types_.empty() && !HasKey(out, "feature_types")) {
    out.emplace_back("feature_types", train_feature_types_);
  }
  return out;
}

Context BoosterObject::ContextFromParams() const {
  Context out;
  out.verbosity = GlobalVerbosity();  // XGBSetGlobalConfig's, unless the booster sets its own
  for (const auto& [key, value] : params) {
    if (Context::Table().Find(key) != nullptr) ThrowIfError(Context::Table().Set(&out, key, value));
  }
  return out;
}

std::unique_ptr<booster::Learner> BoosterObject::NewLearner(const Context& context,
                                                            bool warn_unused) const {
  const std::string name = BoosterName(params);
  // The MLP standardises the matrices it is given in place (booster/learner.h): through the C
  // API that would rewrite the caller's data under concurrent predictions.
  if (name == "mlp") {
    throw ApiError(
        "parameter booster: mlp is available in the treering CLI only; the C API "
        "serves gbtree, dart and gblinear");
  }
  std::vector<std::string> known = Context::Table().Keys();
  for (const booster::ParamDoc& d : cli::LearnerParamDocs(name)) known.push_back(d.key);
  const std::set<std::string> others = cli::OtherLearnersKeys(name);
  std::vector<std::string> unused;
  for (const auto& [key, value] : params) {
    if (others.count(key) != 0) {
      if (std::find(unused.begin(), unused.end(), key) == unused.end()) unused.push_back(key);
      continue;
    }
    if (!IgnoredKey(key, value) && std::find(known.begin(), known.end(), key) == known.end()) {
      throw ApiError("unknown parameter '" + key + "' (booster " + name + ")" +
                     DidYouMean(key, known));
    }
  }
  auto learner = cli::CreateLearner(name, LearnerParams(), context, &rabit::DefaultComm());
  if (!learner.ok()) throw ApiError(learner.status().message());
  // Where XGBoost's LOG(WARNING) goes (the log callback, else stderr), once per learner made
  // from these params.
  if (const std::string gpu = GpuWarning(params); !gpu.empty()) {
    Log(kLogWarning, gpu, context.verbosity);
  }
  if (const std::string w = cli::UnusedKeysWarning(unused);
      warn_unused && !w.empty() && w != unused_warning_) {
    Log(kLogWarning, w, context.verbosity);
    unused_warning_ = w;
  }
  return std::move(learner.value());
}

booster::ModelInfo BoosterObject::Info() const {
  return {attributes, feature_names, feature_types};
}

void BoosterObject::TakeInfo(const booster::Learner& from) {
  booster::ModelInfo info = from.GetModelInfo();
  attributes = std::move(info.attributes);
  feature_names = std::move(info.feature_names);
  feature_types = std::move(info.feature_types);
}

// XGBoost re-configures its learner whenever a parameter changed; here the learner is rebuilt
// from the params with the model carried over in JSON. Cost per rebuild: one model
// serialisation and parse plus, at the next round, the training matrix's quantile cuts
// (docs/c-api.md, "Booster" has the measurement).
void BoosterObject::ConfigureLocked() {
  if (learner && !needs_configure) return;
  const Context fresh = ContextFromParams();
  std::string model;
  if (learner && has_model_) {
    learner->SetModelInfo(Info());
    model = ValueOrThrow(learner->SerializeModelFile("booster.json"));
  }
  std::unique_ptr<booster::Learner> rebuilt = NewLearner(fresh, true);
  if (!model.empty()) ThrowIfError(rebuilt->LoadModelBytes(model, "the booster's model"));
  ctx = fresh;
  rebuilt->SetModelInfo(Info());
  learner = std::move(rebuilt);
  train_.reset();
  evaluated_.clear();
  needs_configure = false;
}

BoosterObject::ReadView BoosterObject::ForPrediction() {
  for (;;) {
    {
      std::shared_lock lock(mutex);
      if (learner && !needs_configure) return ReadView{std::move(lock), learner.get(), this};
    }
    std::unique_lock lock(mutex);
    ConfigureLocked();
  }
}

void BoosterObject::PrepareTraining(const std::shared_ptr<DMatrixObject>& dtrain,
                                    const char* what) {
  if (dtrain->is_proxy) throw ApiError(std::string(what) + ": a proxy DMatrix holds no data");
  const std::uint64_t version = dtrain->version.load();
  const bool same = train_ == dtrain && train_version_ == version;
  if (same && learner && !needs_configure) return;
  CheckMetaInfo(dtrain->data, what);
  const std::string types = FeatureTypesValue(dtrain->data);
  if (types != train_feature_types_) {
    train_feature_types_ = types;
    needs_configure = true;
  }
  ConfigureLocked();
  Status st = learner->SetTrainData(&dtrain->data);
  if (!st.ok()) throw ApiError(std::string(what) + ": " + st.message());
  learner->ForgetMatrix(&dtrain->data);
  train_ = dtrain;
  train_version_ = version;
  has_model_ = true;  // the model now depends on the data (base_score, feature count)
}

std::vector<booster::EvalResult> BoosterObject::Evaluate(
    const std::vector<std::pair<std::string, std::shared_ptr<DMatrixObject>>>& sets) {
  ConfigureLocked();
  for (auto it = evaluated_.begin(); it != evaluated_.end();) {
    if (it->second.object.expired()) {
      learner->ForgetMatrix(it->first);
      it = evaluated_.erase(it);
    } else {
      ++it;
    }
  }
  std::vector<booster::NamedMatrix> named;
  for (const auto& [name, dm] : sets) {
    const std::uint64_t version = dm->version.load();
    auto found = evaluated_.find(&dm->data);
    if (found == evaluated_.end() || found->second.version != version) {
      CheckMetaInfo(dm->data, ("evals[" + name + "]").c_str());
      learner->ForgetMatrix(&dm->data);
      evaluated_[&dm->data] = Evaluated{dm, version};
    }
    named.push_back({name, &dm->data});
  }
  return ValueOrThrow(learner->EvalOn(named));
}

void BoosterObject::LoadModelLocked(std::string_view bytes, const std::string& source) {
  // XGBoost's loader takes the booster from the model: a gblinear model (whose bytes name it;
  // the search skips the parse for every other model) makes this a gblinear booster.
  if (bytes.find("gblinear") != std::string_view::npos && BoosterName(params) != "gblinear") {
    auto model = booster::ParseModel(bytes, source);
    if (model.ok() && model->linear) {
      std::erase_if(params, [](const auto& p) { return p.first == "booster"; });
      params.emplace_back("booster", "gblinear");
    }
  }
  // A fresh learner takes the model; only when that worked does it replace the current one.
  const Context fresh = ContextFromParams();
  std::unique_ptr<booster::Learner> loaded = NewLearner(fresh, false);
  ThrowIfError(loaded->LoadModelBytes(bytes, source));
  ctx = fresh;
  learner = std::move(loaded);
  TakeInfo(*learner);
  train_.reset();
  evaluated_.clear();
  needs_configure = false;
  has_model_ = true;
}

std::string BoosterObject::ConfigJsonLocked() {
  if (!learner || needs_configure) ConfigureLocked();
  learner->SetModelInfo(Info());
  std::int64_t num_trees = -1;
  const std::string header = ValueOrThrow(learner->SerializeModelHeader(&num_trees));
  return ConfigJson(params, header, num_trees);
}

std::string BoosterObject::SaveModelLocked(const std::string& path) {
  if (!learner || needs_configure) ConfigureLocked();
  learner->SetModelInfo(Info());
  return ValueOrThrow(learner->SerializeModelFile(path));
}

void BoosterObject::CopySettingsFrom(const BoosterObject& other) {
  params = other.params;
  attributes = other.attributes;
  feature_names = other.feature_names;
  feature_types = other.feature_types;
  needs_configure = true;
}

}  // namespace treering::capi
