// Histogram synchronisation of one tree, two ways, with Open MPI over TCP on loopback:
//   allreduce       treering's way: every rank gets every node's summed histogram (one
//                   MPI_Allreduce of the level's contiguous int64 buffer per level);
//   reduce-scatter  LightGBM's way: rank r gets only its features' sums
//                   (MPI_Reduce_scatter_block), finds the best split of each node over them,
//                   and the per-node best splits are exchanged (MPI_Allgather, 32 B per node).
// The level sizes are those of a depth-8 tree on HIGGS-like data (28 features x 256 bins x
// 16 B = 112 KiB per node; 1 root, then 1, 2, 4, ... 64 smaller children built per level).
//   mpirun -np N --mca btl tcp,self --mca btl_tcp_if_include lo hist_sync_bench [reps]
// Prints per level and for the whole tree the median time of each way (max over ranks).
#include <mpi.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

namespace {

constexpr std::size_t kNodeBytes = 28 * 256 * 16;
constexpr std::size_t kSplitRecordBytes = 32;

double Now() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

double MaxOverRanks(double v) {
  MPI_Allreduce(MPI_IN_PLACE, &v, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  return v;
}

double Median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

// One level, allreduce: all nodes' histograms summed on every rank.
double TimeAllreduce(std::vector<std::int64_t>* buf) {
  MPI_Barrier(MPI_COMM_WORLD);
  const double t0 = Now();
  MPI_Allreduce(MPI_IN_PLACE, buf->data(), static_cast<int>(buf->size()), MPI_INT64_T, MPI_SUM,
                MPI_COMM_WORLD);
  return MaxOverRanks(Now() - t0);
}

// One level, reduce-scatter by feature owner + allgather of each rank's best split per node.
double TimeReduceScatter(std::vector<std::int64_t>* buf, std::vector<std::int64_t>* mine,
                         std::size_t nodes, int world) {
  std::vector<char> splits(nodes * kSplitRecordBytes), all(nodes * kSplitRecordBytes * world);
  MPI_Barrier(MPI_COMM_WORLD);
  const double t0 = Now();
  MPI_Reduce_scatter_block(buf->data(), mine->data(), static_cast<int>(mine->size()), MPI_INT64_T,
                           MPI_SUM, MPI_COMM_WORLD);
  MPI_Allgather(splits.data(), static_cast<int>(splits.size()), MPI_BYTE, all.data(),
                static_cast<int>(splits.size()), MPI_BYTE, MPI_COMM_WORLD);
  return MaxOverRanks(Now() - t0);
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, world = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &world);
  const int reps = argc > 1 ? std::max(3, std::atoi(argv[1])) : 15;
  const std::vector<std::size_t> level_nodes = {1, 1, 2, 4, 8, 16, 32, 64};
  if (rank == 0) {
    std::printf("# %d ranks, %d reps, median ms (max over ranks)\n", world, reps);
    std::printf("# level nodes bytes allreduce_ms reduce_scatter_ms\n");
  }
  double total_ar = 0, total_rs = 0;
  for (std::size_t level = 0; level < level_nodes.size(); ++level) {
    const std::size_t nodes = level_nodes[level];
    // Padded to a multiple of the world size so every rank owns an equal slice.
    std::size_t count = nodes * kNodeBytes / sizeof(std::int64_t);
    count = (count + world - 1) / world * world;
    std::vector<std::int64_t> buf(count, 1), mine(count / world);
    std::vector<double> ar, rs;
    for (int i = 0; i < reps + 2; ++i) {  // the first two of each are warm-up
      const double a = TimeAllreduce(&buf);
      const double r = TimeReduceScatter(&buf, &mine, nodes, world);
      if (i >= 2) {
        ar.push_back(a);
        rs.push_back(r);
      }
    }
    total_ar += Median(ar);
    total_rs += Median(rs);
    if (rank == 0) {
      std::printf("%zu %zu %zu %.3f %.3f\n", level, nodes, count * sizeof(std::int64_t),
                  Median(ar) * 1e3, Median(rs) * 1e3);
    }
  }
  if (rank == 0) {
    std::printf("tree: allreduce %.2f ms, reduce-scatter + split allgather %.2f ms (ratio %.2f)\n",
                total_ar * 1e3, total_rs * 1e3, total_rs / total_ar);
  }
  MPI_Finalize();
  return 0;
}
