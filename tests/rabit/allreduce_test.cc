// Allreduce over N in-process ranks (real loopback TCP links), tree, ring, (world of two) pair
// exchange and pair halving, (world of four) halving-doubling forced, for every dtype, every op
// and sizes 0, 1, 2, 3, N-1 and ~1 MB (odd element count), against a locally computed
// expectation from seeded per-rank data.
#include <cmath>
#include <cstring>
#include <limits>
#include <string>

#include <gtest/gtest.h>

#include "collective/communicator.h"
#include "expected_reduce.h"
#include "loopback_world.h"
#include "transport/op_header.h"

namespace rabit::testing {
namespace {

using transport::AllreduceAlgorithm;
using transport::ChooseAllreduce;
using transport::DataTypeName;
using transport::OpKindName;

enum class Algo { kTree, kRing, kPair, kPairHalving, kHalving };

struct WorldCase {
  int world;
  Algo algo;
};

CollectiveOptions ForcedOptions(Algo algo) {
  CollectiveOptions options;
  options.timeout_seconds = 20;
  options.ring_min_bytes = algo == Algo::kRing ? 0 : std::numeric_limits<std::size_t>::max();
  options.pair_max_bytes = algo == Algo::kPair ? std::numeric_limits<std::size_t>::max() : 0;
  options.pair_min_bytes = std::numeric_limits<std::size_t>::max();  // world 2 ring: the ring
  options.pair_halving_min_bytes =
      algo == Algo::kPairHalving ? 0 : std::numeric_limits<std::size_t>::max();
  options.halving_min_bytes = algo == Algo::kHalving ? 0 : std::numeric_limits<std::size_t>::max();
  options.chunk_bytes = 4096;  // small chunks exercise the pipelined partial reductions
  return options;
}

std::vector<std::size_t> Counts(int world, std::size_t element_bytes) {
  std::vector<std::size_t> counts = {0, 1};
  if (world == 2) counts.insert(counts.end(), {2, 3});  // both halves non-empty, odd split
  if (world > 2) counts.push_back(static_cast<std::size_t>(world - 1));
  counts.push_back((1000003 / element_bytes) | 1);
  return counts;
}

template <typename T>
treering::Status RunOne(int rank, Communicator& comm, std::uint64_t seq, std::size_t count,
                        OpKind op, const std::vector<T>& expected) {
  std::vector<T> data = RankData<T>(rank, seq, count);
  treering::Status status = comm.Allreduce(seq, data.data(), count, detail::TypeOf<T>(), op);
  if (!status.ok()) return status;
  for (std::size_t i = 0; i < count; ++i) {
    if (data[i] != expected[i]) {
      return treering::Status::Internal("rank " + std::to_string(rank) + " count " +
                                        std::to_string(count) + ": wrong value at element " +
                                        std::to_string(i));
    }
  }
  return treering::Status::Ok();
}

template <typename T>
void CheckType(LoopbackWorld& world, std::uint64_t* seq) {
  std::vector<OpKind> ops = {OpKind::kSum, OpKind::kMax, OpKind::kMin};
  if constexpr (std::is_integral_v<T>) ops.push_back(OpKind::kBitOR);
  for (OpKind op : ops) {
    for (std::size_t count : Counts(world.size(), sizeof(T))) {
      const std::uint64_t s = ++*seq;
      const std::vector<T> expected = ExpectedReduce<T>(world.size(), s, count, op);
      SCOPED_TRACE(::testing::Message() << DataTypeName(detail::TypeOf<T>()) << " "
                                        << OpKindName(op) << " count " << count);
      ExpectAllOk(world.RunOnAll([&](int rank, Communicator& comm) {
        return RunOne<T>(rank, comm, s, count, op, expected);
      }));
    }
  }
}

class AllreduceTest : public ::testing::TestWithParam<WorldCase> {};

TEST_P(AllreduceTest, EveryTypeOpAndSizeMatchesLocalReduction) {
  LoopbackWorld world(GetParam().world, ForcedOptions(GetParam().algo));
  std::uint64_t seq = 0;
  CheckType<std::int8_t>(world, &seq);
  CheckType<std::uint8_t>(world, &seq);
  CheckType<std::int16_t>(world, &seq);
  CheckType<std::uint16_t>(world, &seq);
  CheckType<std::int32_t>(world, &seq);
  CheckType<std::uint32_t>(world, &seq);
  CheckType<std::int64_t>(world, &seq);
  CheckType<std::uint64_t>(world, &seq);
  CheckType<float>(world, &seq);
  CheckType<double>(world, &seq);
}

std::vector<WorldCase> AllCases() {
  std::vector<WorldCase> out;
  for (int n : {1, 2, 3, 4, 7, 8}) {
    out.push_back({n, Algo::kTree});
    out.push_back({n, Algo::kRing});
  }
  out.push_back({2, Algo::kPair});
  out.push_back({2, Algo::kPairHalving});
  out.push_back({4, Algo::kHalving});
  return out;
}

const char* AlgoName(Algo algo) {
  switch (algo) {
    case Algo::kTree:
      return "_tree";
    case Algo::kRing:
      return "_ring";
    case Algo::kPair:
      return "_pair";
    case Algo::kPairHalving:
      return "_pair_halving";
    case Algo::kHalving:
      return "_halving";
  }
  return "";
}

INSTANTIATE_TEST_SUITE_P(Worlds, AllreduceTest, ::testing::ValuesIn(AllCases()),
                         [](const ::testing::TestParamInfo<WorldCase>& info) {
                           // append(), not "N" + ...: GCC 12 warns falsely (-Wrestrict).
                           return std::string("N")
                               .append(std::to_string(info.param.world))
                               .append(AlgoName(info.param.algo));
                         });

// The defaults: two ranks use the pair halving exchange from 256 KiB, below it the tree, or the
// pair exchange when the workers are pinned (rabit_pinned -> pair_max_bytes); four ranks
// halving-doubling from 1 MiB; other worlds: tree, then ring.
TEST(AllreduceChoice, PairExchangesAtTwoRanksHalvingAtFourTreeThenRingElsewhere) {
  CollectiveOptions o;
  EXPECT_EQ(ChooseAllreduce(o, 2, 4), AllreduceAlgorithm::kTree);
  EXPECT_EQ(ChooseAllreduce(o, 2, (256 << 10) - 1), AllreduceAlgorithm::kTree);
  EXPECT_EQ(ChooseAllreduce(o, 2, 256 << 10), AllreduceAlgorithm::kPairHalving);
  EXPECT_EQ(ChooseAllreduce(o, 2, 64 << 20), AllreduceAlgorithm::kPairHalving);
  EXPECT_EQ(ChooseAllreduce(o, 3, 256 << 10), AllreduceAlgorithm::kTree);
  EXPECT_EQ(ChooseAllreduce(o, 3, 1 << 20), AllreduceAlgorithm::kRing);
  EXPECT_EQ(ChooseAllreduce(o, 4, 1 << 20), AllreduceAlgorithm::kHalving);
  EXPECT_EQ(ChooseAllreduce(o, 4, (1 << 20) - 1), AllreduceAlgorithm::kTree);
  EXPECT_EQ(ChooseAllreduce(o, 8, 1 << 20), AllreduceAlgorithm::kRing);
  EXPECT_EQ(ChooseAllreduce(o, 4, 4), AllreduceAlgorithm::kTree);
  o.pair_max_bytes = 1 << 30;  // the default for pinned workers (TREERING_PINNED=1)
  EXPECT_EQ(ChooseAllreduce(o, 2, 0), AllreduceAlgorithm::kPair);
  EXPECT_EQ(ChooseAllreduce(o, 2, 4), AllreduceAlgorithm::kPair);
  EXPECT_EQ(ChooseAllreduce(o, 2, 256 << 10), AllreduceAlgorithm::kPairHalving);
  EXPECT_EQ(ChooseAllreduce(o, 4, 4), AllreduceAlgorithm::kTree);
  o.pair_halving_min_bytes = std::numeric_limits<std::size_t>::max();
  EXPECT_EQ(ChooseAllreduce(o, 2, 1 << 20), AllreduceAlgorithm::kPair);
  o.pair_max_bytes = 0;
  EXPECT_EQ(ChooseAllreduce(o, 2, (1 << 20) - 1), AllreduceAlgorithm::kTree);
  EXPECT_EQ(ChooseAllreduce(o, 2, 1 << 20), AllreduceAlgorithm::kPair);
  o.pair_min_bytes = std::numeric_limits<std::size_t>::max();  // the ring again
  EXPECT_EQ(ChooseAllreduce(o, 2, 64 << 20), AllreduceAlgorithm::kRing);
}

// Both ranks' results of the NaN vectors below for `op`, from a world forced to `algo`.
std::vector<std::vector<float>> NaNResults(Algo algo, OpKind op) {
  LoopbackWorld world(2, ForcedOptions(algo));
  const float nan_a = std::numeric_limits<float>::quiet_NaN();
  float nan_b = nan_a;
  std::uint32_t bits = 0;
  std::memcpy(&bits, &nan_b, sizeof(bits));
  bits |= 0x1234;  // another quiet NaN payload
  std::memcpy(&nan_b, &bits, sizeof(bits));
  std::vector<std::vector<float>> data(2);
  ExpectAllOk(world.RunOnAll([&](int rank, Communicator& comm) {
    data[rank] = rank == 0 ? std::vector<float>{nan_a, 1.0f, nan_a, 3.0f}
                           : std::vector<float>{2.0f, nan_b, nan_b, 4.0f};
    return comm.Allreduce(1, data[rank].data(), data[rank].size(), DataType::kFloat, op);
  }));
  return data;
}

bool SameBits(const std::vector<float>& a, const std::vector<float>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(float)) == 0;
}

// In the pair exchange both ranks reduce every element, in opposite roles; in the pair halving
// each rank reduces its half. Either way the result must be bit-identical on both ranks, even
// where operand order matters: max/min against a NaN, and the sum of two NaNs with different
// payloads; and max/min must agree between the two (rank 0's value on the left in both: the
// pair halving's rank 1 reduces elements 2 and 3, so a wrong operand order there shows).
TEST(PairAllreduceTest, BothRanksAndBothExchangesGetBitIdenticalResultsWithNaNs) {
  for (OpKind op : {OpKind::kMax, OpKind::kMin, OpKind::kSum}) {
    SCOPED_TRACE(OpKindName(op));
    const auto pair = NaNResults(Algo::kPair, op);
    const auto halving = NaNResults(Algo::kPairHalving, op);
    EXPECT_TRUE(SameBits(pair[0], pair[1]));
    EXPECT_TRUE(SameBits(halving[0], halving[1]));
    // Which NaN payload a sum keeps depends on the compiled loop (vector or scalar tail), not
    // only on the operand order, so across algorithms only max/min must agree bit for bit.
    if (op != OpKind::kSum) {
      EXPECT_TRUE(SameBits(pair[0], halving[0]));
    }
    EXPECT_FALSE(std::isnan(pair[0][3]));
    EXPECT_TRUE(std::isnan(pair[0][2]));
  }
}

}  // namespace
}  // namespace rabit::testing
