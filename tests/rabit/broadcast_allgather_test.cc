// Broadcast from every root and Allgather with unequal (zero included) slices, over N
// in-process ranks on loopback links, against the data the owning rank generated.
#include <string>

#include <gtest/gtest.h>

#include "expected_reduce.h"
#include "loopback_world.h"

namespace rabit::testing {
namespace {

CollectiveOptions TestOptions() {
  CollectiveOptions options;
  options.timeout_seconds = 20;
  return options;
}

class WorldTest : public ::testing::TestWithParam<int> {};

TEST_P(WorldTest, BroadcastFromEveryRootDeliversRootsBytes) {
  LoopbackWorld world(GetParam(), TestOptions());
  std::uint64_t seq = 0;
  for (int root = 0; root < world.size(); ++root) {
    for (std::size_t bytes : {std::size_t{0}, std::size_t{1}, std::size_t{1000003}}) {
      const std::uint64_t s = ++seq;
      const auto expected = RankData<std::uint8_t>(root, s, bytes);
      SCOPED_TRACE(::testing::Message() << "root " << root << " bytes " << bytes);
      ExpectAllOk(world.RunOnAll([&](int rank, Communicator& comm) -> treering::Status {
        auto data = RankData<std::uint8_t>(rank, s, bytes);  // non-roots start with other bytes
        treering::Status status = comm.Broadcast(s, data.data(), bytes, root);
        if (!status.ok()) return status;
        if (data != expected) return treering::Status::Internal("wrong broadcast payload");
        return treering::Status::Ok();
      }));
    }
  }
}

// Slice sizes with zeros, odd sizes and one large slice, different for every case.
std::vector<std::size_t> SliceSizes(int world, std::uint64_t seed) {
  std::vector<std::size_t> sizes(world);
  for (int r = 0; r < world; ++r) {
    const std::uint64_t h = (seed * 31 + static_cast<std::uint64_t>(r)) * 2654435761u;
    sizes[r] = (r % 3 == 1) ? 0 : static_cast<std::size_t>(h % 9973);
  }
  if (seed % 2 == 0) sizes[static_cast<std::size_t>(seed) % world] = 700001;
  return sizes;
}

TEST_P(WorldTest, AllgatherWithUnequalSlicesAssemblesEveryRanksSlice) {
  LoopbackWorld world(GetParam(), TestOptions());
  for (std::uint64_t s = 1; s <= 6; ++s) {
    const auto sizes = SliceSizes(world.size(), s);
    std::vector<std::uint8_t> expected;
    for (int r = 0; r < world.size(); ++r) {
      const auto slice = RankData<std::uint8_t>(r, s, sizes[r]);
      expected.insert(expected.end(), slice.begin(), slice.end());
    }
    ExpectAllOk(world.RunOnAll([&](int rank, Communicator& comm) -> treering::Status {
      std::vector<std::uint8_t> buf(expected.size(), 0xEE);
      std::size_t offset = 0;
      for (int r = 0; r < rank; ++r) offset += sizes[r];
      const auto mine = RankData<std::uint8_t>(rank, s, sizes[rank]);
      std::copy(mine.begin(), mine.end(), buf.begin() + static_cast<std::ptrdiff_t>(offset));
      treering::Status status = comm.Allgather(s, buf.data(), sizes);
      if (!status.ok()) return status;
      if (buf != expected) return treering::Status::Internal("wrong allgather result");
      return treering::Status::Ok();
    }));
  }
}

TEST_P(WorldTest, MixedSequenceOfOpsStaysInStep) {
  LoopbackWorld world(GetParam(), TestOptions());
  ExpectAllOk(world.RunOnAll([&](int rank, Communicator& comm) -> treering::Status {
    for (std::uint64_t s = 1; s <= 60; ++s) {
      double x = rank + 1.0;
      treering::Status status = comm.Allreduce(s * 3, &x, 1, DataType::kDouble, OpKind::kSum);
      if (!status.ok()) return status;
      const double n = world.size();
      if (x != n * (n + 1) / 2) return treering::Status::Internal("wrong sum");
      std::uint64_t token = rank == 0 ? s : 0;
      status = comm.Broadcast(s * 3 + 1, &token, sizeof(token), static_cast<int>(s) % world.size());
      if (!status.ok()) return status;
    }
    return treering::Status::Ok();
  }));
}

INSTANTIATE_TEST_SUITE_P(Worlds, WorldTest, ::testing::Values(1, 2, 3, 4, 7, 8),
                         [](const ::testing::TestParamInfo<int>& info) {
                           // append(), not "N" + ...: GCC 12 warns falsely (-Wrestrict).
                           return std::string("N").append(std::to_string(info.param));
                         });

}  // namespace
}  // namespace rabit::testing
