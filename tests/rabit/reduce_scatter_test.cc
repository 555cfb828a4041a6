// Ring reduce-scatter over N in-process ranks on loopback links: every rank's slice (uneven,
// zero-size included, some larger than a reduce chunk) against the sum computed locally from
// every rank's seeded data; the default (Allreduce) path of the single engine; and two ranks
// reading each other's buffer (LocalRead: the ring's bits, the probe's agreement).
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "expected_reduce.h"
#include "loopback_world.h"
#include "rabit/rabit.h"

namespace rabit::testing {
namespace {

CollectiveOptions TestOptions() {
  CollectiveOptions options;
  options.timeout_seconds = 20;
  return options;
}

// Per-rank element counts: zeros, odd sizes, and (even cases) one slice of many chunks.
std::vector<std::size_t> SliceCounts(int world, std::uint64_t seed) {
  std::vector<std::size_t> counts(world);
  for (int r = 0; r < world; ++r) {
    const std::uint64_t h = (seed * 31 + static_cast<std::uint64_t>(r)) * 2654435761u;
    counts[r] = (r + seed) % 3 == 1 ? 0 : static_cast<std::size_t>(h % 5003);
  }
  if (seed % 2 == 0) counts[static_cast<std::size_t>(seed) % world] = 90001;
  return counts;
}

template <typename T>
void CheckReduceScatter(LoopbackWorld& world, std::uint64_t seq, std::uint64_t seed, OpKind op) {
  const std::vector<std::size_t> counts = SliceCounts(world.size(), seed);
  std::size_t total = 0;
  for (std::size_t c : counts) total += c;
  const std::vector<T> expected = ExpectedReduce<T>(world.size(), seed, total, op);
  ExpectAllOk(world.RunOnAll([&](int rank, Communicator& comm) -> treering::Status {
    std::vector<T> data = RankData<T>(rank, seed, total);
    treering::Status status = comm.ReduceScatter(seq, data.data(), counts, detail::TypeOf<T>(), op);
    if (!status.ok()) return status;
    std::size_t offset = 0;
    for (int r = 0; r < rank; ++r) offset += counts[r];
    if (!std::equal(data.begin() + offset, data.begin() + offset + counts[rank],
                    expected.begin() + offset)) {
      return treering::Status::Internal("rank " + std::to_string(rank) + ": wrong slice");
    }
    return treering::Status::Ok();
  }));
}

class ReduceScatterWorld : public ::testing::TestWithParam<int> {};

TEST_P(ReduceScatterWorld, EveryRanksSliceHoldsTheSumOverRanks) {
  LoopbackWorld world(GetParam(), TestOptions());
  std::uint64_t seq = 0;
  for (std::uint64_t seed = 1; seed <= 4; ++seed) {
    SCOPED_TRACE(::testing::Message() << "case " << seed);
    CheckReduceScatter<std::int64_t>(world, ++seq, seed, OpKind::kSum);
    CheckReduceScatter<double>(world, ++seq, seed + 100, OpKind::kSum);
    CheckReduceScatter<std::int32_t>(world, ++seq, seed + 200, OpKind::kMax);
  }
}

// Two ranks of one process (one machine): ReduceScatter from 256 KiB reads the partner's
// buffer (LocalPairReduceScatter). Random doubles, uneven slices (one empty): the result must be
// the ring's bits, and both ranks must agree on the mode.
std::vector<double> ReduceScatterDoubles(LoopbackWorld& world, std::uint64_t seq,
                                         const std::vector<std::size_t>& counts, int rank_wanted) {
  std::size_t total = 0;
  for (std::size_t c : counts) total += c;
  std::vector<std::vector<double>> out(2);
  ExpectAllOk(world.RunOnAll([&](int rank, Communicator& comm) {
    out[rank] = RankData<double>(rank, 77, total);
    return comm.ReduceScatter(seq, out[rank].data(), counts, DataType::kDouble, OpKind::kSum);
  }));
  const std::size_t begin = rank_wanted == 0 ? 0 : counts[0];
  return {out[rank_wanted].begin() + begin, out[rank_wanted].begin() + begin + counts[rank_wanted]};
}

TEST(LocalRead, ReadsGiveTheRingsBitsOnBothRanks) {
  CollectiveOptions reads = TestOptions(), ring = TestOptions();
  ring.local_read = false;
  LoopbackWorld with_reads(2, reads), with_ring(2, ring);
  const std::vector<std::vector<std::size_t>> cases = {
      {40000, 0}, {0, 40000}, {32769, 17}, {300001, 262147}, {1 << 20, 3}};
  std::uint64_t seq = 0;
  for (const auto& counts : cases) {
    ++seq;
    for (int rank = 0; rank < 2; ++rank) {
      const std::vector<double> a = ReduceScatterDoubles(with_reads, seq * 2 + rank, counts, rank);
      const std::vector<double> b = ReduceScatterDoubles(with_ring, seq * 2 + rank, counts, rank);
      ASSERT_EQ(a.size(), b.size());
      // memcmp, not ==: the bits (NaN payloads, signed zeros) must be the ring's. An empty
      // slice's vectors may hold null pointers, which memcmp must not get.
      EXPECT_TRUE(a.empty() || std::memcmp(a.data(), b.data(), a.size() * sizeof(double)) == 0)
          << "counts " << counts[0] << "," << counts[1] << " rank " << rank;
    }
  }
  EXPECT_FALSE(with_ring.comm(0).LocalReadsOn());
  EXPECT_FALSE(with_ring.comm(1).LocalReadsOn());
  ExpectPairReads(with_reads);
}

TEST(LocalRead, OneRankWithoutReadsMakesBothTakeTheRing) {
  LoopbackWorld world(2, [](int rank) {
    CollectiveOptions options = TestOptions();
    options.local_read = rank == 0;
    return options;
  });
  for (int rank = 0; rank < 2; ++rank) {
    const std::vector<std::size_t> counts = {70000, 50000};
    CollectiveOptions ring = TestOptions();
    ring.local_read = false;
    LoopbackWorld reference(2, ring);
    EXPECT_EQ(ReduceScatterDoubles(world, 1 + rank, counts, rank),
              ReduceScatterDoubles(reference, 1 + rank, counts, rank));
  }
  EXPECT_TRUE(world.comm(0).LocalReadsProbed());
  EXPECT_FALSE(world.comm(0).LocalReadsOn());
  EXPECT_FALSE(world.comm(1).LocalReadsOn());
}

TEST(LocalRead, SmallBuffersKeepTheRingWithoutProbing) {
  LoopbackWorld world(2, TestOptions());
  const std::vector<std::size_t> counts = {16383, 16384};  // 8 B short of 256 KiB in all
  ReduceScatterDoubles(world, 1, counts, 0);
  EXPECT_FALSE(world.comm(0).LocalReadsProbed());
  EXPECT_FALSE(world.comm(1).LocalReadsProbed());
}

TEST_P(ReduceScatterWorld, AllSlicesEmptyCompletes) {
  LoopbackWorld world(GetParam(), TestOptions());
  const std::vector<std::size_t> counts(world.size(), 0);
  ExpectAllOk(world.RunOnAll([&](int, Communicator& comm) {
    return comm.ReduceScatter(1, nullptr, counts, DataType::kInt64, OpKind::kSum);
  }));
}

TEST_P(ReduceScatterWorld, WrongNumberOfSlicesIsInvalidInput) {
  LoopbackWorld world(GetParam(), TestOptions());
  const std::vector<std::size_t> counts(world.size() + 1, 1);
  std::vector<std::int64_t> data(counts.size());
  const treering::Status status =
      world.comm(0).ReduceScatter(1, data.data(), counts, DataType::kInt64, OpKind::kSum);
  EXPECT_EQ(status.code(), treering::StatusCode::kInvalidInput) << status.message();
}

INSTANTIATE_TEST_SUITE_P(Worlds, ReduceScatterWorld, ::testing::Values(2, 3, 4, 5));

// Before Init the API is a world of one: the only slice is the whole buffer, unchanged.
TEST(ReduceScatterSingle, WorldOfOneKeepsItsSlice) {
  std::vector<std::int64_t> data = {1, -2, 3};
  rabit::ReduceScatter<op::Sum>(data.data(), std::vector<std::size_t>{3});
  EXPECT_EQ(data, (std::vector<std::int64_t>{1, -2, 3}));
  EXPECT_THROW(rabit::ReduceScatter<op::Sum>(data.data(), std::vector<std::size_t>{1, 2}),
               rabit::Error);
}

}  // namespace
}  // namespace rabit::testing
