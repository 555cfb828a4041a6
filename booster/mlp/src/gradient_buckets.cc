#include "booster/mlp/gradient_buckets.h"

#include <algorithm>

namespace treering::booster::mlp {

std::vector<BucketRange> PlanBuckets(std::size_t count, std::size_t first_bytes,
                                     std::size_t bucket_bytes) {
  std::vector<BucketRange> plan;
  std::size_t begin = 0;
  std::size_t size = std::max<std::size_t>(1, first_bytes / sizeof(float));
  while (begin < count) {
    const std::size_t end = std::min(count, begin + size);
    plan.push_back({begin, end});
    begin = end;
    size = std::max<std::size_t>(1, bucket_bytes / sizeof(float));
  }
  return plan;
}

void AllreduceBuckets(const std::vector<BucketRange>& plan, Collective* comm, float* flat) {
  if (comm->WorldSize() == 1) return;
  for (const BucketRange& b : plan) comm->SumFloats(flat + b.begin, b.end - b.begin);
}

}  // namespace treering::booster::mlp
