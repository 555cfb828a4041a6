// N ranks as threads of one process, each holding a rabit::Comm over its own engine (an
// implementation of rabit/engine.h): the learners' distributed paths run in a unit test
// without sockets or a tracker. Allreduce adds all ranks' buffers in
// rank order (every rank gets bit-identical results, and the same sums a rank-ordered engine
// gives); broadcast and allgather copy from the shared slots. Calls are separated by barriers.
#pragma once

#include <barrier>
#include <functional>
#include <string>
#include <vector>

#include "rabit/comm.h"

namespace treering::testing {

class ThreadWorld {
 public:
  explicit ThreadWorld(int world) : world_(world), slots_(world), barrier_(world) {}

  // Runs fn(rank, comm) on `world` threads and joins them; the first exception thrown by any
  // rank is rethrown here (the other ranks must not be left waiting in a barrier: a test that
  // throws on one rank only is a broken test, and Run aborts it with a clear message).
  void Run(const std::function<void(int, rabit::Comm*)>& fn);

  // What rank 0 printed through TrackerPrint, in order.
  const std::vector<std::string>& Printed() const { return printed_; }

 private:
  class Member;
  int world_;
  std::vector<void*> slots_;
  std::barrier<> barrier_;
  std::vector<std::string> printed_;
};

}  // namespace treering::testing
