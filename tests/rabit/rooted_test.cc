// The binomial Reduce / Gather / Scatter (and V forms) over in-process ranks with real loopback
// message links: worlds of 1, 2, 3, 4, 5 and 8 ranks, every root, every dtype, against
// expectations computed locally from seeded per-rank data. Also: non-root buffers of Reduce are
// left as they were, and a bad root fails on every rank with the call named.
#include <cstring>
#include <string>

#include <gtest/gtest.h>

#include "collective/reducer.h"
#include "collective/rooted_algorithms.h"
#include "expected_reduce.h"
#include "message_world.h"

namespace rabit::testing {
namespace {

using transport::Mailbox;
using treering::Status;

void ExpectAllOk(const std::vector<Status>& statuses, const std::string& what) {
  for (std::size_t r = 0; r < statuses.size(); ++r) {
    EXPECT_TRUE(statuses[r].ok()) << what << ": rank " << r << ": " << statuses[r].message();
  }
}

class Rooted : public ::testing::TestWithParam<int> {};

template <typename T>
void ReduceCase(MessageWorld& world, OpKind op, std::size_t count, std::uint64_t seed) {
  const int n = world.size();
  for (int root = 0; root < n; ++root) {
    auto statuses = world.RunOnAll([&](int rank, Mailbox& box) -> Status {
      collective::ScratchArena scratch;
      auto reduce = collective::SelectReducer(detail::TypeOf<T>(), op);
      if (!reduce.ok()) return reduce.status();
      std::vector<T> buf = RankData<T>(rank, seed, count);
      Status s = collective::BinomialReduce(box, reinterpret_cast<std::uint8_t*>(buf.data()), count,
                                            detail::TypeOf<T>(), reduce.value(), root, scratch);
      if (!s.ok()) return s;
      const std::vector<T> want =
          rank == root ? ExpectedReduce<T>(n, seed, count, op) : RankData<T>(rank, seed, count);
      if (count != 0 && std::memcmp(buf.data(), want.data(), count * sizeof(T)) != 0) {
        return Status::Internal(rank == root ? "wrong reduction" : "non-root buffer changed");
      }
      return Status::Ok();
    });
    ExpectAllOk(statuses, "Reduce " + std::to_string(count) + " root " + std::to_string(root));
  }
}

TEST_P(Rooted, ReduceEveryDtypeOpAndRoot) {
  MessageWorld world(GetParam());
  std::uint64_t seed = 0;
  for (std::size_t count : {std::size_t{0}, std::size_t{1}, std::size_t{7}, std::size_t{4099}}) {
    ReduceCase<std::int8_t>(world, OpKind::kSum, count, ++seed);
    ReduceCase<std::uint8_t>(world, OpKind::kBitOR, count, ++seed);
    ReduceCase<std::int16_t>(world, OpKind::kMin, count, ++seed);
    ReduceCase<std::uint16_t>(world, OpKind::kMax, count, ++seed);
    ReduceCase<std::int32_t>(world, OpKind::kSum, count, ++seed);
    ReduceCase<std::uint32_t>(world, OpKind::kMax, count, ++seed);
    ReduceCase<std::int64_t>(world, OpKind::kSum, count, ++seed);
    ReduceCase<std::uint64_t>(world, OpKind::kBitOR, count, ++seed);
    ReduceCase<float>(world, OpKind::kSum, count, ++seed);
    ReduceCase<double>(world, OpKind::kMin, count, ++seed);
  }
}

// Rank r's part: 3 * r + skew bytes (rank 1's is empty when skew is 0 ... any zero included).
std::vector<std::size_t> Slices(int world, std::size_t skew) {
  std::vector<std::size_t> out(world);
  for (int r = 0; r < world; ++r) out[r] = (r % 3 == 1) ? 0 : 3 * r + skew;
  return out;
}

std::vector<std::uint8_t> Part(int rank, std::size_t bytes) {
  return RankData<std::uint8_t>(rank, 77, bytes);
}

TEST_P(Rooted, GatherVAndScatterVEveryRoot) {
  MessageWorld world(GetParam());
  const int n = world.size();
  for (std::size_t skew : {std::size_t{0}, std::size_t{5}, std::size_t{70000}}) {
    const std::vector<std::size_t> slices = Slices(n, skew);
    std::vector<std::uint8_t> all;
    for (int r = 0; r < n; ++r) {
      const auto p = Part(r, slices[r]);
      all.insert(all.end(), p.begin(), p.end());
    }
    for (int root = 0; root < n; ++root) {
      auto gathered = world.RunOnAll([&](int rank, Mailbox& box) -> Status {
        collective::ScratchArena scratch;
        const auto mine = Part(rank, slices[rank]);
        std::vector<std::uint8_t> recv(rank == root ? all.size() : 0);
        Status s = collective::BinomialGather(box, mine.data(), recv.data(), slices, root, scratch);
        if (!s.ok()) return s;
        if (rank == root && recv != all) return Status::Internal("wrong gather");
        return Status::Ok();
      });
      ExpectAllOk(gathered,
                  "GatherV skew " + std::to_string(skew) + " root " + std::to_string(root));
      auto scattered = world.RunOnAll([&](int rank, Mailbox& box) -> Status {
        collective::ScratchArena scratch;
        std::vector<std::uint8_t> recv(slices[rank]);
        const std::uint8_t* send = rank == root ? all.data() : nullptr;
        Status s = collective::BinomialScatter(box, send, recv.data(), slices, root, scratch);
        if (!s.ok()) return s;
        if (recv != Part(rank, slices[rank])) return Status::Internal("wrong scatter");
        return Status::Ok();
      });
      ExpectAllOk(scattered,
                  "ScatterV skew " + std::to_string(skew) + " root " + std::to_string(root));
    }
  }
}

TEST_P(Rooted, BadRootNamesTheCall) {
  MessageWorld world(GetParam());
  auto statuses = world.RunOnAll([&](int, Mailbox& box) -> Status {
    collective::ScratchArena scratch;
    std::int32_t v = 1;
    auto reduce = collective::SelectReducer(DataType::kInt32, OpKind::kSum);
    return collective::BinomialReduce(box, reinterpret_cast<std::uint8_t*>(&v), 1, DataType::kInt32,
                                      reduce.value(), GetParam(), scratch);
  });
  for (const Status& s : statuses) {
    ASSERT_FALSE(s.ok());
    EXPECT_NE(s.message().find("Reduce: root"), std::string::npos) << s.message();
  }
}

INSTANTIATE_TEST_SUITE_P(Worlds, Rooted, ::testing::Values(1, 2, 3, 4, 5, 8));

}  // namespace
}  // namespace rabit::testing
