// Which of this machine's addresses reaches the hosts: the tracker binds and advertises it
// (--host-ip, when not given), and mpirun's TCP traffic is kept on its subnet.
#pragma once

#include <string>

#include "base/status.h"
#include "launch.h"

namespace treering::launch {

// The local address the kernel's routing table uses to reach `host` (resolved by name or
// numeric, IPv4 or IPv6): a UDP socket connected to it, then getsockname. Sends nothing.
Result<std::string> RouteAddressTo(const Host& host);
// The subnet of the interface holding `ip`, as "NETWORK/PREFIX" (Open MPI's *_if_include
// syntax); an error when no interface holds it.
Result<std::string> SubnetOf(const std::string& ip);
// True for 127.0.0.0/8 and ::1.
bool IsLoopback(const std::string& ip);

}  // namespace treering::launch
