/* treering's equivalent of XGBoost 1.7.4's demo/c-api/basic/c-api-demo.c, written for this
 * test: the same steps (LibSVM files -> DMatrix, train with per-round evaluation, predict from
 * the DMatrix, from a dense row and from a CSR row) on a data set it writes itself, with
 * checks instead of prints: the model must learn the rule behind the labels, and one row must
 * predict the same from every input form. Built with `#include <xgboost/c_api.h>` through
 * treering's compat header. */
#include <math.h>
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

#define N_FEATURES 6

static unsigned long long state = 12345;
static float Uniform(void) { /* a fixed LCG: the same data on every platform */
  state = state * 6364136223846793005ULL + 1442695040888963407ULL;
  return (float)((state >> 40) & 0xFFFFFF) / (float)0x1000000;
}

/* Rows of N_FEATURES values in [0, 1), feature 3 missing in every 4th row; label 1 when
 * x0 + 0.5 x1 > 0.75. Values are written with %.6f and read back as the loader parses them. */
static void WriteLibsvm(const char* path, int rows) {
  FILE* f = fopen(path, "w");
  if (f == NULL) {
    perror(path);
    exit(1);
  }
  for (int r = 0; r < rows; ++r) {
    float x[N_FEATURES];
    for (int j = 0; j < N_FEATURES; ++j) x[j] = Uniform();
    fprintf(f, "%d", x[0] + 0.5f * x[1] > 0.75f ? 1 : 0);
    for (int j = 0; j < N_FEATURES; ++j) {
      if (j == 3 && r % 4 == 0) continue;
      fprintf(f, " %d:%.6f", j, x[j]);
    }
    fprintf(f, "\n");
  }
  fclose(f);
}

/* Row 0 of the test file, parsed back (dense with NaN for missing, and CSR). */
static void ReadFirstRow(const char* path, float dense[N_FEATURES], unsigned idx[N_FEATURES],
                         float val[N_FEATURES], size_t* nnz) {
  FILE* f = fopen(path, "r");
  char line[1024];
  if (f == NULL || fgets(line, sizeof(line), f) == NULL) exit(1);
  fclose(f);
  for (int j = 0; j < N_FEATURES; ++j) dense[j] = NAN;
  *nnz = 0;
  char* p = strchr(line, ' ');
  while (p != NULL && *p == ' ') {
    unsigned j = 0;
    float v = 0;
    if (sscanf(p, " %u:%f", &j, &v) != 2) break;
    dense[j] = v;
    idx[*nnz] = j;
    val[*nnz] = v;
    ++*nnz;
    p = strchr(p + 1, ' ');
  }
}

int main(void) {
  WriteLibsvm("basic.train.libsvm", 400);
  WriteLibsvm("basic.test.libsvm", 200);

  DMatrixHandle dtrain, dtest;
  safe_xgboost(XGDMatrixCreateFromFile("basic.train.libsvm?format=libsvm", 1, &dtrain));
  safe_xgboost(XGDMatrixCreateFromFile("basic.test.libsvm?format=libsvm", 1, &dtest));

  BoosterHandle booster;
  DMatrixHandle eval_dmats[2] = {dtrain, dtest};
  safe_xgboost(XGBoosterCreate(eval_dmats, 2, &booster));
  safe_xgboost(XGBoosterSetParam(booster, "tree_method", "hist"));
  safe_xgboost(XGBoosterSetParam(booster, "objective", "binary:logistic"));
  safe_xgboost(XGBoosterSetParam(booster, "min_child_weight", "1"));
  safe_xgboost(XGBoosterSetParam(booster, "gamma", "0.1"));
  safe_xgboost(XGBoosterSetParam(booster, "max_depth", "3"));
  safe_xgboost(XGBoosterSetParam(booster, "verbosity", "1"));

  const char* eval_names[2] = {"train", "test"};
  const char* eval_result = NULL;
  for (int i = 0; i < 10; ++i) {
    safe_xgboost(XGBoosterUpdateOneIter(booster, i, dtrain));
    safe_xgboost(XGBoosterEvalOneIter(booster, i, eval_dmats, eval_names, 2, &eval_result));
    printf("%s\n", eval_result);
  }
  char prefix[8];
  snprintf(prefix, sizeof(prefix), "[9]\t");
  if (strncmp(eval_result, prefix, strlen(prefix)) != 0 || strstr(eval_result, "test-") == NULL) {
    fprintf(stderr, "unexpected eval line '%s'\n", eval_result);
    return 1;
  }

  bst_ulong num_feature = 0;
  safe_xgboost(XGBoosterGetNumFeature(booster, &num_feature));
  if (num_feature != N_FEATURES) {
    fprintf(stderr, "num_feature %lu, expected %d\n", (unsigned long)num_feature, N_FEATURES);
    return 1;
  }

  const char config[] =
      "{\"training\": false, \"type\": 0, \"iteration_begin\": 0, \"iteration_end\": 0, "
      "\"strict_shape\": false}";
  const bst_ulong* out_shape = NULL;
  bst_ulong out_dim = 0;
  const float* out_result = NULL;
  safe_xgboost(XGBoosterPredictFromDMatrix(booster, dtest, config, &out_shape, &out_dim,
                                           &out_result));
  if (out_dim != 1 || out_shape[0] != 200) {
    fprintf(stderr, "prediction shape: dim %lu\n", (unsigned long)out_dim);
    return 1;
  }
  float first = out_result[0];
  float predictions[200];
  memcpy(predictions, out_result, sizeof(predictions));
  bst_ulong n_labels = 0;
  const float* labels = NULL;
  safe_xgboost(XGDMatrixGetFloatInfo(dtest, "label", &n_labels, &labels));
  int correct = 0;
  for (bst_ulong i = 0; i < n_labels; ++i) correct += (predictions[i] > 0.5f) == (labels[i] > 0.5f);
  printf("test accuracy %d / %lu\n", correct, (unsigned long)n_labels);
  if (n_labels != 200 || correct < 180) return 1;

  /* The same row as a dense matrix (XGDMatrixCreateFromMat) and as CSR (CreateFromCSREx). */
  float dense[N_FEATURES];
  unsigned idx[N_FEATURES];
  float val[N_FEATURES];
  size_t nnz = 0;
  ReadFirstRow("basic.test.libsvm", dense, idx, val, &nnz);
  DMatrixHandle dmat;
  safe_xgboost(XGDMatrixCreateFromMat(dense, 1, N_FEATURES, NAN, &dmat));
  safe_xgboost(XGBoosterPredictFromDMatrix(booster, dmat, config, &out_shape, &out_dim,
                                           &out_result));
  const float from_dense = out_result[0];
  safe_xgboost(XGDMatrixFree(dmat));
  const size_t indptr[2] = {0, nnz};
  safe_xgboost(XGDMatrixCreateFromCSREx(indptr, idx, val, 2, nnz, N_FEATURES, &dmat));
  safe_xgboost(XGBoosterPredictFromDMatrix(booster, dmat, config, &out_shape, &out_dim,
                                           &out_result));
  const float from_csr = out_result[0];
  safe_xgboost(XGDMatrixFree(dmat));
  printf("row 0: %.6f (file) %.6f (dense) %.6f (csr)\n", first, from_dense, from_csr);
  if (first != from_dense || first != from_csr) return 1;

  safe_xgboost(XGBoosterFree(booster));
  safe_xgboost(XGDMatrixFree(dtrain));
  safe_xgboost(XGDMatrixFree(dtest));
  printf("basic: ok\n");
  return 0;
}
