// The measuring method shared by the treering and Open MPI benchmarks (allreduce, ping-pong,
// reduce / gather / scatter), so both sides
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

// Comm provides: int rank(); void Barrier(); void MaxOverRanks(double*, size_t).
// An op (made per size by make_op(bytes)) provides Reset() (untimed, before every call) and
// operator()() (the timed call). A call's time is divided by `per_call` (2 turns a ping-pong
// round trip into the one-way time reported).
template <typename Comm, typename Op>
double TimedCall(Comm& comm, Op& op) {
  op.Reset();
  comm.Barrier();
  const double t0 = Now();
  op();
  return Now() - t0;
}

template <typename Comm, typename MakeOp>
void MeasureEach(Comm& comm, const char* label, const std::vector<std::size_t>& sizes,
                 MakeOp make_op, double per_call = 1.0) {
  if (comm.rank() == 0) std::printf("# %s\n# bytes iters median_us algbw_GBps\n", label);
  for (std::size_t bytes : sizes) {
    auto op = make_op(bytes);
    double warm = 0;
    for (int i = 0; i < 3; ++i) warm = TimedCall(comm, op);
    comm.MaxOverRanks(&warm, 1);
    const int iters = std::clamp(static_cast<int>(std::ceil(0.3 / std::max(warm, 1e-7))), 5, 20000);
    std::vector<double> t(iters);
    for (int i = 0; i < iters; ++i) t[i] = TimedCall(comm, op) / per_call;
    comm.MaxOverRanks(t.data(), t.size());
    if (comm.rank() == 0) {
      std::nth_element(t.begin(), t.begin() + iters / 2, t.end());
      const double median = t[iters / 2];
      std::printf("%zu %d %.2f %.4f\n", bytes, iters, median * 1e6, bytes / median / 1e9);
      std::fflush(stdout);
    }
  }
}

// Allreduce (float sum, in place); Comm also provides AllreduceSum(float*, size_t).
template <typename Comm>
void MeasureAll(Comm& comm, const char* label, const std::vector<std::size_t>& sizes) {
  struct AllreduceOp {
    Comm* comm;
    std::vector<float> buf;
    void Reset() { std::fill(buf.begin(), buf.end(), 1.0f); }  // keep values finite
    void operator()() { comm->AllreduceSum(buf.data(), buf.size()); }
  };
  MeasureEach(comm, label, sizes, [&comm](std::size_t bytes) {
    return AllreduceOp{&comm, std::vector<float>(std::max<std::size_t>(1, bytes / sizeof(float)))};
  });
}

}  // namespace treering::bench
