/* tracker_driver <workers> <worker program>: starts a tracker in this process with the C API
 * (XGTrackerCreate / WorkerArgs / Run / WaitFor / Free), runs <workers> worker processes with
 * the worker arguments and task ids 0..n-1, and fails unless the job ends well and every
 * worker exits 0. The workers' prints come back through the log callback and are counted. */
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include <treering/c_api.h>

extern char** environ;

static int prints = 0;
static void OnLog(const char* line) {
  if (strstr(line, " done") != NULL) ++prints;
  fprintf(stderr, "driver log: %s\n", line);
}

#define CHECK_CALL(call)                                                   \
  do {                                                                     \
    if ((call) != 0) {                                                     \
      fprintf(stderr, "driver: %s failed: %s\n", #call, XGBGetLastError()); \
      return 1;                                                            \
    }                                                                      \
  } while (0)

int main(int argc, char** argv) {
  if (argc != 3) {
    fprintf(stderr, "usage: tracker_driver <workers> <worker program>\n");
    return 2;
  }
  const int n = atoi(argv[1]);
  if (n < 1 || n > 64) return 2;
  CHECK_CALL(XGBRegisterLogCallback(OnLog));
  char config[128];
  snprintf(config, sizeof(config), "{\"n_workers\": %d, \"host\": \"127.0.0.1\", \"timeout\": 60}",
           n);
  TrackerHandle tracker = NULL;
  CHECK_CALL(XGTrackerCreate(config, &tracker));
  const char* args = NULL;
  CHECK_CALL(XGTrackerWorkerArgs(tracker, &args));
  fprintf(stderr, "driver: worker args %s\n", args);
  CHECK_CALL(XGTrackerRun(tracker, "{}"));

  pid_t pids[64];
  for (int i = 0; i < n; ++i) {
    char task[16];
    snprintf(task, sizeof(task), "%d", i);
    char* child_argv[] = {argv[2], (char*)args, task, NULL};
    if (posix_spawn(&pids[i], argv[2], NULL, NULL, child_argv, environ) != 0) {
      perror("driver: posix_spawn");
      return 1;
    }
  }
  int failed = 0;
  for (int i = 0; i < n; ++i) {
    int status = 0;
    waitpid(pids[i], &status, 0);
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
      fprintf(stderr, "driver: worker %d ended with status %d\n", i, status);
      failed = 1;
    }
  }
  CHECK_CALL(XGTrackerWaitFor(tracker, "{\"timeout\": 30}"));
  CHECK_CALL(XGTrackerFree(tracker));
  if (prints != n) {
    fprintf(stderr, "driver: %d of %d workers' prints arrived\n", prints, n);
    failed = 1;
  }
  if (!failed) printf("driver: %d workers: every collective result right\n", n);
  return failed;
}
