// What the engines share inside rabit: the Status names, the parameter list and the factory
// that picks one engine per process. The interface itself is public: rabit/engine.h.
#pragma once

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "base/status.h"
#include "rabit/engine.h"

namespace rabit::engine {

using treering::Status;
template <typename T>
using Result = treering::Result<T>;

// Parameters read from the environment and key=value arguments (later wins).
using ParamList = std::vector<std::pair<std::string, std::string>>;

// Chooses and starts the engine for these parameters (see rabit.h for the rules).
Result<std::unique_ptr<Engine>> CreateEngine(const ParamList& params);

// What rabit::LinkAddress() answers (rabit/link_address.h): set by the TCP engines' Start.
void SetLinkAddress(const std::string& host);

}  // namespace rabit::engine
