// Predictions from a DMatrix handle: XGBoosterPredictFromDMatrix (JSON configuration, XGBoost
// 1.7's shapes) and the legacy XGBoosterPredict (option_mask, ntree_limit, a flat array), plus
// the CUDA entry points, refused.
#include <string>

#include "api_error.h"
#include "booster_object.h"
#include "dmatrix_object.h"
#include "predict_request.h"
#include "predict_run.h"
#include "treering/c_api.h"

using treering::capi::ApiCall;
using treering::capi::ApiError;
using treering::capi::BoosterObject;
using treering::capi::DMatrixObject;
using treering::capi::GetHandle;
using treering::capi::NotNull;

namespace treering::capi {
namespace {

// A matrix with more features than the model cannot be predicted (XGBoost's ValidateDMatrix);
// fewer is fine (the rest are missing).
void CheckColumns(const DMatrixObject& matrix, const ModelFacts& facts) {
  if (matrix.is_proxy) {
    throw ApiError("dmat: a proxy DMatrix holds no rows of its own; use inplace prediction");
  }
  if (facts.num_feature != 0 && matrix.data.num_col > facts.num_feature) {
    throw ApiError("dmat: " + std::to_string(matrix.data.num_col) +
                   " columns, more than the model's " + std::to_string(facts.num_feature) +
                   " features");
  }
}

void PredictMatrix(BoosterHandle handle, DMatrixHandle dmat, const PredictRequest& request,
                   const PredictOutputs& out) {
  std::shared_ptr<BoosterObject> booster = GetHandle<BoosterObject>(handle, "handle");
  std::shared_ptr<DMatrixObject> matrix = GetHandle<DMatrixObject>(dmat, "dmat");
  BoosterObject::ReadView view = booster->ForPrediction();
  CheckColumns(*matrix, FactsOf(*view.learner));
  RunPrediction(view, matrix->data, request, "dmat", &booster->returns.ForThisThread(), out);
}

}  // namespace
}  // namespace treering::capi

XGB_DLL int XGBoosterPredictFromDMatrix(BoosterHandle handle, DMatrixHandle dmat,
                                        char const* config, bst_ulong const** out_shape,
                                        bst_ulong* out_dim, float const** out_result) {
  return ApiCall("XGBoosterPredictFromDMatrix", [&] {
    treering::capi::PredictOutputs out;
    out.shape = NotNull(out_shape, "out_shape");
    out.dim = NotNull(out_dim, "out_dim");
    out.result = NotNull(out_result, "out_result");
    const auto request = treering::capi::ParsePredictConfig(config, /*inplace=*/false);
    treering::capi::PredictMatrix(handle, dmat, request, out);
  });
}

XGB_DLL int XGBoosterPredict(BoosterHandle handle, DMatrixHandle dmat, int option_mask,
                             unsigned ntree_limit, int training, bst_ulong* out_len,
                             const float** out_result) {
  return ApiCall("XGBoosterPredict", [&] {
    treering::capi::PredictOutputs out;
    out.length = NotNull(out_len, "out_len");
    out.result = NotNull(out_result, "out_result");
    const auto request =
        treering::capi::RequestFromOptionMask(option_mask, ntree_limit, training != 0);
    treering::capi::PredictMatrix(handle, dmat, request, out);
  });
}

XGB_DLL int XGBoosterPredictFromCudaArray(BoosterHandle handle, char const*, char const*,
                                          DMatrixHandle, bst_ulong const**, bst_ulong*,
                                          const float**) {
  return ApiCall("XGBoosterPredictFromCudaArray", [&] {
    GetHandle<BoosterObject>(handle, "handle");
    throw ApiError("treering is built without CUDA");
  });
}

XGB_DLL int XGBoosterPredictFromCudaColumnar(BoosterHandle handle, char const*, char const*,
                                             DMatrixHandle, bst_ulong const**, bst_ulong*,
                                             const float**) {
  return ApiCall("XGBoosterPredictFromCudaColumnar", [&] {
    GetHandle<BoosterObject>(handle, "handle");
    throw ApiError("treering is built without CUDA");
  });
}
