// Gradient fusion (Horovod's fusion buffer, PyTorch DDP's buckets): the flat gradient vector is
// cut into fixed-size buckets, a small first one (the output layer's gradients, ready first in
// backward) and then bucket_bytes each, and every rank reduces them in the same fixed order.
#pragma once

#include <cstddef>
#include <vector>

#include "rabit/comm.h"

namespace treering::booster::mlp {

struct BucketRange {
  std::size_t begin = 0, end = 0;  // float offsets into the flat gradient
};

// Consecutive ranges covering [0, count): first_bytes, then bucket_bytes each (last shorter).
std::vector<BucketRange> PlanBuckets(std::size_t count, std::size_t first_bytes,
                                     std::size_t bucket_bytes);

// Sums each bucket across ranks, in plan order. When `seconds` is given (plan.size() entries),
// adds each bucket's wall time inside the collective to it.
void AllreduceBuckets(const std::vector<BucketRange>& plan, rabit::Comm* comm, float* flat,
                      std::vector<double>* seconds = nullptr);

}  // namespace treering::booster::mlp
