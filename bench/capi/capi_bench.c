/* capi_bench: one program, built against treering's c_api.h and linked twice (libtreering.so,
 * Debian's libxgboost.so.0: the same ABI), timing what serving and training code does through
 * the C API. Prints "name value" lines; bench/capi/predict_bench.sh runs it and makes the table.
 *
 *   capi_bench predict MODEL DATA WARM REPEATS  bulk XGBoosterPredictFromDMatrix (median s)
 *   capi_bench latency MODEL DATA CALLS     single-row XGBoosterPredictFromDense (p50, p99 us)
 *   capi_bench train TRAIN TEST ROUNDS OUT  higgs1m.conf's training, eval each round, save OUT
 * DATA, TRAIN, TEST: LibSVM files (given to XGDMatrixCreateFromFile with ?format=libsvm). */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "treering/c_api.h"

#define CHECK(call)                                                                     \
  do {                                                                                  \
    if ((call) != 0) {                                                                  \
      fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call, XGBGetLastError()); \
      exit(1);                                                                          \
    }                                                                                   \
  } while (0)

static double Now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int CompareDoubles(const void* a, const void* b) {
  const double x = *(const double*)a, y = *(const double*)b;
  return (x > y) - (x < y);
}

static DMatrixHandle LoadLibsvm(const char* path) {
  char uri[4096];
  DMatrixHandle dm;
  snprintf(uri, sizeof uri, "%s?format=libsvm", path);
  CHECK(XGDMatrixCreateFromFile(uri, 1, &dm));
  return dm;
}

static BoosterHandle LoadModel(const char* path) {
  BoosterHandle booster;
  CHECK(XGBoosterCreate(NULL, 0, &booster));
  CHECK(XGBoosterLoadModel(booster, path));
  CHECK(XGBoosterSetParam(booster, "nthread", "2"));
  return booster;
}

/* The first `rows` rows of a LibSVM file as a dense row-major matrix (NaN = absent). */
static float* ReadDenseRows(const char* path, int rows, int cols) {
  FILE* f = fopen(path, "r");
  char line[1 << 16];
  float* data = malloc(sizeof(float) * (size_t)rows * (size_t)cols);
  int r = 0;
  if (f == NULL) {
    perror(path);
    exit(1);
  }
  for (size_t i = 0; i < (size_t)rows * (size_t)cols; ++i) data[i] = NAN;
  while (r < rows && fgets(line, sizeof line, f) != NULL) {
    char* p = strchr(line, ' ');
    while (p != NULL && *p != '\0' && *p != '\n') {
      char* end;
      const long index = strtol(p + 1, &end, 10);
      if (*end != ':') break;
      const float value = strtof(end + 1, &p);
      if (index >= 0 && index < cols) data[(size_t)r * (size_t)cols + (size_t)index] = value;
    }
    ++r;
  }
  fclose(f);
  if (r < rows) {
    fprintf(stderr, "%s: only %d rows\n", path, r);
    exit(1);
  }
  return data;
}

/* XGBoost keeps each matrix's predictions in a cache of its learner, so a second predict on the
 * same matrix returns the cached values: every repeat takes a fresh booster, configured by a
 * prediction on another matrix (`warm`) first, and times the first prediction of DATA. */
static int Predict(const char* model, const char* data, const char* warm, int repeats) {
  DMatrixHandle dm = LoadLibsvm(data);
  DMatrixHandle warm_dm = LoadLibsvm(warm);
  const char* config =
      "{\"type\": 0, \"training\": false, \"iteration_begin\": 0, \"iteration_end\": 0, "
      "\"strict_shape\": false}";
  double* seconds = malloc(sizeof(double) * (size_t)repeats);
  double checksum = 0;
  bst_ulong rows = 0;
  CHECK(XGDMatrixNumRow(dm, &rows));
  for (int i = 0; i < repeats; ++i) {
    BoosterHandle booster = LoadModel(model);
    const bst_ulong* shape;
    bst_ulong dim;
    const float* result;
    CHECK(XGBoosterPredictFromDMatrix(booster, warm_dm, config, &shape, &dim, &result));
    const double start = Now();
    CHECK(XGBoosterPredictFromDMatrix(booster, dm, config, &shape, &dim, &result));
    seconds[i] = Now() - start;
    checksum = 0;
    for (bst_ulong r = 0; r < rows; ++r) checksum += result[r];
    XGBoosterFree(booster);
  }
  qsort(seconds, (size_t)repeats, sizeof(double), CompareDoubles);
  printf("predict_rows %llu\npredict_s %.4f\nchecksum %.6f\n", (unsigned long long)rows,
         seconds[repeats / 2], checksum);
  XGDMatrixFree(dm);
  XGDMatrixFree(warm_dm);
  free(seconds);
  return 0;
}

