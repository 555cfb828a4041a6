// The Open MPI side of the comm benchmarks, set up one way for mpi_allreduce_bench and
// mpi_p2p_bench: MPI_Init / MPI_Finalize held for main's scope, and MPI_COMM_WORLD as the part
// of a Comm that allreduce_timing.h needs on every side (rank, world size, barrier, max over
// ranks). Each benchmark adds its own operations on top.
#pragma once

#include <mpi.h>

#include <cstddef>

namespace treering::bench {

// MPI_Init when made, MPI_Finalize when main's scope ends.
class MpiSession {
 public:
  MpiSession(int* argc, char*** argv) { MPI_Init(argc, argv); }
  ~MpiSession() { MPI_Finalize(); }
  MpiSession(const MpiSession&) = delete;
  MpiSession& operator=(const MpiSession&) = delete;
};

struct MpiWorld {
  int rank() const {
    int r = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &r);
    return r;
  }
  int world() const {
    int w = 0;
    MPI_Comm_size(MPI_COMM_WORLD, &w);
    return w;
  }
  void Barrier() { MPI_Barrier(MPI_COMM_WORLD); }
  void MaxOverRanks(double* data, std::size_t n) {
    MPI_Allreduce(MPI_IN_PLACE, data, static_cast<int>(n), MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  }
};

}  // namespace treering::bench
