/* One worker of a collective job, written against the C API only:
 *   collective_worker '<worker args JSON from XGTrackerWorkerArgs>' <task id>
 * joins the job, checks allreduce (sum, max, min, bitwise or / and / xor), broadcast, rank and
 * world size against values computed from the rank, prints one line through the tracker and
 * leaves. Exit 0 when every result is right, 1 otherwise (the reason on stderr). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <treering/c_api.h>

static int failures = 0;

#define CHECK_CALL(call)                                                                  \
  do {                                                                                    \
    if ((call) != 0) {                                                                    \
      fprintf(stderr, "worker: %s failed: %s\n", #call, XGBGetLastError());              \
      exit(1);                                                                            \
    }                                                                                     \
  } while (0)

#define EXPECT(cond)                                                                      \
  do {                                                                                    \
    if (!(cond)) {                                                                        \
      fprintf(stderr, "worker rank %d: %s:%d: expected %s\n", XGCommunicatorGetRank(),    \
              __FILE__, __LINE__, #cond);                                                 \
      ++failures;                                                                         \
    }                                                                                     \
  } while (0)

/* XGBoost's collective::DataType and Operation numbers. */
enum { kInt8 = 0, kUInt8 = 1, kInt32 = 2, kUInt32 = 3, kInt64 = 4, kUInt64 = 5, kFloat = 6,
       kDouble = 7 };
enum { kMax = 0, kMin = 1, kSum = 2, kBitAnd = 3, kBitOr = 4, kBitXor = 5 };

int main(int argc, char** argv) {
  if (argc != 3) {
    fprintf(stderr, "usage: collective_worker '<worker args JSON>' <task id>\n");
    return 2;
  }
  /* The tracker's arguments plus this worker's task id (ranks follow task ids). */
  char config[4096];
  const size_t n = strlen(argv[1]);
  if (n < 2 || n + 64 > sizeof(config) || argv[1][n - 1] != '}') {
    fprintf(stderr, "worker: bad worker args '%s'\n", argv[1]);
    return 2;
  }
  memcpy(config, argv[1], n - 1);
  snprintf(config + n - 1, sizeof(config) - n, ", \"dmlc_task_id\": \"%s\"}", argv[2]);
  CHECK_CALL(XGCommunicatorInit(config));

  const int rank = XGCommunicatorGetRank();
  const int world = XGCommunicatorGetWorldSize();
  EXPECT(world >= 2);
  EXPECT(rank == atoi(argv[2])); /* numeric task ids: rank = task id */
  EXPECT(XGCommunicatorIsDistributed() == 1);

  int32_t sums[2] = {rank, 1};
  CHECK_CALL(XGCommunicatorAllreduce(sums, 2, kInt32, kSum));
  EXPECT(sums[0] == world * (world - 1) / 2);
  EXPECT(sums[1] == world);

  double dmax = 0.5 * rank;
  CHECK_CALL(XGCommunicatorAllreduce(&dmax, 1, kDouble, kMax));
  EXPECT(dmax == 0.5 * (world - 1));
  float fmin = 10.0f - rank;
  CHECK_CALL(XGCommunicatorAllreduce(&fmin, 1, kFloat, kMin));
  EXPECT(fmin == 10.0f - (float)(world - 1));
  int64_t big = ((int64_t)1 << 40) + rank;
  CHECK_CALL(XGCommunicatorAllreduce(&big, 1, kInt64, kSum));
  EXPECT(big == ((int64_t)world << 40) + world * (world - 1) / 2);

  uint8_t bits_or = (uint8_t)(1u << rank);
  CHECK_CALL(XGCommunicatorAllreduce(&bits_or, 1, kUInt8, kBitOr));
  EXPECT(bits_or == (uint8_t)((1u << world) - 1));
  uint32_t bits_and = 0xF0u | (1u << rank);
  CHECK_CALL(XGCommunicatorAllreduce(&bits_and, 1, kUInt32, kBitAnd));
  EXPECT(bits_and == 0xF0u);
  uint64_t bits_xor = (uint64_t)1 << (rank % 2);
  CHECK_CALL(XGCommunicatorAllreduce(&bits_xor, 1, kUInt64, kBitXor));
  EXPECT(bits_xor == (uint64_t)(((world + 1) / 2 % 2) | ((world / 2 % 2) << 1)));
  int8_t small = (int8_t)(-rank);
  CHECK_CALL(XGCommunicatorAllreduce(&small, 1, kInt8, kMin));
  EXPECT(small == (int8_t)(1 - world));

  char message[32] = {0};
  const int root = world - 1;
  if (rank == root) snprintf(message, sizeof(message), "hello from rank %d", root);
  CHECK_CALL(XGCommunicatorBroadcast(message, sizeof(message), root));
  char expected[32];
  snprintf(expected, sizeof(expected), "hello from rank %d", root);
  EXPECT(strcmp(message, expected) == 0);

  const char* name = NULL;
  CHECK_CALL(XGCommunicatorGetProcessorName(&name));
  EXPECT(name != NULL && name[0] != '\0');
  char line[64];
  snprintf(line, sizeof(line), "worker %d of %d done", rank, world);
  CHECK_CALL(XGCommunicatorPrint(line));
  CHECK_CALL(XGCommunicatorFinalize());
  return failures == 0 ? 0 : 1;
}
