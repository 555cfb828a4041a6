// Linked instead of mpi_engine.cc when treering is built without MPI (TREERING_MPI=OFF).
#include "engines/mpi/mpi_engine.h"

namespace rabit::engine {

bool MpiEngineAvailable() { return false; }

treering::Result<std::unique_ptr<Engine>> CreateMpiEngine(const EngineParams&) {
  return Status::InvalidInput("this build of treering has no MPI engine (TREERING_MPI=OFF)");
}

}  // namespace rabit::engine