static int Latency(const char* model, const char* data, int calls) {
  enum { kCols = 28, kRows = 1000 };
  BoosterHandle booster = LoadModel(model);
  float* rows = ReadDenseRows(data, kRows, kCols);
  const char* config =
      "{\"type\": 0, \"training\": false, \"iteration_begin\": 0, \"iteration_end\": 0, "
      "\"strict_shape\": false, \"missing\": NaN, \"cache_id\": 0}";
  char(*interfaces)[256] = malloc(sizeof(*interfaces) * kRows);
  double* us = malloc(sizeof(double) * (size_t)calls);
  double checksum = 0;
  for (int r = 0; r < kRows; ++r) {
    snprintf(interfaces[r], sizeof interfaces[r],
             "{\"data\": [%llu, true], \"shape\": [1, %d], \"strides\": null, "
             "\"typestr\": \"<f4\", \"version\": 3}",
             (unsigned long long)(uintptr_t)(rows + (size_t)r * kCols), kCols);
  }
  for (int i = -1000; i < calls; ++i) { /* 1000 warm-up calls */
    const bst_ulong* shape;
    bst_ulong dim;
    const float* result;
    const int r = (i + 1000) % kRows;
    const double start = Now();
    CHECK(XGBoosterPredictFromDense(booster, interfaces[r], config, NULL, &shape, &dim, &result));
    const double elapsed = Now() - start;
    if (i >= 0) {
      us[i] = 1e6 * elapsed;
      checksum += result[0];
    }
  }
  qsort(us, (size_t)calls, sizeof(double), CompareDoubles);
  printf("latency_calls %d\nlatency_p50_us %.2f\nlatency_p99_us %.2f\nchecksum %.6f\n", calls,
         us[calls / 2], us[(size_t)(0.99 * calls)], checksum);
  XGBoosterFree(booster);
  free(rows);
  free(interfaces);
  free(us);
  return 0;
}

/* ../shared/bench/xgb/higgs1m.conf through the C API: the same params, eval on test. */
static int Train(const char* train, const char* test, int rounds, const char* out) {
  static const char* const kParams[][2] = {
      {"booster", "gbtree"},     {"objective", "binary:logistic"},
      {"tree_method", "hist"},   {"max_bin", "256"},
      {"max_depth", "8"},        {"eta", "0.1"},
      {"nthread", "2"},          {"eval_metric", "auc"},
      {"eval_metric", "logloss"}};
  const double start = Now();
  DMatrixHandle sets[2] = {LoadLibsvm(train), LoadLibsvm(test)};
  const char* names[2] = {"train", "test"};
  BoosterHandle booster;
  const char* line = "";
  const double loaded = Now();
  CHECK(XGBoosterCreate(sets, 2, &booster));
  for (size_t i = 0; i < sizeof kParams / sizeof kParams[0]; ++i) {
    CHECK(XGBoosterSetParam(booster, kParams[i][0], kParams[i][1]));
  }
  for (int i = 0; i < rounds; ++i) {
    CHECK(XGBoosterUpdateOneIter(booster, i, sets[0]));
    CHECK(XGBoosterEvalOneIter(booster, i, sets + 1, names + 1, 1, &line));
  }
  CHECK(XGBoosterSaveModel(booster, out));
  printf("train_s %.3f\nload_s %.3f\nlast_eval %s\n", Now() - start, loaded - start, line);
  XGBoosterFree(booster);
  XGDMatrixFree(sets[0]);
  XGDMatrixFree(sets[1]);
  return 0;
}

int main(int argc, char** argv) {
  if (argc == 6 && strcmp(argv[1], "predict") == 0) {
    return Predict(argv[2], argv[3], argv[4], atoi(argv[5]));
  }
  if (argc == 5 && strcmp(argv[1], "latency") == 0) return Latency(argv[2], argv[3], atoi(argv[4]));
  if (argc == 6 && strcmp(argv[1], "train") == 0) {
    return Train(argv[2], argv[3], atoi(argv[4]), argv[5]);
  }
  fprintf(stderr,
          "usage: capi_bench predict MODEL DATA WARM REPEATS | latency MODEL DATA CALLS |"
          " train TRAIN TEST ROUNDS OUT\n");
  return 2;
}
