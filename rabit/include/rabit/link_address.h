// The address this rank advertised to its peers (rabit_host_ip, or the local address of its
// tracker connection: the interface that reaches the tracker), for the pre-flight link test
// that names it (docs/status.md). "" before Init and for engines without peers over TCP (the
// single engine, MPI).
#pragma once

#include <string>

namespace rabit {

std::string LinkAddress();

}  // namespace rabit
