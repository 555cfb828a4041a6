// CreateEngine: picks the backend at run time from the environment and parameters.
#include <memory>

#include "engine.h"
#include "single/single_engine.h"

namespace rabit::engine {

treering::Result<std::unique_ptr<Engine>> CreateEngine(const ParamList& /*params*/) {
  // Only the single engine exists so far; the socket and MPI engines plug in here.
  return std::unique_ptr<Engine>(std::make_unique<SingleEngine>());
}

}  // namespace rabit::engine
