// XGBoost's C API, booster life cycle, parameters and training: XGBoosterCreate ...
// XGBoosterEvalOneIter, XGBoosterSlice.
#include <algorithm>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "api_error.h"
#include "booster_object.h"
#include "eval_report.h"  // booster/cli: the metric line, as the CLI prints it
#include "treering/c_api.h"

using treering::capi::ApiCall;
using treering::capi::ApiError;
using treering::capi::BoosterObject;
using treering::capi::DMatrixObject;
using treering::capi::GetHandle;
using treering::capi::NotNull;

namespace {

std::shared_ptr<BoosterObject> Booster(BoosterHandle handle) {
  return GetHandle<BoosterObject>(handle, "handle");
}

// XGBoost's SetParam keeps one value per key, except eval_metric, of which each new one is
// added (several metrics).
void RecordParam(const std::string& key, const std::string& value, BoosterObject* b) {
  for (auto& [k, v] : b->params) {
    if (k != key) continue;
    if (key != "eval_metric") {
      v = value;
      return;
    }
    if (v == value) return;
  }
  b->params.emplace_back(key, value);
}

}  // namespace

XGB_DLL int XGBoosterCreate(const DMatrixHandle dmats[], bst_ulong len, BoosterHandle* out) {
  return ApiCall("XGBoosterCreate", [&] {
    NotNull(out, "out");
    if (len > 0) NotNull(dmats, "dmats");
    std::vector<std::shared_ptr<DMatrixObject>> cache;
    for (bst_ulong i = 0; i < len; ++i) {
      const std::string arg = "dmats[" + std::to_string(i) + "]";
      cache.push_back(GetHandle<DMatrixObject>(dmats[i], arg.c_str()));
    }
    *out = treering::capi::AddHandle(std::make_shared<BoosterObject>(std::move(cache)));
  });
}

XGB_DLL int XGBoosterFree(BoosterHandle handle) {
  return ApiCall("XGBoosterFree",
                 [&] { treering::capi::FreeHandle<BoosterObject>(handle, "handle"); });
}

XGB_DLL int XGBoosterSetParam(BoosterHandle handle, const char* name, const char* value) {
  return ApiCall("XGBoosterSetParam", [&] {
    const auto b = Booster(handle);
    NotNull(name, "name");
    NotNull(value, "value");
    std::unique_lock lock(b->mutex);
    // A learning-rate schedule sets eta every round: the learner takes it in place when it
    // can, so the round after it does not rebuild the learner and its quantile cuts.
    if (b->learner && !b->needs_configure) {
      auto tuned = b->learner->TuneInPlace(name, value);
      if (!tuned.ok()) throw ApiError(tuned.status().message());
      RecordParam(name, value, b.get());
      if (tuned.value()) return;
    } else {
      RecordParam(name, value, b.get());
    }
    b->needs_configure = true;
  });
}

XGB_DLL int XGBoosterBoostedRounds(BoosterHandle handle, int* out) {
  return ApiCall("XGBoosterBoostedRounds", [&] {
    const auto b = Booster(handle);
    NotNull(out, "out");
    std::shared_lock lock(b->mutex);
    *out = b->learner ? b->learner->RoundsInModel() : 0;
  });
}

XGB_DLL int XGBoosterGetNumFeature(BoosterHandle handle, bst_ulong* out) {
  return ApiCall("XGBoosterGetNumFeature", [&] {
    const auto b = Booster(handle);
    NotNull(out, "out");
    std::shared_lock lock(b->mutex);
    bst_ulong features = b->learner ? b->learner->NumFeatures() : 0;
    // Before any training or loaded model, XGBoost's configured width: the widest matrix given
    // to XGBoosterCreate.
    if (features == 0) {
      for (const auto& m : b->cache) features = std::max<bst_ulong>(features, m->data.num_col);
    }
    *out = features;
  });
}

