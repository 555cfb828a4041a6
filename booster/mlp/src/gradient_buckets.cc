#include "booster/mlp/gradient_buckets.h"

#include <algorithm>
#include <chrono>

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

void AllreduceBuckets(const std::vector<BucketRange>& plan, rabit::Comm* comm, float* flat,
                      std::vector<double>* seconds) {
  if (comm->WorldSize() == 1) return;
  for (std::size_t i = 0; i < plan.size(); ++i) {
    const auto start = std::chrono::steady_clock::now();
    comm->Allreduce<rabit::op::Sum>(flat + plan[i].begin, plan[i].end - plan[i].begin);
    if (seconds != nullptr) {
      (*seconds)[i] +=
          std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    }
  }
}

}  // namespace treering::booster::mlp
