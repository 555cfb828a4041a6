// Open MPI's MPI_Allreduce (float sum, in place), timed exactly like rabit_allreduce_bench:
//   mpirun -np 2 --mca btl tcp,self --mca btl_tcp_if_include lo mpi_allreduce_bench [bytes...]
#include "allreduce_timing.h"
#include "mpi_world.h"

namespace {

struct MpiComm : treering::bench::MpiWorld {
  void AllreduceSum(float* data, std::size_t n) {
    MPI_Allreduce(MPI_IN_PLACE, data, static_cast<int>(n), MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD);
  }
};

}  // namespace

int main(int argc, char** argv) {
  treering::bench::MpiSession mpi(&argc, &argv);
  MpiComm comm;
  const std::string label = "Open MPI allreduce np=" + std::to_string(comm.world());
  treering::bench::MeasureAll(comm, label.c_str(), treering::bench::SizesFromArgs(argc, argv));
  return 0;
}
