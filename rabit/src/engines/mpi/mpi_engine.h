// The Open MPI engine: collectives are MPI's own (MPI_Allreduce with the matching MPI datatype
// and op, MPI_Bcast, MPI_Allgatherv), not MPI used as a byte pipe. Built only with TREERING_MPI;
// otherwise MpiEngineAvailable() is false and CreateMpiEngine returns an error.
#pragma once

#include <memory>

#include "engine_params.h"
#include "engines/engine.h"

namespace rabit::engine {

bool MpiEngineAvailable();
treering::Result<std::unique_ptr<Engine>> CreateMpiEngine(const EngineParams& params);

}  // namespace rabit::engine
