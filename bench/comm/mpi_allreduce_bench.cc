// Open MPI's MPI_Allreduce (float sum, in place), timed exactly like rabit_allreduce_bench:
//   mpirun -np 2 --mca btl tcp,self --mca btl_tcp_if_include lo mpi_allreduce_bench [bytes...]
#include <mpi.h>

#include "allreduce_timing.h"

namespace {

struct MpiComm {
  int rank() const {
    int r = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &r);
    return r;
  }
  void Barrier() { MPI_Barrier(MPI_COMM_WORLD); }
  void AllreduceSum(float* data, std::size_t n) {
    MPI_Allreduce(MPI_IN_PLACE, data, static_cast<int>(n), MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD);
  }
  void MaxOverRanks(double* data, std::size_t n) {
    MPI_Allreduce(MPI_IN_PLACE, data, static_cast<int>(n), MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  }
};

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int world = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &world);
  MpiComm comm;
  const std::string label = "Open MPI allreduce np=" + std::to_string(world);
  treering::bench::MeasureAll(comm, label.c_str(), treering::bench::SizesFromArgs(argc, argv));
  MPI_Finalize();
  return 0;
}
