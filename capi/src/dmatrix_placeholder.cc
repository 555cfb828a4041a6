// PLACEHOLDER until the dmatrix, predict and library parts are merged: weak stand-ins for the
// few of their C functions the booster's tests call (XGBGetLastError, DMatrix from a file,
// float / uint / string info, XGBoosterPredict). The parts' own definitions are strong and
// replace these at link time; delete this file once they are all on main.
#include <cstring>
#include <string>

#include "api_error.h"
#include "booster_object.h"
#include "data/load.h"
#include "data/query_group_shards.h"
#include "dmatrix_object.h"
#include "rabit/rabit.h"
#include "treering/c_api.h"

using treering::capi::ApiCall;
using treering::capi::ApiError;
using treering::capi::DMatrixObject;
using treering::capi::GetHandle;

#define WEAK __attribute__((weak))

XGB_DLL WEAK const char* XGBGetLastError() { return treering::capi::LastError(); }

XGB_DLL WEAK int XGDMatrixCreateFromFile(const char* fname, int silent, DMatrixHandle* out) {
  return ApiCall("XGDMatrixCreateFromFile", [&] {
    (void)silent;
    auto dm = treering::data::Load(fname);
    if (!dm.ok()) throw ApiError(dm.status().message());
    treering::capi::ThrowIfError(treering::data::AttachQueryGroups(
        "fname", fname, false, rabit::DefaultComm(), &dm.value()));
    auto obj = std::make_shared<DMatrixObject>();
    obj->data = std::move(dm.value());
    *out = treering::capi::AddHandle(obj);
  });
}

XGB_DLL WEAK int XGDMatrixFree(DMatrixHandle handle) {
  return ApiCall("XGDMatrixFree",
                 [&] { treering::capi::FreeHandle<DMatrixObject>(handle, "handle"); });
}

XGB_DLL WEAK int XGDMatrixNumRow(DMatrixHandle handle, bst_ulong* out) {
  return ApiCall("XGDMatrixNumRow",
                 [&] { *out = GetHandle<DMatrixObject>(handle, "handle")->data.NumRows(); });
}

XGB_DLL WEAK int XGDMatrixSetFloatInfo(DMatrixHandle handle, const char* field, const float* array,
                                       bst_ulong len) {
  return ApiCall("XGDMatrixSetFloatInfo", [&] {
    auto dm = GetHandle<DMatrixObject>(handle, "handle");
    const std::string f = field;
    std::vector<float> v(array, array + len);
    if (f == "label")
      dm->data.label = v;
    else if (f == "weight")
      dm->data.weight = v;
    else if (f == "base_margin")
      dm->data.base_margin = v;
    else if (f == "feature_weights")
      dm->data.feature_weights = v;
    else
      throw ApiError("field: " + f);
    dm->version++;
  });
}

XGB_DLL WEAK int XGDMatrixSetUIntInfo(DMatrixHandle handle, const char* field,
                                      const unsigned* array, bst_ulong len) {
  return ApiCall("XGDMatrixSetUIntInfo", [&] {
    auto dm = GetHandle<DMatrixObject>(handle, "handle");
    if (std::strcmp(field, "group") != 0) throw ApiError("field");
    dm->data.group_ptr = {0};
    for (bst_ulong i = 0; i < len; ++i)
      dm->data.group_ptr.push_back(dm->data.group_ptr.back() + array[i]);
    dm->version++;
  });
}

XGB_DLL WEAK int XGDMatrixSetStrFeatureInfo(DMatrixHandle handle, const char* field,
                                            const char** features, bst_ulong size) {
  return ApiCall("XGDMatrixSetStrFeatureInfo", [&] {
    auto dm = GetHandle<DMatrixObject>(handle, "handle");
    std::vector<std::string> v(features, features + size);
    if (std::strcmp(field, "feature_type") == 0)
      dm->data.feature_types = v;
    else
      dm->data.feature_names = v;
    dm->version++;
  });
}

XGB_DLL WEAK int XGBoosterPredict(BoosterHandle handle, DMatrixHandle dmat, int option_mask,
                                  unsigned ntree_limit, int training, bst_ulong* out_len,
                                  const float** out_result) {
  return ApiCall("XGBoosterPredict", [&] {
    (void)ntree_limit, (void)training;
    auto b = GetHandle<treering::capi::BoosterObject>(handle, "handle");
    auto dm = GetHandle<DMatrixObject>(dmat, "dmat");
    auto view = b->ForPrediction();
    treering::booster::PredictOptions options;
    options.output_margin = (option_mask & 1) != 0;
    auto& slot = b->returns.ForThisThread();
    treering::capi::ThrowIfError(view.learner->Predict(&dm->data, options, &slot.floats));
    *out_len = slot.floats.size();
    *out_result = slot.floats.data();
  });
}
