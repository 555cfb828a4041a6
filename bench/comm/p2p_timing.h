// The ping-pong and rooted-collective benchmarks shared by treering (rabit_p2p_bench) and Open
// MPI (mpi_p2p_bench), timed by allreduce_timing.h's MeasureEach on both sides.
//   pingpong  rank 0 sends `bytes` to rank 1 and waits for them back; reported time is half the
//             round trip (one-way latency; GB/s = bytes / one-way time). Other ranks idle.
//             P2P_PAGE_OFFSET=N puts the buffer N bytes past a page boundary (unset: wherever
//             malloc puts it, a fresh mmap at page offset 16 or the heap), since the kernel's
//             copies once ran at half speed for some offsets (docs/collectives.md).
//   reduce    float sum of `bytes` to root 0
//   gather    root 0 receives `bytes` in all, bytes / world from each rank
//   scatter   root 0 sends `bytes` in all, bytes / world to each rank
// Comm provides, besides MeasureEach's needs: int world(); Send/Recv(float*, n, peer);
// ReduceSum(float*, n, root); Gather / Scatter(const float* send, n, float* recv, root).
#pragma once

#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>

#include "allreduce_timing.h"

namespace treering::bench {

// `floats` floats, at page offset P2P_PAGE_OFFSET when it is set (touched, as a vector is).
struct PlacedBuffer {
  explicit PlacedBuffer(std::size_t floats) : n(floats) {
    const char* env = std::getenv("P2P_PAGE_OFFSET");
    if (env == nullptr || *env == '\0') {
      vec.assign(n, 0.0f);
      data = vec.data();
      return;
    }
    const std::size_t offset = std::strtoull(env, nullptr, 10) % 4096;
    const std::size_t bytes = (n * sizeof(float) + offset + 4095) / 4096 * 4096;
    raw.reset(static_cast<char*>(std::aligned_alloc(4096, bytes)));
    std::memset(raw.get(), 0, bytes);
    data = reinterpret_cast<float*>(raw.get() + offset);
  }
  struct Free {
    void operator()(char* p) const { std::free(p); }
  };
  std::size_t n;
  float* data = nullptr;
  std::vector<float> vec;
  std::unique_ptr<char, Free> raw;
};

template <typename Comm>
struct PingPong {
  Comm* comm;
  std::shared_ptr<PlacedBuffer> buf;
  void Reset() {}
  void operator()() {
    if (comm->rank() == 0) {
      comm->Send(buf->data, buf->n, 1);
      comm->Recv(buf->data, buf->n, 1);
    } else if (comm->rank() == 1) {
      comm->Recv(buf->data, buf->n, 0);
      comm->Send(buf->data, buf->n, 0);
    }
  }
};

template <typename Comm>
struct Rooted {
  Comm* comm;
  std::string what;
  std::size_t part;  // floats per rank
  std::vector<float> send, recv;
  void Reset() { std::fill(send.begin(), send.end(), 1.0f); }
  void operator()() {
    if (what == "reduce")
      comm->ReduceSum(send.data(), send.size(), 0);
    else if (what == "gather")
      comm->Gather(send.data(), part, recv.data(), 0);
    else
      comm->Scatter(send.data(), part, recv.data(), 0);
  }
};

// Runs benchmark `what` (see above) for every size; false for an unknown name.
template <typename Comm>
bool RunP2pBenchmark(Comm& comm, const std::string& what, const std::vector<std::size_t>& sizes,
                     const std::string& who) {
  const std::string label = who + " " + what + " np=" + std::to_string(comm.world());
  const auto floats = [](std::size_t bytes) {
    return std::max<std::size_t>(1, bytes / sizeof(float));
  };
  if (what == "pingpong") {
    MeasureEach(
        comm, label.c_str(), sizes,
        [&](std::size_t bytes) {
          return PingPong<Comm>{&comm, std::make_shared<PlacedBuffer>(floats(bytes))};
        },
        2.0);
    return true;
  }
  if (what != "reduce" && what != "gather" && what != "scatter") return false;
  MeasureEach(comm, label.c_str(), sizes, [&](std::size_t bytes) {
    const std::size_t world = static_cast<std::size_t>(comm.world());
    const std::size_t part = std::max<std::size_t>(1, floats(bytes) / world);
    Rooted<Comm> op{&comm, what, part, {}, {}};
    if (what == "reduce") {
      op.send.resize(floats(bytes));
    } else if (what == "gather") {
      op.send.resize(part);
      op.recv.resize(part * world);
    } else {
      op.send.resize(part * world);
      op.recv.resize(part);
    }
    return op;
  });
  return true;
}

}  // namespace treering::bench
