// Cut points on N ranks (threads behind rabit::Comm) equal one process's bit for bit, for any
// sharding of the rows, on columns with far more distinct values than a rank's sketch keeps
// (8 * max_bin): there every rank prunes its own summary, and only the global selection of
// global_prune.cc gives back the single-process summary.
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "booster/tree/sketch/hist_cuts.h"
#include "thread_world.h"

namespace treering::booster {
namespace {

constexpr std::uint32_t kFeatures = 8;

// Columns of several shapes: continuous; rounded (long runs of equal values); sparse; -0, +0
// and negatives; only in the last fifth of the rows (one rank sees it); few distinct values
// (exact path); one value in 40 % of the rows; integers up to 3000.
data::DMatrix MakeData(std::size_t rows, std::uint32_t seed) {
  std::mt19937 rng(seed);
  std::normal_distribution<float> normal(0, 1);
  std::uniform_real_distribution<float> unit(0, 1);
  data::DMatrix dm;
  dm.row_ptr.assign(1, 0);
  for (std::size_t r = 0; r < rows; ++r) {
    auto add = [&](std::uint32_t f, float v) {
      dm.index.push_back(f);
      dm.value.push_back(v);
    };
    add(0, normal(rng) * 3 + 1);
    add(1, std::round(normal(rng) * 500) / 100);
    if (unit(rng) < 0.3f) add(2, unit(rng) * 1e4f);
    const float z = unit(rng);
    add(3, z < 0.1f ? -0.0f : z < 0.2f ? 0.0f : normal(rng));
    if (r >= rows * 4 / 5) add(4, std::exp(normal(rng)));
    add(5, std::floor(unit(rng) * 7));
    add(6, unit(rng) < 0.4f ? 2.5f : normal(rng));
    add(7, std::floor(unit(rng) * 3000));
    dm.row_ptr.push_back(dm.index.size());
    dm.label.push_back(unit(rng) < 0.5f ? 0.0f : 1.0f);
  }
  dm.num_col = kFeatures;
  return dm;
}

// The rows of dm whose owner is `rank`, in their order.
data::DMatrix Shard(const data::DMatrix& dm, const std::vector<int>& owner, int rank) {
  data::DMatrix out;
  out.row_ptr.assign(1, 0);
  for (std::size_t r = 0; r < dm.NumRows(); ++r) {
    if (owner[r] != rank) continue;
    for (std::uint64_t k = dm.row_ptr[r]; k < dm.row_ptr[r + 1]; ++k) {
      out.index.push_back(dm.index[k]);
      out.value.push_back(dm.value[k]);
    }
    out.row_ptr.push_back(out.index.size());
    out.label.push_back(dm.label[r]);
  }
  out.num_col = dm.num_col;
  return out;
}

std::vector<std::uint32_t> Bits(const std::vector<float>& v) {
  std::vector<std::uint32_t> out(v.size());
  if (!v.empty()) std::memcpy(out.data(), v.data(), v.size() * sizeof(float));
  return out;
}

void ExpectSameCuts(const HistogramCuts& got, const HistogramCuts& want) {
  EXPECT_EQ(got.ptrs, want.ptrs);
  EXPECT_EQ(Bits(got.values), Bits(want.values));
  EXPECT_EQ(Bits(got.min_vals), Bits(want.min_vals));
}

// Contiguous equal shards (what the loader gives), uneven contiguous ones with rank 0 empty,
// and rows dealt at random.
std::vector<std::vector<int>> Shardings(std::size_t rows, int world, std::uint32_t seed) {
  std::vector<std::vector<int>> out(3, std::vector<int>(rows));
  std::mt19937 rng(seed);
  std::vector<std::size_t> starts(world, 0);  // starts[0] = starts[1] = 0: rank 0 is empty
  for (int r = 2; r < world; ++r) starts[r] = rng() % rows;
  std::sort(starts.begin(), starts.end());
  for (std::size_t i = 0; i < rows; ++i) {
    out[0][i] = static_cast<int>(i * world / rows);
    out[1][i] =
        static_cast<int>(std::upper_bound(starts.begin(), starts.end(), i) - starts.begin()) - 1;
    out[2][i] = static_cast<int>(rng() % world);
  }
  return out;
}

void CheckWorlds(std::size_t rows, int max_bin, std::uint32_t seed) {
  const data::DMatrix all = MakeData(rows, seed);
  const HistogramCuts single = BuildCuts(all, kFeatures, max_bin, 1, rabit::DefaultComm());
  for (int world : {2, 3, 4, 7}) {
    const auto shardings = Shardings(rows, world, seed + world);
    for (std::size_t s = 0; s < shardings.size(); ++s) {
      SCOPED_TRACE("world " + std::to_string(world) + " sharding " + std::to_string(s));
      std::vector<data::DMatrix> shards;
      for (int r = 0; r < world; ++r) shards.push_back(Shard(all, shardings[s], r));
      std::vector<HistogramCuts> cuts(world);
      treering::testing::ThreadWorld(world).Run([&](int rank, rabit::Comm* comm) {
        cuts[rank] = BuildCuts(shards[rank], kFeatures, max_bin, 2, *comm);
      });
      for (int r = 0; r < world; ++r) ExpectSameCuts(cuts[r], single);
    }
  }
}

TEST(GlobalPrune, CutsEqualOneProcessForAnySharding) {
  CheckWorlds(20000, 16, 1);   // 128 summary entries: every continuous column is pruned
  CheckWorlds(30000, 256, 2);  // the default max_bin: each rank prunes at 2048 entries
}

TEST(GlobalPrune, TinyShardsAndOneValuePerRank) {
  CheckWorlds(40, 2, 3);  // 16 entries per summary, a few rows per rank
}

}  // namespace
}  // namespace treering::booster
