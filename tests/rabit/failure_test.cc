// Failures over N in-process ranks: mismatched collectives are reported with both calls; a rank
// that stops (links closed) or freezes (links open, silent) makes every other rank fail within
// the timeout, and its neighbours' messages name it.
#include <chrono>
#include <string>
#include <thread>

#include <gtest/gtest.h>

#include "loopback_world.h"

namespace rabit::testing {
namespace {

using Clock = std::chrono::steady_clock;
using collective::AllreduceAlgorithm;
using collective::AllreduceAlgorithmName;

CollectiveOptions ShortTimeout() {
  CollectiveOptions options;
  options.timeout_seconds = 1.0;
  return options;
}

bool Contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

// A few good ops first, so the failure happens mid-job, then `fn` for op #10.
template <typename Fn>
treering::Status AfterWarmUp(int rank, Communicator& comm, Fn&& fn) {
  for (std::uint64_t s = 1; s < 10; ++s) {
    int x = rank;
    treering::Status status = comm.Allreduce(s, &x, 1, DataType::kInt32, OpKind::kMax);
    if (!status.ok()) return status;
  }
  return fn();
}

TEST(CollectiveFailure, MismatchedOpIsReportedWithBothCalls) {
  LoopbackWorld world(4, ShortTimeout());
  const auto start = Clock::now();
  auto statuses = world.RunOnAll([](int rank, Communicator& comm) {
    return AfterWarmUp(rank, comm, [&] {
      float data[1024] = {};
      if (rank == 2) return comm.Broadcast(10, data, sizeof(data), 0);
      return comm.Allreduce(10, data, 1024, DataType::kFloat, OpKind::kSum);
    });
  });
  EXPECT_LT(Clock::now() - start, std::chrono::milliseconds(900)) << "mismatch must not wait";
  std::string all;
  for (const auto& s : statuses) {
    EXPECT_FALSE(s.ok());
    all += s.message() + "\n";
  }
  EXPECT_TRUE(Contains(all, "rank 2 called Broadcast(root 0, 4096 B) as op #10 but rank")) << all;
  EXPECT_TRUE(Contains(all, "called Allreduce(sum, float, 4096 B) as op #10")) << all;
}

TEST(CollectiveFailure, SizeMismatchIsReported) {
  LoopbackWorld world(2, ShortTimeout());
  auto statuses = world.RunOnAll([](int rank, Communicator& comm) {
    std::int64_t data[4] = {};
    return comm.Allreduce(1, data, rank == 0 ? 4 : 3, DataType::kInt64, OpKind::kSum);
  });
  EXPECT_FALSE(statuses[0].ok());
  EXPECT_FALSE(statuses[1].ok());
  EXPECT_TRUE(Contains(statuses[0].message() + statuses[1].message(), "24 B"))
      << statuses[0].message();
}

// Ranks other than `victim` run 10 ops; the victim runs 9 and then does `stop` instead.
// Op #10 is an Allreduce of `doubles` elements: 1000 runs on the tree, 200000 on the ring.
std::vector<treering::Status> RunWithVictim(LoopbackWorld& world, int victim, std::size_t doubles,
                                            const std::function<void(Communicator&)>& stop) {
  return world.RunOnAll([&](int rank, Communicator& comm) {
    return AfterWarmUp(rank, comm, [&]() -> treering::Status {
      if (rank == victim) {
        stop(comm);
        return treering::Status::Ok();
      }
      std::vector<double> data(doubles, 1.0);
      return comm.Allreduce(10, data.data(), data.size(), DataType::kDouble, OpKind::kSum);
    });
  });
}

void ExpectOthersFailNamingVictim(const std::vector<treering::Status>& statuses, int victim,
                                  const std::vector<int>& neighbours) {
  for (int r = 0; r < static_cast<int>(statuses.size()); ++r) {
    if (r == victim) continue;
    EXPECT_FALSE(statuses[r].ok()) << "rank " << r << " should have failed";
    EXPECT_TRUE(Contains(statuses[r].message(), "op #10")) << statuses[r].message();
  }
  for (int n : neighbours) {
    EXPECT_TRUE(Contains(statuses[n].message(), "rank " + std::to_string(victim)))
        << statuses[n].message();
  }
}

// N = 7 heap tree: rank 1 has parent 0 and children 3, 4; ring neighbours 0 and 2.
struct VictimCase {
  std::size_t doubles;
  std::vector<int> neighbours;  // the ranks that talk to rank 1 in op #10
  AllreduceAlgorithm algo;
};
const VictimCase kTreeOp{1000, {0, 3, 4}, AllreduceAlgorithm::kTree};
const VictimCase kRingOp{200000, {0, 2}, AllreduceAlgorithm::kRing};  // 1.6 MB

CollectiveOptions ShortTimeoutWith(AllreduceAlgorithm algo) {
  CollectiveOptions options = ShortTimeout();
  options.allreduce.forced = algo;
  return options;
}

TEST(CollectiveFailure, StoppedRankMakesEveryOtherRankFailFast) {
  for (const VictimCase& c : {kTreeOp, kRingOp}) {
    LoopbackWorld world(7, ShortTimeoutWith(c.algo));
    const auto start = Clock::now();
    // Rank 1 leaves and closes its links.
    auto statuses = RunWithVictim(world, 1, c.doubles, [](Communicator& comm) { comm.Close(); });
    EXPECT_LT(Clock::now() - start, std::chrono::milliseconds(900));
    ExpectOthersFailNamingVictim(statuses, 1, c.neighbours);
    EXPECT_TRUE(Contains(statuses[0].message(), "link to rank 1 failed")) << statuses[0].message();
  }
}

// A frozen rank's neighbours lack its op header, so they time out first (after rabit_timeout;
// ranks that have every header wait twice as long) and name it; the others then fail at once
// as links close, each naming the neighbour whose link closed.
TEST(CollectiveFailure, FrozenRankMakesEveryOtherRankFailWithinTimeout) {
  for (const VictimCase& c : {kTreeOp, kRingOp}) {
    LoopbackWorld world(7, ShortTimeoutWith(c.algo));
    const auto start = Clock::now();
    // Rank 1 stays connected but silent, like a SIGSTOPped process.
    auto statuses = RunWithVictim(world, 1, c.doubles, [](Communicator&) {
      std::this_thread::sleep_for(std::chrono::milliseconds(1600));
    });
    EXPECT_LT(Clock::now() - start, std::chrono::milliseconds(2600));
    ExpectOthersFailNamingVictim(statuses, 1, {});
    int named = 0;
    for (int r = 0; r < 7; ++r) {
      const std::string& m = statuses[r].message();
      if (Contains(m, "never started this op")) {
        EXPECT_TRUE(Contains(m, "rank 1 never started this op")) << m;
        EXPECT_TRUE(Contains(m, "no progress within rabit_timeout (1 s)")) << m;
        ++named;
      }
    }
    EXPECT_GE(named, 1) << "no rank named the frozen rank 1";
  }
}

// The recursive algorithms' pairwise steps: a stopped or frozen peer fails the survivors within
// the timeout, and the ranks that exchange with it name it. Two ranks (one step each way) and
// three (rank 0 folds into rank 1, which pairs with rank 2).
TEST(CollectiveFailure, RecursiveAllreducesFailWhenAPeerStopsOrFreezes) {
  for (AllreduceAlgorithm algo :
       {AllreduceAlgorithm::kRecursiveDoubling, AllreduceAlgorithm::kHalvingDoubling}) {
    for (int n : {2, 3}) {
      for (bool freeze : {false, true}) {
        SCOPED_TRACE(::testing::Message()
                     << AllreduceAlgorithmName(algo) << " " << n << " ranks, freeze " << freeze);
        LoopbackWorld world(n, ShortTimeoutWith(algo));
        const auto start = Clock::now();
        auto statuses = RunWithVictim(world, 1, 200000, [&](Communicator& comm) {
          if (freeze) {
            std::this_thread::sleep_for(std::chrono::milliseconds(1600));
          } else {
            comm.Close();
          }
        });
        EXPECT_LT(Clock::now() - start, std::chrono::milliseconds(2600));
        ExpectOthersFailNamingVictim(statuses, 1,
                                     n == 2 ? std::vector<int>{0} : std::vector<int>{0, 2});
      }
    }
  }
}

TEST(CollectiveFailure, AfterAFailureEveryCallReturnsTheFirstError) {
  LoopbackWorld world(2, ShortTimeout());
  auto statuses = world.RunOnAll([](int rank, Communicator& comm) -> treering::Status {
    if (rank == 1) {
      comm.Close();
      return treering::Status::Ok();
    }
    int x = 1;
    treering::Status first = comm.Allreduce(1, &x, 1, DataType::kInt32, OpKind::kSum);
    treering::Status second = comm.Broadcast(2, &x, sizeof(x), 0);
    if (first.ok() || second.message() != first.message()) {
      return treering::Status::Internal("second call: " + second.message());
    }
    return treering::Status::Ok();
  });
  ExpectAllOk(statuses);
}

}  // namespace
}  // namespace rabit::testing
