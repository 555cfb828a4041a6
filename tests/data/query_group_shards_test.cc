// data/query_group_shards.h on ranks as threads (tests/support/thread_world.h): the rows at the
// start of a rank that continue the previous rank's last query group move to the rank where
// that group starts, with their entries, labels and qids, in global order; group_ptr then
// counts whole groups on every rank.
#include "data/query_group_shards.h"

#include <cstdint>
#include <mutex>
#include <stdexcept>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "thread_world.h"

namespace treering::data {
namespace {

using Ids = std::vector<std::uint64_t>;

// The part of ten rows (row r has one entry, feature r, value and label r) that `rank` loads:
// rows [begin, end), each with qid `qids[r]`.
DMatrix Part(const Ids& qids, std::uint64_t begin, std::uint64_t end) {
  DMatrix m;
  for (std::uint64_t r = begin; r < end; ++r) {
    m.index.push_back(static_cast<std::uint32_t>(r));
    m.value.push_back(static_cast<float>(r));
    m.row_ptr.push_back(m.index.size());
    m.label.push_back(static_cast<float>(r));
    m.qid.push_back(qids[r]);
  }
  m.num_col = 10;
  return m;
}

TEST(QueryGroupShards, RowsContinuingAGroupMoveToItsRank) {
  const Ids qids = {1, 1, 1, 2, 2, 3, 3, 3, 3, 4};
  const std::uint64_t cuts[] = {0, 4, 7, 10};  // parts cut inside groups 2 and 3
  std::vector<DMatrix> parts(3);
  std::mutex mu;
  testing::ThreadWorld world(3);
  world.Run([&](int rank, rabit::Comm* comm) {
    DMatrix m = Part(qids, cuts[rank], cuts[rank + 1]);
    const Status s = AttachQueryGroups("data", "/nonexistent/train.libsvm", true, *comm, &m);
    if (!s.ok()) throw std::runtime_error(s.message());
    std::lock_guard<std::mutex> lock(mu);
    parts[rank] = std::move(m);
  });
  EXPECT_EQ(parts[0].qid, (Ids{1, 1, 1, 2, 2}));
  EXPECT_EQ(parts[0].label, (std::vector<float>{0, 1, 2, 3, 4}));
  EXPECT_EQ(parts[0].index, (std::vector<std::uint32_t>{0, 1, 2, 3, 4}));
  EXPECT_EQ(parts[0].group_ptr, (Ids{0, 3, 5}));
  EXPECT_EQ(parts[1].qid, (Ids{3, 3, 3, 3}));
  EXPECT_EQ(parts[1].label, (std::vector<float>{5, 6, 7, 8}));
  EXPECT_EQ(parts[1].row_ptr, (Ids{0, 1, 2, 3, 4}));
  EXPECT_EQ(parts[1].group_ptr, (Ids{0, 4}));
  EXPECT_EQ(parts[2].qid, (Ids{4}));
  EXPECT_EQ(parts[2].value, (std::vector<float>{9}));
  EXPECT_EQ(parts[2].group_ptr, (Ids{0, 1}));
}

// A qid whose rows come back after another group is an error on every rank, even when the two
// runs were loaded by different ranks.
TEST(QueryGroupShards, NonContiguousQidIsAnErrorOnEveryRank) {
  const Ids qids = {1, 1, 2, 2, 1, 1};
  const std::uint64_t cuts[] = {0, 3, 6};
  std::vector<std::string> errors(2);
  testing::ThreadWorld world(2);
  world.Run([&](int rank, rabit::Comm* comm) {
    DMatrix m = Part(qids, cuts[rank], cuts[rank + 1]);
    errors[rank] =
        AttachQueryGroups("data", "/nonexistent/train.libsvm", true, *comm, &m).message();
  });
  for (const std::string& e : errors) {
    EXPECT_NE(e.find("qid 1 appears again after other query groups"), std::string::npos) << e;
  }
}

}  // namespace
}  // namespace treering::data
