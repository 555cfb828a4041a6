// Two ranks of one process (one machine): Allreduce from 128 KiB reduces half of the buffer on
// each rank from the partner's memory and writes the reduced half into the partner's buffer
// (LocalPairAllreduce, collective/local_pair_reduction.cc). Checked against the socket
// algorithms of a world with rabit_local_read=false, bit for bit, and against the sum computed
// here: even and odd element counts (the halves' boundary), sizes at the threshold, every
// supported reduction kind, NaN payloads and signed zeros (the operands' order); the probe's
// agreement when one rank opts out; and many calls in a row on each rank, where a rank that
// returned before the partner had finished with its buffer would see a half-written result.
#include <unistd.h>  // usleep

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "expected_reduce.h"
#include "loopback_world.h"

namespace rabit::testing {
namespace {

CollectiveOptions Options(bool local_read) {
  CollectiveOptions options;
  options.timeout_seconds = 20;
  options.local_read = local_read;
  return options;
}

// Both ranks' results of one Allreduce of `count` elements of seeded data.
template <typename T>
std::vector<std::vector<T>> AllreduceBoth(LoopbackWorld& world, std::uint64_t seq,
                                          std::uint64_t seed, std::size_t count, OpKind op) {
  std::vector<std::vector<T>> out(2);
  ExpectAllOk(world.RunOnAll([&](int rank, Communicator& comm) {
    out[rank] = RankData<T>(rank, seed, count);
    return comm.Allreduce(seq, out[rank].data(), count, detail::TypeOf<T>(), op);
  }));
  return out;
}

template <typename T>
bool SameBits(const std::vector<T>& a, const std::vector<T>& b) {
  return a.size() == b.size() &&
         (a.empty() || std::memcmp(a.data(), b.data(), a.size() * sizeof(T)) == 0);
}

template <typename T>
void ExpectSocketBits(LoopbackWorld& reads, LoopbackWorld& socket, std::uint64_t seq,
                      std::size_t count, OpKind op) {
  const std::uint64_t seed = seq * 7 + count;
  const auto a = AllreduceBoth<T>(reads, seq, seed, count, op);
  const auto b = AllreduceBoth<T>(socket, seq, seed, count, op);
  EXPECT_TRUE(SameBits(a[0], a[1])) << "the two ranks differ, count " << count;
  EXPECT_TRUE(SameBits(a[0], b[0])) << "not the socket's bits, count " << count;
  EXPECT_EQ(a[0], ExpectedReduce<T>(2, seed, count, op)) << "count " << count;
}

TEST(LocalAllreduce, GivesTheSocketsBitsOnBothRanks) {
  LoopbackWorld reads(2, Options(true)), socket(2, Options(false));
  std::uint64_t seq = 0;
  // 16384 doubles = 128 KiB (the threshold); odd counts split unevenly between the halves.
  for (const std::size_t count : {16384u, 16385u, 300001u, 1u << 20}) {
    ExpectSocketBits<double>(reads, socket, ++seq, count, OpKind::kSum);
  }
  ExpectSocketBits<std::int64_t>(reads, socket, ++seq, 65537, OpKind::kSum);
  ExpectSocketBits<std::int32_t>(reads, socket, ++seq, 200003, OpKind::kMax);
  ExpectSocketBits<float>(reads, socket, ++seq, 131073, OpKind::kMin);
  ExpectSocketBits<std::uint32_t>(reads, socket, ++seq, 100000, OpKind::kBitOR);
  EXPECT_FALSE(socket.comm(0).LocalReadsOn());
  ExpectPairReads(reads);
}

// NaNs with a payload per rank, signed zeros and infinities: float addition returns the left
// NaN's payload and max / min pick by operand order, so these bits show whether rank 0's value
// is the left operand on both halves, as in the recursive algorithms.
std::vector<double> Awkward(int rank, std::size_t count) {
  std::vector<double> v = RankData<double>(rank, 3, count);
  for (std::size_t i = 0; i < count; i += 3) {
    const std::uint64_t bits = 0x7ff8000000000000ull | (0x1000ull * (rank + 1) + i % 4096);
    std::memcpy(&v[i], &bits, sizeof bits);
  }
  for (std::size_t i = 1; i < count; i += 5) v[i] = rank == 0 ? -0.0 : 0.0;
  for (std::size_t i = 2; i < count; i += 7) v[i] = rank == 0 ? 1.0 / 0.0 : -1.0 / 0.0;
  return v;
}

TEST(LocalAllreduce, NanPayloadsAndSignedZerosAreTheSockets) {
  LoopbackWorld reads(2, Options(true)), socket(2, Options(false));
  constexpr std::size_t kCount = 100003;
  std::uint64_t seq = 0;
  for (const OpKind op : {OpKind::kSum, OpKind::kMax, OpKind::kMin}) {
    ++seq;
    std::vector<std::vector<double>> a(2), b(2);
    ExpectAllOk(reads.RunOnAll([&](int rank, Communicator& comm) {
      a[rank] = Awkward(rank, kCount);
      return comm.Allreduce(seq, a[rank].data(), kCount, DataType::kDouble, op);
    }));
    ExpectAllOk(socket.RunOnAll([&](int rank, Communicator& comm) {
      b[rank] = Awkward(rank, kCount);
      return comm.Allreduce(seq, b[rank].data(), kCount, DataType::kDouble, op);
    }));
    EXPECT_TRUE(SameBits(a[0], a[1])) << "op " << int(op);
    EXPECT_TRUE(SameBits(a[0], b[0])) << "op " << int(op);
    EXPECT_TRUE(SameBits(a[1], b[1])) << "op " << int(op);
  }
}

TEST(LocalAllreduce, SmallBuffersKeepTheSocketWithoutProbing) {
  LoopbackWorld world(2, Options(true));
  AllreduceBoth<double>(world, 1, 5, 16383, OpKind::kSum);  // 8 B short of 128 KiB
  EXPECT_FALSE(world.comm(0).LocalReadsProbed());
  EXPECT_FALSE(world.comm(1).LocalReadsProbed());
}

TEST(LocalAllreduce, OneRankWithoutReadsMakesBothTakeTheSocket) {
  LoopbackWorld world(2, [](int rank) { return Options(rank == 1); });
  const auto got = AllreduceBoth<double>(world, 1, 9, 100001, OpKind::kSum);
  EXPECT_EQ(got[0], ExpectedReduce<double>(2, 9, 100001, OpKind::kSum));
  EXPECT_TRUE(SameBits(got[0], got[1]));
  EXPECT_TRUE(world.comm(0).LocalReadsProbed());
  EXPECT_FALSE(world.comm(0).LocalReadsOn());
  EXPECT_FALSE(world.comm(1).LocalReadsOn());
}

// Each rank runs its calls back to back, without waiting for the other between them, and checks
// every result as soon as its call returns: a rank that returned while the partner was still
// writing its half into this rank's buffer (or still reading it) would see a half-written
// result, or have its next call's data overwritten. 100 calls, fresh data each, one rank
// sometimes late.
TEST(LocalAllreduce, BackToBackCallsOnReusedBuffers) {
  LoopbackWorld world(2, Options(true));
  constexpr std::size_t kCount = 1 << 14;  // 128 KiB of doubles: the threshold
  constexpr std::uint64_t kCalls = 100;
  std::vector<std::vector<double>> want(kCalls + 1);
  for (std::uint64_t call = 1; call <= kCalls; ++call) {
    want[call] = ExpectedReduce<double>(2, call, kCount, OpKind::kSum);
  }
  ExpectAllOk(world.RunOnAll([&](int rank, Communicator& comm) -> treering::Status {
    std::vector<double> buf;
    for (std::uint64_t call = 1; call <= kCalls; ++call) {
      buf = RankData<double>(rank, call, kCount);
      if (rank == static_cast<int>(call % 2) && call % 3 == 0) usleep(200);
      treering::Status status =
          comm.Allreduce(call, buf.data(), kCount, DataType::kDouble, OpKind::kSum);
      if (!status.ok()) return status;
      if (buf != want[call]) {
        return treering::Status::Internal("wrong result of call " + std::to_string(call));
      }
    }
    return treering::Status::Ok();
  }));
}

}  // namespace
}  // namespace rabit::testing
