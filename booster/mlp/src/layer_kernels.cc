#include "layer_kernels.h"

#include <cblas.h>

#include <algorithm>
#include <cmath>

#include "base/parallel_for.h"

namespace treering::booster::mlp::kernels {
namespace {

// The one rule (treering::ThreadsFor, base/context.h) with the MLP's grains. A product's rows
// are split by thread and each block is one sgemm call, whose float sums depend on the block:
// these grains give exactly the counts of the MLP's rule before it moved to base (at least 16
// rows of a product per thread; one 4096-value chunk of an activation per thread, at most), so
// trained weights stay byte-identical.
constexpr WorkGrain kProductGrain{0, 16};
constexpr WorkGrain kChunkGrain{0, 1};

int ThreadsFor(int rows, int nthread) {
  return treering::ThreadsFor(static_cast<std::uint64_t>(rows), nthread, kProductGrain);
}

constexpr std::size_t kActivationChunk = 4096;

template <typename Fn>
void ForChunks(std::size_t count, int nthread, Fn&& fn) {
  const std::size_t chunks = (count + kActivationChunk - 1) / kActivationChunk;
  const int threads = treering::ThreadsFor(chunks, nthread, kChunkGrain);
  ParallelFor(chunks, threads, [&](std::size_t c) {
    const std::size_t begin = c * kActivationChunk;
    fn(begin, std::min(count, begin + kActivationChunk));
  });
}

}  // namespace

void DenseForward(const float* a, const float* w, const float* bias, int rows, int k, int n,
                  int nthread, float* out) {
  ParallelForBlocks(rows, ThreadsFor(rows, nthread), [&](int, std::int64_t r0, std::int64_t r1) {
    for (std::int64_t r = r0; r < r1; ++r) std::copy(bias, bias + n, out + r * n);
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, static_cast<int>(r1 - r0), n, k, 1.0f,
                a + r0 * k, k, w, n, 1.0f, out + r0 * n, n);
  });
}

void WeightGradient(const float* a, const float* g, int rows, int k, int n, int nthread,
                    float* dw) {
  ParallelForBlocks(k, ThreadsFor(k, nthread), [&](int, std::int64_t k0, std::int64_t k1) {
    cblas_sgemm(CblasRowMajor, CblasTrans, CblasNoTrans, static_cast<int>(k1 - k0), n, rows, 1.0f,
                a + k0, k, g, n, 0.0f, dw + k0 * n, n);
  });
}

void InputGradient(const float* g, const float* w, int rows, int k, int n, int nthread, float* da) {
  ParallelForBlocks(rows, ThreadsFor(rows, nthread), [&](int, std::int64_t r0, std::int64_t r1) {
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasTrans, static_cast<int>(r1 - r0), k, n, 1.0f,
                g + r0 * n, n, w, n, 0.0f, da + r0 * k, k);
  });
}

void ColumnSums(const float* g, int rows, int n, float* sums) {
  std::fill(sums, sums + n, 0.0f);
  for (int r = 0; r < rows; ++r) {
    const float* row = g + static_cast<std::size_t>(r) * n;
    for (int c = 0; c < n; ++c) sums[c] += row[c];
  }
}

void Activate(Activation act, std::size_t count, int nthread, float* values) {
  ForChunks(count, nthread, [&](std::size_t b, std::size_t e) {
    if (act == Activation::kRelu) {
      for (std::size_t i = b; i < e; ++i) values[i] = std::max(values[i], 0.0f);
    } else {
      for (std::size_t i = b; i < e; ++i) values[i] = std::tanh(values[i]);
    }
  });
}

void ActivationGradient(Activation act, const float* post, std::size_t count, int nthread,
                        float* g) {
  ForChunks(count, nthread, [&](std::size_t b, std::size_t e) {
    if (act == Activation::kRelu) {
      for (std::size_t i = b; i < e; ++i) g[i] = post[i] > 0.0f ? g[i] : 0.0f;
    } else {
      for (std::size_t i = b; i < e; ++i) g[i] *= 1.0f - post[i] * post[i];
    }
  });
}

void UseSingleThreadedBlas() { openblas_set_num_threads(1); }

}  // namespace treering::booster::mlp::kernels
