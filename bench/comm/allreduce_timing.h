// The measuring method shared by the treering and Open MPI allreduce benchmarks, so both sides
// are timed the same way: per message size, 3 warm-up calls, then timed calls for >= 0.3 s (at
// least 5); each call follows a barrier and is timed alone; a call's time is the max over
// ranks; the median call time is reported with algbw = bytes / median (GB/s = 1e9 B/s).
#pragma once

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

namespace treering::bench {

inline double Now() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

inline std::vector<std::size_t> SizesFromArgs(int argc, char** argv) {
  std::vector<std::size_t> sizes;
  for (int i = 1; i < argc; ++i) {
    const std::size_t n = std::strtoull(argv[i], nullptr, 10);
    if (n > 0) sizes.push_back(n);
  }
  if (sizes.empty()) {
    sizes = {4, 64, 1 << 10, 16 << 10, 64 << 10, 256 << 10, 1 << 20, 4 << 20, 16 << 20, 64 << 20};
  }
  return sizes;
}

// Comm provides: int rank(); void Barrier(); void AllreduceSum(float*, size_t);
//                void MaxOverRanks(double*, size_t).
template <typename Comm>
double TimedCall(Comm& comm, std::vector<float>& buf) {
  comm.Barrier();
  const double t0 = Now();
  comm.AllreduceSum(buf.data(), buf.size());
  return Now() - t0;
}

template <typename Comm>
void MeasureAll(Comm& comm, const char* label, const std::vector<std::size_t>& sizes) {
  if (comm.rank() == 0) std::printf("# %s\n# bytes iters median_us algbw_GBps\n", label);
  for (std::size_t bytes : sizes) {
    std::vector<float> buf(std::max<std::size_t>(1, bytes / sizeof(float)), 1.0f);
    double warm = 0;
    for (int i = 0; i < 3; ++i) warm = TimedCall(comm, buf);
    comm.MaxOverRanks(&warm, 1);
    const int iters = std::clamp(static_cast<int>(std::ceil(0.3 / std::max(warm, 1e-7))), 5, 20000);
    std::vector<double> t(iters);
    for (int i = 0; i < iters; ++i) {
      std::fill(buf.begin(), buf.end(), 1.0f);  // keep values finite
      t[i] = TimedCall(comm, buf);
    }
    comm.MaxOverRanks(t.data(), t.size());
    if (comm.rank() == 0) {
      std::nth_element(t.begin(), t.begin() + iters / 2, t.end());
      const double median = t[iters / 2];
      std::printf("%zu %d %.2f %.4f\n", bytes, iters, median * 1e6, bytes / median / 1e9);
      std::fflush(stdout);
    }
  }
}

}  // namespace treering::bench
