// Synchronous SGD by hand, the classic second program: each worker computes the gradient of a
// least-squares loss on its own shard; rank 0 receives every gradient (Recv), averages them,
// updates the weights and sends them back (Send). The same steps are then run with one
// Allreduce per step, and the two weight vectors are compared: they must agree to rounding
// (the two sums add the same numbers in a different order).
//   treering-submit --cluster local --num-workers 4 -- build/bin/sync_sgd [steps]
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <vector>

#include "rabit/rabit.h"

namespace {

constexpr int kFeatures = 16;
constexpr int kRowsPerRank = 256;
constexpr double kLearningRate = 0.1;

// This rank's shard of y = x . w_true + noise, seeded by rank.
struct Shard {
  std::vector<double> x;  // row-major kRowsPerRank x kFeatures
  std::vector<double> y;
};

Shard MakeShard(int rank) {
  std::mt19937_64 gen(1234 + rank);
  std::normal_distribution<double> normal;
  Shard s{std::vector<double>(kRowsPerRank * kFeatures), std::vector<double>(kRowsPerRank)};
  for (int i = 0; i < kRowsPerRank; ++i) {
    double dot = 0;
    for (int j = 0; j < kFeatures; ++j) {
      s.x[i * kFeatures + j] = normal(gen);
      dot += s.x[i * kFeatures + j] * (j + 1) * 0.1;
    }
    s.y[i] = dot + 0.01 * normal(gen);
  }
  return s;
}

// Mean gradient of 0.5 (x.w - y)^2 over the shard.
std::vector<double> Gradient(const Shard& s, const std::vector<double>& w) {
  std::vector<double> g(kFeatures, 0.0);
  for (int i = 0; i < kRowsPerRank; ++i) {
    double err = -s.y[i];
    for (int j = 0; j < kFeatures; ++j) err += s.x[i * kFeatures + j] * w[j];
    for (int j = 0; j < kFeatures; ++j) g[j] += err * s.x[i * kFeatures + j] / kRowsPerRank;
  }
  return g;
}

// Rank 0 gathers the gradients by Recv (in rank order), averages, steps, sends weights back.
void StepByMessages(const Shard& shard, std::vector<double>& w) {
  const int rank = rabit::GetRank(), world = rabit::GetWorldSize();
  std::vector<double> g = Gradient(shard, w);
  if (rank != 0) {
    rabit::Send(g.data(), g.size(), 0, 1);
    rabit::Recv(w.data(), w.size(), 0, 2);
    return;
  }
  std::vector<double> sum = g, other(kFeatures);
  for (int from = 1; from < world; ++from) {
    rabit::Recv(other.data(), other.size(), from, 1);
    for (int j = 0; j < kFeatures; ++j) sum[j] += other[j];
  }
  for (int j = 0; j < kFeatures; ++j) w[j] -= kLearningRate * sum[j] / world;
  for (int to = 1; to < world; ++to) rabit::Send(w.data(), w.size(), to, 2);
}

void StepByAllreduce(const Shard& shard, std::vector<double>& w) {
  std::vector<double> g = Gradient(shard, w);
  rabit::Allreduce<rabit::op::Sum>(g.data(), g.size());
  for (int j = 0; j < kFeatures; ++j) w[j] -= kLearningRate * g[j] / rabit::GetWorldSize();
}

}  // namespace

int main(int argc, char* argv[]) {
  try {
    rabit::Init(argc, argv);
    const int steps = argc > 1 && std::strchr(argv[1], '=') == nullptr ? std::atoi(argv[1]) : 50;
    const Shard shard = MakeShard(rabit::GetRank());
    std::vector<double> by_messages(kFeatures, 0.0), by_allreduce(kFeatures, 0.0);
    for (int t = 0; t < steps; ++t) StepByMessages(shard, by_messages);
    for (int t = 0; t < steps; ++t) StepByAllreduce(shard, by_allreduce);
    double max_diff = 0, max_w = 0;
    for (int j = 0; j < kFeatures; ++j) {
      max_diff = std::max(max_diff, std::fabs(by_messages[j] - by_allreduce[j]));
      max_w = std::max(max_w, std::fabs(by_allreduce[j]));
    }
    // Every rank checks (rank 0 sent its weights to all); rank 0 reports.
    const bool agree = max_diff <= 1e-12 * std::max(1.0, max_w);
    if (rabit::GetRank() == 0) {
      std::printf(
          "sync_sgd: %d workers, %d steps: w[0]=%.6f w[%d]=%.6f, max |p2p - allreduce| = %.3g "
          "(%s)\n",
          rabit::GetWorldSize(), steps, by_messages[0], kFeatures - 1, by_messages[kFeatures - 1],
          max_diff, agree ? "agree" : "DIFFER");
    }
    if (!agree) {
      std::fprintf(stderr, "sync_sgd: rank %d: the p2p weights differ from the allreduce ones\n",
                   rabit::GetRank());
      return 1;
    }
    rabit::Finalize();
  } catch (const std::exception& e) {
    std::fprintf(stderr, "sync_sgd: %s\n", e.what());
    return 1;
  }
  return 0;
}
