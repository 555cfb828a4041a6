/* One worker of a training job written against the C API only, to compare with the CLI:
 *   distributed_train_worker <task id> <train.libsvm> <eval.libsvm> <model.json> <rounds>
 *                            [key=value ...]
 * The worker arguments (XGTrackerWorkerArgs' JSON) come from the environment variable
 * TREERING_CAPI_WORKER_ARGS, not argv: they carry the job token, which other local users could
 * read in /proc/PID/cmdline. Without the variable the worker trains alone (no communicator).
 * Each rank loads its own part of both files (XGDMatrixCreateFromFile shards in a distributed
 * job), trains <rounds> rounds with the given parameters, rank 0 prints each round's metric line
 * on stdout and saves the model. Exit 0 on success, 1 on a failed call (the reason on stderr). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <treering/c_api.h>

#define CHECK_CALL(call)                                                          \
  do {                                                                            \
    if ((call) != 0) {                                                            \
      fprintf(stderr, "train worker: %s failed: %s\n", #call, XGBGetLastError()); \
      exit(1);                                                                    \
    }                                                                             \
  } while (0)

/* The tracker's arguments plus this worker's task id (ranks follow task ids, so rank i reads
 * part i, as the CLI's workers under treering-submit do). */
static void JoinJob(const char* args, const char* task) {
  char config[4096];
  const size_t n = strlen(args);
  if (n < 2 || n + 64 > sizeof(config) || args[n - 1] != '}') {
    fprintf(stderr, "train worker: bad worker args '%s'\n", args);
    exit(2);
  }
  memcpy(config, args, n - 1);
  snprintf(config + n - 1, sizeof(config) - (n - 1), ", \"dmlc_task_id\": \"%s\"}", task);
  CHECK_CALL(XGCommunicatorInit(config));
}

int main(int argc, char** argv) {
  if (argc < 6) {
    fprintf(stderr,
            "usage: distributed_train_worker <task id> <train> <eval> <model.json> <rounds> "
            "[key=value ...]\n");
    return 2;
  }
  const char* args = getenv("TREERING_CAPI_WORKER_ARGS");
  if (args != NULL) JoinJob(args, argv[1]);
  const int rounds = atoi(argv[5]);

  DMatrixHandle train = NULL;
  DMatrixHandle eval = NULL;
  CHECK_CALL(XGDMatrixCreateFromFile(argv[2], 1, &train));
  CHECK_CALL(XGDMatrixCreateFromFile(argv[3], 1, &eval));
  BoosterHandle booster = NULL;
  DMatrixHandle cache[2] = {train, eval};
  CHECK_CALL(XGBoosterCreate(cache, 2, &booster));
  for (int i = 6; i < argc; ++i) {
    char key[128];
    const char* eq = strchr(argv[i], '=');
    if (eq == NULL || (size_t)(eq - argv[i]) >= sizeof(key)) {
      fprintf(stderr, "train worker: bad parameter '%s' (want key=value)\n", argv[i]);
      return 2;
    }
    memcpy(key, argv[i], (size_t)(eq - argv[i]));
    key[eq - argv[i]] = '\0';
    CHECK_CALL(XGBoosterSetParam(booster, key, eq + 1));
  }

  /* The CLI's eval set is named by `eval[test]=`; the driver gives it that name too. */
  DMatrixHandle evals[1] = {eval};
  const char* names[1] = {"test"};
  const int rank = XGCommunicatorGetRank();
  for (int round = 0; round < rounds; ++round) {
    CHECK_CALL(XGBoosterUpdateOneIter(booster, round, train));
    const char* line = NULL;
    CHECK_CALL(XGBoosterEvalOneIter(booster, round, evals, names, 1, &line));
    if (rank == 0) printf("%s\n", line);
  }
  if (rank == 0) CHECK_CALL(XGBoosterSaveModel(booster, argv[4]));
  fflush(stdout);

  CHECK_CALL(XGBoosterFree(booster));
  CHECK_CALL(XGDMatrixFree(eval));
  CHECK_CALL(XGDMatrixFree(train));
  if (args != NULL) CHECK_CALL(XGCommunicatorFinalize());
  return 0;
}
