// OpenBLAS vs Eigen on the dense products of one MLP 784-256-128-10 training step at batch 64
// (forward Z = A W, weight gradient dW = A^T dZ, input gradient dA = dZ W^T), one thread.
// Prints the median time per step's worth of products for each library and their ratio; this
// is the measurement behind the GEMM choice in docs/mlp.md.
#include <cblas.h>

#include <Eigen/Core>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <random>
#include <vector>

namespace {

struct Shape {
  int in, out;
};

constexpr int kBatch = 64;
constexpr Shape kLayers[] = {{784, 256}, {256, 128}, {128, 10}};

using RowMatrix = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

std::vector<float> RandomFloats(std::size_t n, std::mt19937* rng) {
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  std::vector<float> v(n);
  for (float& x : v) x = u(*rng);
  return v;
}

struct LayerBuffers {
  std::vector<float> a, w, z, dz, dw, da;
};

std::vector<LayerBuffers> MakeBuffers() {
  std::mt19937 rng(7);
  std::vector<LayerBuffers> out;
  for (const Shape& s : kLayers) {
    out.push_back({RandomFloats(std::size_t{kBatch} * s.in, &rng),
                   RandomFloats(std::size_t(s.in) * s.out, &rng),
                   std::vector<float>(std::size_t{kBatch} * s.out),
                   RandomFloats(std::size_t{kBatch} * s.out, &rng),
                   std::vector<float>(std::size_t(s.in) * s.out),
                   std::vector<float>(std::size_t{kBatch} * s.in)});
  }
  return out;
}

void StepOpenBlas(std::vector<LayerBuffers>* bufs) {
  for (std::size_t l = 0; l < bufs->size(); ++l) {
    const Shape s = kLayers[l];
    LayerBuffers& b = (*bufs)[l];
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, kBatch, s.out, s.in, 1.0f, b.a.data(),
                s.in, b.w.data(), s.out, 0.0f, b.z.data(), s.out);
    cblas_sgemm(CblasRowMajor, CblasTrans, CblasNoTrans, s.in, s.out, kBatch, 1.0f, b.a.data(),
                s.in, b.dz.data(), s.out, 0.0f, b.dw.data(), s.out);
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasTrans, kBatch, s.in, s.out, 1.0f, b.dz.data(),
                s.out, b.w.data(), s.out, 0.0f, b.da.data(), s.in);
  }
}

void StepEigen(std::vector<LayerBuffers>* bufs) {
  for (std::size_t l = 0; l < bufs->size(); ++l) {
    const Shape s = kLayers[l];
    LayerBuffers& b = (*bufs)[l];
    Eigen::Map<const RowMatrix> a(b.a.data(), kBatch, s.in), w(b.w.data(), s.in, s.out),
        dz(b.dz.data(), kBatch, s.out);
    Eigen::Map<RowMatrix> z(b.z.data(), kBatch, s.out), dw(b.dw.data(), s.in, s.out),
        da(b.da.data(), kBatch, s.in);
    z.noalias() = a * w;
    dw.noalias() = a.transpose() * dz;
    da.noalias() = dz * w.transpose();
  }
}

template <typename Fn>
double MedianMicros(Fn&& step, std::vector<LayerBuffers>* bufs) {
  constexpr int kReps = 200, kTrials = 9;
  for (int i = 0; i < 50; ++i) step(bufs);  // warm-up: page faults, caches
  std::vector<double> trials;
  for (int t = 0; t < kTrials; ++t) {
    const auto start = std::chrono::steady_clock::now();
    for (int i = 0; i < kReps; ++i) step(bufs);
    const std::chrono::duration<double, std::micro> d = std::chrono::steady_clock::now() - start;
    trials.push_back(d.count() / kReps);
  }
  std::sort(trials.begin(), trials.end());
  return trials[kTrials / 2];
}

}  // namespace

int main() {
  openblas_set_num_threads(1);
  Eigen::setNbThreads(1);
  auto bufs = MakeBuffers();
  double blas = 0, eigen = 0;
  for (int round = 0; round < 3; ++round) {  // interleaved, so load changes hit both
    blas += MedianMicros(StepOpenBlas, &bufs);
    eigen += MedianMicros(StepEigen, &bufs);
  }
  blas /= 3;
  eigen /= 3;
  std::printf(
      "gemm step 784-256-128-10 batch %d, 1 thread: openblas %.1f us, eigen %.1f us, "
      "eigen/openblas %.2f\n",
      kBatch, blas, eigen, eigen / blas);
  return 0;
}
