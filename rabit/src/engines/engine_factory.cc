// CreateEngine: picks the backend at run time from the environment and parameters:
//   rabit_engine=socket|robust|mpi|single wins; otherwise a tracker address -> robust engine
//   when restarts are on (TREERING_MAX_ATTEMPTS > 1), socket engine otherwise; Open MPI's
//   environment (OMPI_COMM_WORLD_SIZE) without a tracker -> MPI engine, neither -> single.
// Whether the MPI engine exists is the only build-time choice (TREERING_MPI).
#include <memory>

#include "engine_params.h"
#include "engines/engine.h"
#include "engines/mpi/mpi_engine.h"
#include "engines/robust/robust_start.h"
#include "engines/single/single_engine.h"
#include "engines/socket/socket_engine.h"
#include "slurm_rendezvous.h"

namespace rabit::engine {
namespace {

EngineChoice Resolve(const EngineParams& p) {
  if (p.engine != EngineChoice::kAuto) return p.engine;
  // Under a tracker: the robust engine when dead workers are restarted (it costs a copy of
  // every result and a checkpoint per round, docs/fault-tolerance.md), else the socket engine.
  if (!p.tracker_uri.empty()) {
    return p.max_attempts > 1 || p.elastic || p.elastic_join ? EngineChoice::kRobust
                                                             : EngineChoice::kSocket;
  }
  if (p.mpi_environment) return EngineChoice::kMpi;
  return EngineChoice::kSingle;
}

}  // namespace

treering::Result<std::unique_ptr<Engine>> CreateEngine(const ParamList& params) {
  auto parsed = ReadEngineParams(params);
  if (!parsed.ok()) return parsed.status();
  // A task of an srun step without a tracker: the step's task 0 starts one (slurm_rendezvous.h).
  if (Status s = JoinSlurmRendezvous(&parsed.value()); !s.ok()) return s;
  switch (Resolve(parsed.value())) {
    case EngineChoice::kSocket:
      return SocketEngine::Start(parsed.value());
    case EngineChoice::kRobust:
      return StartRobustEngine(parsed.value());
    case EngineChoice::kMpi:
      if (!MpiEngineAvailable()) {
        return Status::InvalidInput(
            "launched by mpirun (or rabit_engine=mpi) but this build has no MPI engine "
            "(configured with -DTREERING_MPI=OFF); rebuild with -DTREERING_MPI=ON, or launch "
            "with treering-submit so the socket engine is used");
      }
      return CreateMpiEngine(parsed.value());
    case EngineChoice::kSingle:
    case EngineChoice::kAuto:
      break;
  }
  return std::unique_ptr<Engine>(std::make_unique<SingleEngine>());
}

}  // namespace rabit::engine
