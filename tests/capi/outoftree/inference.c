/* treering's equivalent of XGBoost 1.7.4's demo/c-api/inference/inference.c, written for this
 * test: a dense matrix through the array interface (XGDMatrixCreateFromDense), labels with
 * XGDMatrixSetDenseInfo, ten rounds, the model saved as JSON and loaded into a new booster,
 * then prediction from the DMatrix and inplace (XGBoosterPredictFromDense) with strict_shape,
 * which must agree value for value. Built with `#include <xgboost/c_api.h>`. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <xgboost/c_api.h>

#define safe_xgboost(call)                                                                   \
  do {                                                                                       \
    if ((call) != 0) {                                                                       \
      fprintf(stderr, "%s:%d: error in %s: %s\n", __FILE__, __LINE__, #call,                 \
              XGBGetLastError());                                                            \
      exit(1);                                                                               \
    }                                                                                        \
  } while (0)

#define N_SAMPLES 128
#define N_FEATURES 16

static unsigned long long state = 2021;
static float Uniform(void) {
  state = state * 6364136223846793005ULL + 1442695040888963407ULL;
  return (float)((state >> 40) & 0xFFFFFF) / (float)0x1000000;
}

/* NumPy's array interface of a row-major float32 matrix. */
static void ArrayInterface(char* out, size_t size, const float* data, size_t rows, size_t cols) {
  snprintf(out, size,
           "{\"data\": [%llu, true], \"shape\": [%zu, %zu], \"typestr\": \"<f4\", "
           "\"version\": 3}",
           (unsigned long long)(uintptr_t)data, rows, cols);
}

static int CheckShape(bst_ulong dim, const bst_ulong* shape, const char* what) {
  if (dim != 2 || shape[0] != N_SAMPLES || shape[1] != 1) {
    fprintf(stderr, "%s: expected shape (%d, 1) with strict_shape, got dim %lu\n", what,
            N_SAMPLES, (unsigned long)dim);
    return 0;
  }
  return 1;
}

int main(void) {
  static float X[N_SAMPLES * N_FEATURES];
  static float y[N_SAMPLES];
  for (size_t i = 0; i < N_SAMPLES * N_FEATURES; ++i) X[i] = Uniform();
  for (size_t i = 0; i < N_SAMPLES; ++i) y[i] = X[i * N_FEATURES] * 2 + Uniform() * 0.1f;

  char interface[256];
  ArrayInterface(interface, sizeof(interface), X, N_SAMPLES, N_FEATURES);
  DMatrixHandle Xy;
  safe_xgboost(XGDMatrixCreateFromDense(interface, "{\"nthread\": 16, \"missing\": NaN}", &Xy));
  safe_xgboost(XGDMatrixSetDenseInfo(Xy, "label", y, N_SAMPLES, 1));

  BoosterHandle booster;
  DMatrixHandle cache[] = {Xy};
  safe_xgboost(XGBoosterCreate(cache, 1, &booster));
  for (int i = 0; i < 10; ++i) safe_xgboost(XGBoosterUpdateOneIter(booster, i, Xy));
  safe_xgboost(XGBoosterSaveModel(booster, "inference_model.json"));
  safe_xgboost(XGBoosterFree(booster));

  safe_xgboost(XGBoosterCreate(NULL, 0, &booster));
  safe_xgboost(XGBoosterLoadModel(booster, "inference_model.json"));

  const bst_ulong* shape = NULL;
  bst_ulong dim = 0;
  const float* result = NULL;
  static float from_dmatrix[N_SAMPLES];
  safe_xgboost(XGBoosterPredictFromDMatrix(
      booster, Xy,
      "{\"training\": false, \"type\": 0, \"iteration_begin\": 0, \"iteration_end\": 0, "
      "\"strict_shape\": true}",
      &shape, &dim, &result));
  if (!CheckShape(dim, shape, "XGBoosterPredictFromDMatrix")) return 1;
  memcpy(from_dmatrix, result, sizeof(from_dmatrix));

  safe_xgboost(XGBoosterPredictFromDense(
      booster, interface,
      "{\"type\": 0, \"iteration_begin\": 0, \"iteration_end\": 0, \"strict_shape\": true, "
      "\"cache_id\": 0, \"missing\": NaN}",
      NULL, &shape, &dim, &result));
  if (!CheckShape(dim, shape, "XGBoosterPredictFromDense")) return 1;

  double error = 0;
  for (int i = 0; i < N_SAMPLES; ++i) {
    if (result[i] != from_dmatrix[i]) {
      fprintf(stderr, "row %d: inplace %.9g, DMatrix %.9g\n", i, result[i], from_dmatrix[i]);
      return 1;
    }
    error += (result[i] - y[i]) * (result[i] - y[i]);
  }
  printf("inference: training RMSE^2 %.5f over %d rows\n", error / N_SAMPLES, N_SAMPLES);
  if (error / N_SAMPLES > 0.05) return 1;  /* y is 2 x0 + noise: ten rounds must fit it */

  safe_xgboost(XGBoosterFree(booster));
  safe_xgboost(XGDMatrixFree(Xy));
  printf("inference: ok\n");
  return 0;
}
