// LoopbackWorld: N ranks as threads in one process, each with its own Communicator over real
// loopback TCP links (no tracker). RunOnAll runs fn(rank, comm) on every rank concurrently and
// returns each rank's Status.
#pragma once

#include <sys/uio.h>
#include <unistd.h>

#include <cstdint>
#include <functional>
#include <memory>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "bootstrap/loopback_links.h"
#include "collective/communicator.h"

namespace rabit::testing {

using collective::CollectiveOptions;
using collective::Communicator;

class LoopbackWorld {
 public:
  LoopbackWorld(int world, CollectiveOptions options)
      : LoopbackWorld(world, [options](int) { return options; }) {}
  // Each rank's options from options_of(rank) (tests of ranks configured differently).
  LoopbackWorld(int world, const std::function<CollectiveOptions(int)>& options_of) {
    auto links = bootstrap::BuildLoopbackLinks(world);
    if (!links.ok()) throw std::runtime_error(links.status().message());
    comms_.resize(world);
    std::vector<std::thread> threads;
    std::vector<treering::Status> created(world);
    for (int r = 0; r < world; ++r) {
      threads.emplace_back([&, r] {
        CollectiveOptions options = options_of(r);
        options.allreduce.recursive_links = true;  // BuildLoopbackLinks makes the partner links
        auto comm = Communicator::Create(std::move(links.value()[r]), options);
        if (comm.ok())
          comms_[r] = std::move(comm.value());
        else
          created[r] = comm.status();
      });
    }
    for (auto& t : threads) t.join();
    for (const auto& s : created) {
      if (!s.ok()) throw std::runtime_error(s.message());
    }
  }

  int size() const { return static_cast<int>(comms_.size()); }
  Communicator& comm(int rank) { return *comms_[rank]; }

  std::vector<treering::Status> RunOnAll(
      const std::function<treering::Status(int, Communicator&)>& fn) {
    std::vector<treering::Status> out(comms_.size());
    std::vector<std::thread> threads;
    for (int r = 0; r < size(); ++r) {
      threads.emplace_back([&, r] { out[r] = fn(r, *comms_[r]); });
    }
    for (auto& t : threads) t.join();
    return out;
  }

 private:
  std::vector<std::unique_ptr<Communicator>> comms_;
};

inline void ExpectAllOk(const std::vector<treering::Status>& statuses) {
  for (std::size_t r = 0; r < statuses.size(); ++r) {
    EXPECT_TRUE(statuses[r].ok()) << "rank " << r << ": " << statuses[r].message();
  }
}

// Whether this process may read itself through process_vm_readv (what the in-process ranks'
// probe does): containers' default seccomp profiles refuse the call, and a pair of ranks then
// falls back to the socket algorithms (reduce-scatter, allreduce).
inline bool CrossMemoryReadsWork() {
  std::uint64_t value = 0x5eed, seen = 0;
  iovec local{&seen, sizeof seen}, remote{&value, sizeof value};
  return process_vm_readv(getpid(), &local, 1, &remote, 1, 0) == sizeof seen && seen == value;
}

// The last check of a test of a pair of ranks that read each other's buffer: both took the
// reads, or, where the kernel refuses them, neither did (the results were still checked) and
// the test ends skipped, saying why.
inline void ExpectPairReads(LoopbackWorld& world) {
  if (!CrossMemoryReadsWork()) {
    EXPECT_FALSE(world.comm(0).LocalReadsOn());
    EXPECT_FALSE(world.comm(1).LocalReadsOn());
    GTEST_SKIP() << "process_vm_readv is refused on this machine (seccomp, ptrace rules or an "
                    "old kernel): the pair fell back to the socket algorithms, so only those "
                    "were tested";
  }
  EXPECT_TRUE(world.comm(0).LocalReadsOn());
  EXPECT_TRUE(world.comm(1).LocalReadsOn());
}

}  // namespace rabit::testing
