// Open MPI's MPI_Send/MPI_Recv ping-pong and MPI_Reduce/MPI_Gather/MPI_Scatter, timed exactly
// like rabit_p2p_bench:
//   mpirun -np 2 --mca btl tcp,self --mca btl_tcp_if_include lo mpi_p2p_bench pingpong [bytes...]
#include "mpi_world.h"
#include "p2p_timing.h"

namespace {

struct MpiComm : treering::bench::MpiWorld {
  void Send(float* data, std::size_t n, int peer) {
    MPI_Send(data, static_cast<int>(n), MPI_FLOAT, peer, 0, MPI_COMM_WORLD);
  }
  void Recv(float* data, std::size_t n, int peer) {
    MPI_Recv(data, static_cast<int>(n), MPI_FLOAT, peer, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  }
  void ReduceSum(float* data, std::size_t n, int root) {
    // In place at the root, as rabit::Reduce.
    MPI_Reduce(rank() == root ? MPI_IN_PLACE : data, rank() == root ? data : nullptr,
               static_cast<int>(n), MPI_FLOAT, MPI_SUM, root, MPI_COMM_WORLD);
  }
  void Gather(const float* send, std::size_t n, float* recv, int root) {
    MPI_Gather(send, static_cast<int>(n), MPI_FLOAT, recv, static_cast<int>(n), MPI_FLOAT, root,
               MPI_COMM_WORLD);
  }
  void Scatter(const float* send, std::size_t n, float* recv, int root) {
    MPI_Scatter(send, static_cast<int>(n), MPI_FLOAT, recv, static_cast<int>(n), MPI_FLOAT, root,
                MPI_COMM_WORLD);
  }
};

}  // namespace

int main(int argc, char** argv) {
  treering::bench::MpiSession mpi(&argc, &argv);
  const std::string what = argc > 1 ? argv[1] : "pingpong";
  MpiComm comm;
  const bool known = treering::bench::RunP2pBenchmark(
      comm, what, treering::bench::SizesFromArgs(argc > 1 ? argc - 1 : argc, argv + (argc > 1)),
      "Open MPI");
  return known ? 0 : 2;
}
