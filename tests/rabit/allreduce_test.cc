// Allreduce over N in-process ranks (real loopback TCP links) for N = 1..8, each algorithm
// forced (tree, ring, recursive doubling, halving-doubling; the last two fold the ranks beyond a
// power of two), for every dtype, every op and sizes 0, 1, 2, 3, N-1, 2N+1 and ~1 MB (odd
// element count; every op for 32-bit types, sums for the others), against a locally computed
// expectation from seeded per-rank data. Then the recursive algorithms' reduction order (one fixed
// tree over ranks, bit for bit with arbitrary floats and NaNs) and the cost model's choices.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <string>

#include <gtest/gtest.h>

#include "collective/allreduce_cost.h"
#include "collective/communicator.h"
#include "collective/recursive_layout.h"
#include "expected_reduce.h"
#include "loopback_world.h"
#include "transport/op_header.h"

namespace rabit::testing {
namespace {

using collective::AllreduceAlgorithm;
using collective::AllreduceAlgorithmName;
using collective::AllreduceChoiceOptions;
using collective::ChooseAllreduce;
using collective::LinkModel;
using collective::PredictAllreduceSeconds;
using collective::RecursiveLayout;
using collective::RecursivePartners;
using transport::DataTypeName;
using transport::OpKindName;

constexpr AllreduceAlgorithm kAll[] = {AllreduceAlgorithm::kTree, AllreduceAlgorithm::kRing,
                                       AllreduceAlgorithm::kRecursiveDoubling,
                                       AllreduceAlgorithm::kHalvingDoubling};

struct WorldCase {
  int world;
  AllreduceAlgorithm algo;
};

CollectiveOptions ForcedOptions(AllreduceAlgorithm algo) {
  CollectiveOptions options;
  options.timeout_seconds = 20;
  options.allreduce.forced = algo;
  options.chunk_bytes = 4096;  // small chunks exercise the pipelined partial reductions
  return options;
}

// ~1 MB only for sums and for every op of 32-bit types: large messages are where the algorithms
// split buffers, and this keeps the 32 worlds under a few seconds each.
std::vector<std::size_t> Counts(int world, std::size_t element_bytes, bool large) {
  std::vector<std::size_t> counts = {
      0, 1, 2, 3, static_cast<std::size_t>(world - 1), static_cast<std::size_t>(2 * world + 1)};
  if (large) counts.push_back((1000003 / element_bytes) | 1);
  std::sort(counts.begin(), counts.end());
  counts.erase(std::unique(counts.begin(), counts.end()), counts.end());
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
    for (std::size_t count :
         Counts(world.size(), sizeof(T), op == OpKind::kSum || sizeof(T) == 4)) {
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
  ASSERT_EQ(world.comm(0).AllreduceChoice(1 << 20), GetParam().algo);
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
  for (int n = 1; n <= 8; ++n) {
    for (AllreduceAlgorithm a : kAll) out.push_back({n, a});
  }
  return out;
}

INSTANTIATE_TEST_SUITE_P(Worlds, AllreduceTest, ::testing::ValuesIn(AllCases()),
                         [](const ::testing::TestParamInfo<WorldCase>& info) {
                           // append(), not "N" + ...: GCC 12 warns falsely (-Wrestrict).
                           return std::string("N")
                               .append(std::to_string(info.param.world))
                               .append("_")
                               .append(AllreduceAlgorithmName(info.param.algo));
                         });

// The fold layout: every rank is in the core or folds into its right neighbour, core indices
// keep rank order, and partners are mutual (a link exists on both of its ends).
TEST(RecursiveLayout, FoldAndPartnersAreConsistentForEveryWorldUpTo64) {
  for (int world = 1; world <= 64; ++world) {
    SCOPED_TRACE(world);
    const RecursiveLayout l = RecursiveLayout::For(world);
    EXPECT_EQ(l.core & (l.core - 1), 0);
    EXPECT_LE(l.core, world);
    EXPECT_GT(2 * l.core, world);
    int previous = -1;
    for (int r = 0; r < world; ++r) {
      const int c = l.CoreIndex(r);
      if (c < 0) {
        EXPECT_TRUE(l.SitsOut(r));
        EXPECT_TRUE(l.TakesFold(r + 1));
        continue;
      }
      EXPECT_EQ(c, previous + 1);
      EXPECT_EQ(l.RankOfCore(c), r);
      previous = c;
      for (int peer : RecursivePartners(r, world)) {
        const auto back = RecursivePartners(peer, world);
        EXPECT_NE(std::find(back.begin(), back.end(), r), back.end()) << r << " - " << peer;
      }
    }
    EXPECT_EQ(previous + 1, l.core);
  }
}

// The reduction both recursive algorithms promise: leaves (v0 v1) ... for the folded pairs, then
// pairs of groups at distance 1, 2, 4, ... in core order, lower ranks on the left.
template <typename T>
std::vector<T> FoldTreeReduce(const std::vector<std::vector<T>>& v, OpKind op) {
  const RecursiveLayout l = RecursiveLayout::For(static_cast<int>(v.size()));
  std::vector<std::vector<T>> group(l.core);
  for (int c = 0; c < l.core; ++c) {
    const int r = l.RankOfCore(c);
    group[c] = v[r];
    if (l.TakesFold(r)) {
      for (std::size_t i = 0; i < v[r].size(); ++i) group[c][i] = Combine(v[r - 1][i], v[r][i], op);
    }
  }
  for (int step = 1; step < l.core; step *= 2) {
    for (int c = 0; c < l.core; c += 2 * step) {
      for (std::size_t i = 0; i < group[c].size(); ++i) {
        group[c][i] = Combine(group[c][i], group[c + step][i], op);
      }
    }
  }
  return group[0];
}

template <typename T>
bool SameBits(const std::vector<T>& a, const std::vector<T>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(T)) == 0;
}

// Sums of arbitrary doubles depend on the order: both recursive algorithms give every rank the
// bits of the one fixed tree, so switching between them by message size changes no result.
TEST(RecursiveAllreduce, DoublingAndHalvingSumAlongTheSameTreeBitForBit) {
  for (int n : {2, 3, 5, 6, 7, 8}) {
    for (std::size_t count : {std::size_t{1}, std::size_t{7}, std::size_t{100003}}) {
      SCOPED_TRACE(::testing::Message() << n << " ranks, " << count << " doubles");
      std::vector<std::vector<double>> input(n, std::vector<double>(count));
      std::mt19937_64 gen(n * 131 + count);
      std::uniform_real_distribution<double> dist(-1e6, 1e6);
      for (auto& rank_data : input) {
        for (double& x : rank_data) x = dist(gen) * std::pow(10.0, static_cast<int>(gen() % 12));
      }
      const std::vector<double> expected = FoldTreeReduce(input, OpKind::kSum);
      for (AllreduceAlgorithm algo :
           {AllreduceAlgorithm::kRecursiveDoubling, AllreduceAlgorithm::kHalvingDoubling}) {
        SCOPED_TRACE(AllreduceAlgorithmName(algo));
        LoopbackWorld world(n, ForcedOptions(algo));
        std::vector<std::vector<double>> out = input;
        ExpectAllOk(world.RunOnAll([&](int rank, Communicator& comm) {
          return comm.Allreduce(1, out[rank].data(), count, DataType::kDouble, OpKind::kSum);
        }));
        for (int r = 0; r < n; ++r) EXPECT_TRUE(SameBits(out[r], expected)) << "rank " << r;
      }
    }
  }
}

// The pairwise steps overlap consecutive steps and pace each send against its receive: with the
// send-ahead at its default (4 MiB, larger than every step here), at a few KiB (many paced round
// trips per step) and at an odd byte count (never a whole element), and sizes on either side of
// the 256 KiB receive window and of the reduce chunk, every rank still gets the fixed tree's bits.
TEST(RecursiveAllreduce, SendAheadAndWindowEdgesKeepTheTreesBits) {
  const std::size_t window = 256 * 1024 / sizeof(double);
  const std::vector<std::size_t> counts = {1,          511,        512,           513,
                                           window - 1, window + 1, 2 * window + 3};
  for (int n : {2, 3, 4, 5, 7}) {
    for (std::size_t ahead : {collective::kSendAheadBytes, std::size_t{4096}, std::size_t{1001}}) {
      for (AllreduceAlgorithm algo :
           {AllreduceAlgorithm::kRecursiveDoubling, AllreduceAlgorithm::kHalvingDoubling}) {
        SCOPED_TRACE(::testing::Message() << n << " ranks, send-ahead " << ahead << " B, "
                                          << AllreduceAlgorithmName(algo));
        CollectiveOptions options = ForcedOptions(algo);
        options.send_ahead_bytes = ahead;
        LoopbackWorld world(n, options);
        std::uint64_t seq = 0;
        for (std::size_t count : counts) {
          SCOPED_TRACE(::testing::Message() << count << " doubles");
          std::vector<std::vector<double>> input(n, std::vector<double>(count));
          std::mt19937_64 gen(n * 7919 + count + ahead);
          std::uniform_real_distribution<double> dist(-1e6, 1e6);
          for (auto& rank_data : input) {
            for (double& x : rank_data) x = dist(gen) * std::pow(10.0, static_cast<int>(gen() % 9));
          }
          const std::vector<double> expected = FoldTreeReduce(input, OpKind::kSum);
          std::vector<std::vector<double>> out = input;
          ++seq;
          ExpectAllOk(world.RunOnAll([&](int rank, Communicator& comm) {
            return comm.Allreduce(seq, out[rank].data(), count, DataType::kDouble, OpKind::kSum);
          }));
          for (int r = 0; r < n; ++r) EXPECT_TRUE(SameBits(out[r], expected)) << "rank " << r;
        }
      }
    }
  }
}

// The ring's order, which its reduce-scatter lap (shared with ReduceScatter) fixes: segment j
// (ceil(count/N) elements each) starts as rank j-1's value, travels down the ranks (ring_prev)
// and each rank on the way adds its own on the left, ending on rank j:
// v_j + (v_{j+1} + (... + (v_{j-2} + v_{j-1}))).
std::vector<double> RingOrderSum(const std::vector<std::vector<double>>& v) {
  const int n = static_cast<int>(v.size());
  const std::size_t count = v[0].size(), step = (count + n - 1) / n;
  std::vector<double> out(count);
  for (std::size_t i = 0; i < count; ++i) {
    const int j = static_cast<int>(i / step);
    double acc = v[(j + n - 1) % n][i];
    for (int k = 2; k <= n; ++k) acc = v[(j + n - k) % n][i] + acc;
    out[i] = acc;
  }
  return out;
}

TEST(RingAllreduce, SumsEachSegmentAlongTheRingBitForBit) {
  for (int n : {2, 3, 5, 7}) {
    LoopbackWorld world(n, ForcedOptions(AllreduceAlgorithm::kRing));
    std::uint64_t seq = 0;
    for (std::size_t count :
         {std::size_t{1}, static_cast<std::size_t>(2 * n + 1), std::size_t{100003}}) {
      SCOPED_TRACE(::testing::Message() << n << " ranks, " << count << " doubles");
      std::vector<std::vector<double>> input(n, std::vector<double>(count));
      std::mt19937_64 gen(n * 31 + count);
      std::uniform_real_distribution<double> dist(-1e6, 1e6);
      for (auto& rank_data : input) {
        for (double& x : rank_data) x = dist(gen) * std::pow(10.0, static_cast<int>(gen() % 12));
      }
      const std::vector<double> expected = RingOrderSum(input);
      std::vector<std::vector<double>> out = input;
      ++seq;
      ExpectAllOk(world.RunOnAll([&](int rank, Communicator& comm) {
        return comm.Allreduce(seq, out[rank].data(), count, DataType::kDouble, OpKind::kSum);
      }));
      for (int r = 0; r < n; ++r) EXPECT_TRUE(SameBits(out[r], expected)) << "rank " << r;
    }
  }
}

// Two quiet NaNs with different payloads, and NaN against numbers.
std::vector<float> NaNInput(int rank) {
  float nan_b = std::numeric_limits<float>::quiet_NaN();
  std::uint32_t bits = 0;
  std::memcpy(&bits, &nan_b, sizeof(bits));
  bits |= 0x1234 + static_cast<std::uint32_t>(rank);
  std::memcpy(&nan_b, &bits, sizeof(bits));
  const float x = static_cast<float>(rank);
  return rank % 2 == 0 ? std::vector<float>{nan_b, x, nan_b, x}
                       : std::vector<float>{x, nan_b, nan_b, x};
}

// Where operand order matters (max/min against a NaN pick different operands; sums keep one
// NaN's payload), every rank still gets the same bits, and max/min agree between the recursive
// algorithms (each element's result is computed by one rank in the halving-doubling and by all
// in the doubling, with the lower ranks on the left in both).
TEST(RecursiveAllreduce, EveryRankGetsTheSameBitsWithNaNs) {
  for (int n : {2, 3, 5, 8}) {
    for (OpKind op : {OpKind::kMax, OpKind::kMin, OpKind::kSum}) {
      SCOPED_TRACE(::testing::Message() << n << " ranks, " << OpKindName(op));
      std::vector<std::vector<std::vector<float>>> results;
      for (AllreduceAlgorithm algo :
           {AllreduceAlgorithm::kRecursiveDoubling, AllreduceAlgorithm::kHalvingDoubling}) {
        LoopbackWorld world(n, ForcedOptions(algo));
        std::vector<std::vector<float>> out(n);
        for (int r = 0; r < n; ++r) out[r] = NaNInput(r);
        ExpectAllOk(world.RunOnAll([&](int rank, Communicator& comm) {
          return comm.Allreduce(1, out[rank].data(), out[rank].size(), DataType::kFloat, op);
        }));
        for (int r = 1; r < n; ++r) EXPECT_TRUE(SameBits(out[0], out[r])) << "rank " << r;
        EXPECT_FALSE(std::isnan(out[0][3]));
        EXPECT_TRUE(std::isnan(out[0][2]));
        results.push_back(out);
      }
      // Which NaN payload a sum keeps depends on the compiled loop (vector or scalar tail), not
      // only on the operand order, so across algorithms only max/min must agree bit for bit.
      if (op != OpKind::kSum) {
        EXPECT_TRUE(SameBits(results[0][0], results[1][0]));
      }
    }
  }
}

// The cost formulas of docs/collectives.md, computed by hand for alpha = 1 s, 1 byte/s links
// and 2 bytes/s reduction (gamma = 0.5 s/byte), n = 8 bytes.
TEST(AllreduceChoice, PredictionsFollowTheDocumentedFormulas) {
  const LinkModel unit{1.0, 1.0, 2.0};
  // 8 ranks (q = 8, 3 steps, no fold).
  EXPECT_DOUBLE_EQ(PredictAllreduceSeconds(AllreduceAlgorithm::kTree, unit, 8, 8),
                   2 * 3 + 3 * 8 + 2 * 4);
  EXPECT_DOUBLE_EQ(PredictAllreduceSeconds(AllreduceAlgorithm::kRing, unit, 8, 8),
                   2 * 7 + 2.0 * 7 / 8 * 8 + 7.0 / 8 * 4);
  EXPECT_DOUBLE_EQ(PredictAllreduceSeconds(AllreduceAlgorithm::kRecursiveDoubling, unit, 8, 8),
                   3 * (1 + 8 + 4));
  EXPECT_DOUBLE_EQ(PredictAllreduceSeconds(AllreduceAlgorithm::kHalvingDoubling, unit, 8, 8),
                   2 * 3 + 2.0 * 7 / 8 * 8 + 7.0 / 8 * 4);
  // 6 ranks: q = 4, two fold pairs: + 2 alpha + 2 n beta + n gamma.
  const double fold = 2 + 2 * 8 + 4;
  EXPECT_DOUBLE_EQ(PredictAllreduceSeconds(AllreduceAlgorithm::kRecursiveDoubling, unit, 6, 8),
                   fold + 2 * (1 + 8 + 4));
  EXPECT_DOUBLE_EQ(PredictAllreduceSeconds(AllreduceAlgorithm::kHalvingDoubling, unit, 6, 8),
                   fold + 2 * 2 + 2.0 * 3 / 4 * 8 + 3.0 / 4 * 4);
  EXPECT_DOUBLE_EQ(PredictAllreduceSeconds(AllreduceAlgorithm::kTree, unit, 2, 8), 2 + 2 * 8 + 4);
  EXPECT_EQ(PredictAllreduceSeconds(AllreduceAlgorithm::kRing, unit, 1, 8), 0);
}

// With the default link model: small messages take recursive doubling (one lg p latency) except
// at 3 ranks, where the fold's two extra steps make the tree's round trip cheaper; large ones
// halving-doubling at powers of two and the ring where the fold's extra vector costs more than
// the ring's extra latency. Without partner links only tree and ring remain.
TEST(AllreduceChoice, DefaultLinkModelPicksByWorldAndSize) {
  AllreduceChoiceOptions o;
  o.recursive_links = true;
  EXPECT_EQ(ChooseAllreduce(o, 1, 4), AllreduceAlgorithm::kTree);
  EXPECT_EQ(ChooseAllreduce(o, 2, 4), AllreduceAlgorithm::kRecursiveDoubling);
  EXPECT_EQ(ChooseAllreduce(o, 3, 4), AllreduceAlgorithm::kTree);
  for (int n : {2, 4, 8}) {
    EXPECT_EQ(ChooseAllreduce(o, n, 4), AllreduceAlgorithm::kRecursiveDoubling) << n;
    EXPECT_EQ(ChooseAllreduce(o, n, 64 << 20), AllreduceAlgorithm::kHalvingDoubling) << n;
  }
  for (int n : {5, 6, 7}) EXPECT_EQ(ChooseAllreduce(o, n, 64 << 20), AllreduceAlgorithm::kRing);
  // Every choice is the cheapest prediction.
  for (int n = 2; n <= 8; ++n) {
    for (std::size_t bytes = 1; bytes <= (std::size_t{1} << 28); bytes *= 4) {
      const AllreduceAlgorithm chosen = ChooseAllreduce(o, n, bytes);
      for (AllreduceAlgorithm a : kAll) {
        EXPECT_LE(PredictAllreduceSeconds(chosen, o.link, n, bytes),
                  PredictAllreduceSeconds(a, o.link, n, bytes))
            << n << " ranks, " << bytes << " B: " << AllreduceAlgorithmName(chosen) << " vs "
            << AllreduceAlgorithmName(a);
      }
    }
  }
  o.recursive_links = false;
  EXPECT_EQ(ChooseAllreduce(o, 4, 4), AllreduceAlgorithm::kTree);
  EXPECT_EQ(ChooseAllreduce(o, 4, 64 << 20), AllreduceAlgorithm::kRing);
  o.forced = AllreduceAlgorithm::kHalvingDoubling;  // no partner links: the model decides
  EXPECT_EQ(ChooseAllreduce(o, 4, 4), AllreduceAlgorithm::kTree);
  o.recursive_links = true;
  EXPECT_EQ(ChooseAllreduce(o, 4, 4), AllreduceAlgorithm::kHalvingDoubling);
  o.forced.reset();
  o.ring_min_bytes = 1 << 20;  // rabit_reduce_ring_mincount: ring from there, never below
  EXPECT_EQ(ChooseAllreduce(o, 4, 1 << 20), AllreduceAlgorithm::kRing);
  EXPECT_EQ(ChooseAllreduce(o, 4, (1 << 20) - 1), AllreduceAlgorithm::kHalvingDoubling);
  // 6 ranks below the ring: the fold's whole extra vector makes the tree cheaper.
  EXPECT_EQ(ChooseAllreduce(o, 6, (1 << 20) - 1), AllreduceAlgorithm::kTree);
}

// A configured 1 Gbit/s, 50 us network: 8 ranks use recursive doubling for 4 bytes and
// halving-doubling from 1 MiB; at 7 ranks the fold's two steps tie the tree's 4 alpha, and ties
// go to the tree.
TEST(AllreduceChoice, ConfiguredGigabitLinkModel) {
  AllreduceChoiceOptions o;
  o.recursive_links = true;
  o.link.latency_seconds = 50e-6;
  o.link.bytes_per_second = 1e9 / 8;
  EXPECT_EQ(ChooseAllreduce(o, 8, 4), AllreduceAlgorithm::kRecursiveDoubling);
  EXPECT_EQ(ChooseAllreduce(o, 8, 1 << 20), AllreduceAlgorithm::kHalvingDoubling);
  EXPECT_EQ(ChooseAllreduce(o, 7, 64 << 20), AllreduceAlgorithm::kRing);
  EXPECT_EQ(ChooseAllreduce(o, 7, 4), AllreduceAlgorithm::kTree);
}

}  // namespace
}  // namespace rabit::testing