XGB_DLL int XGBoosterUpdateOneIter(BoosterHandle handle, int iter, DMatrixHandle dtrain) {
  return ApiCall("XGBoosterUpdateOneIter", [&] {
    const auto b = Booster(handle);
    const auto train = GetHandle<DMatrixObject>(dtrain, "dtrain");
    std::unique_lock lock(b->mutex);
    b->PrepareTraining(train, "dtrain");
    treering::capi::ThrowIfError(b->learner->UpdateOneIter(iter));
  });
}

XGB_DLL int XGBoosterBoostOneIter(BoosterHandle handle, DMatrixHandle dtrain, float* grad,
                                  float* hess, bst_ulong len) {
  return ApiCall("XGBoosterBoostOneIter", [&] {
    const auto b = Booster(handle);
    const auto train = GetHandle<DMatrixObject>(dtrain, "dtrain");
    NotNull(grad, "grad");
    NotNull(hess, "hess");
    std::unique_lock lock(b->mutex);
    b->PrepareTraining(train, "dtrain");
    const std::size_t rows = train->data.NumRows();
    if (rows == 0 || len % rows != 0) {
      throw ApiError("len: " + std::to_string(len) + " gradients for " + std::to_string(rows) +
                     " rows (len must be rows x output groups)");
    }
    const std::vector<float> g(grad, grad + len), h(hess, hess + len);
    const treering::Status st = b->learner->BoostFromGradients(g, h);
    if (!st.ok()) throw ApiError("len: " + st.message());
  });
}

XGB_DLL int XGBoosterEvalOneIter(BoosterHandle handle, int iter, DMatrixHandle dmats[],
                                 const char* evnames[], bst_ulong len, const char** out_result) {
  return ApiCall("XGBoosterEvalOneIter", [&] {
    const auto b = Booster(handle);
    NotNull(out_result, "out_result");
    if (len > 0) {
      NotNull(dmats, "dmats");
      NotNull(evnames, "evnames");
    }
    std::vector<std::pair<std::string, std::shared_ptr<DMatrixObject>>> sets;
    for (bst_ulong i = 0; i < len; ++i) {
      std::string index("[");  // appends only: GCC 12 warns falsely on "literal" + string
      index.append(std::to_string(i)).append("]");
      const std::string name = NotNull(evnames[i], ("evnames" + index).c_str());
      sets.emplace_back(name, GetHandle<DMatrixObject>(dmats[i], ("dmats" + index).c_str()));
    }
    std::unique_lock lock(b->mutex);
    const auto results = b->Evaluate(sets);
    treering::capi::ReturnSlot& slot = b->returns.ForThisThread();
    slot.text = treering::cli::FormatEvalLine(iter, results);
    *out_result = slot.text.c_str();
  });
}

// As XGBoost 1.7: -2 (and a message) when end_layer is beyond the model's rounds, which its
// Python package turns into IndexError; other bad ranges are -1.
XGB_DLL int XGBoosterSlice(BoosterHandle handle, int begin_layer, int end_layer, int step,
                           BoosterHandle* out) {
  bool out_of_bound = false;
  const int rc = ApiCall("XGBoosterSlice", [&] {
    const auto b = Booster(handle);
    NotNull(out, "out");
    auto sliced = std::make_shared<BoosterObject>(b->cache);
    {
      std::unique_lock lock(b->mutex);
      b->ConfigureLocked();
      const int rounds = b->learner->RoundsInModel();
      if (end_layer > rounds) {
        out_of_bound = true;
        throw ApiError("end_layer: " + std::to_string(end_layer) + " is beyond the model's " +
                       std::to_string(rounds) + " rounds");
      }
      b->learner->SetModelInfo({b->attributes, b->feature_names, b->feature_types});
      auto bytes = b->learner->SliceModel(begin_layer, end_layer, step);
      if (!bytes.ok()) throw ApiError("begin_layer, end_layer, step: " + bytes.status().message());
      sliced->CopySettingsFrom(*b);
      sliced->LoadModelLocked(bytes.value(), "the sliced model");
    }
    *out = treering::capi::AddHandle(std::move(sliced));
  });
  return out_of_bound ? -2 : rc;
}
