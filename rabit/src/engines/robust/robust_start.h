// Starts the robust engine under a tracker (engine_factory.cc picks it; see
// docs/fault-tolerance.md for when).
#pragma once

#include <memory>

#include "engine_params.h"
#include "engines/engine.h"

namespace rabit::engine {

treering::Result<std::unique_ptr<Engine>> StartRobustEngine(const EngineParams& params);

}  // namespace rabit::engine
