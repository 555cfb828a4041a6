// Pre-flight's link test (docs/status.md): before any data is read, every rank listens on a
// fresh port of the address it advertised to its peers and dials every other rank's, so a
// firewall, a wrong interface or an address other hosts cannot route to fails at once in one
// line naming both ends -- host, interface and address -- instead of as a hang or a bootstrap
// timeout later:
//   rank 1 (h1, eth0 10.0.0.2:40123) cannot reach rank 3 (h3, eth0 10.0.0.4:40555): connection
//   refused
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "base/status.h"

namespace treering::cli {

// Where one rank listened for the test.
struct LinkEndpoint {
  std::string host;       // gethostname()
  std::string interface;  // the interface holding `address` ("?" when none does)
  std::string address;    // numeric, as the rank advertised it
  int port = 0;
  std::string error;  // why it could not listen ("" when it did)
};

// "rank 1 (h1, eth0 10.0.0.2:40123)"; "[addr]:port" for IPv6.
std::string DescribeEndpoint(int rank, const LinkEndpoint& e);

// One failed dial: `from` could not reach `to`, and why.
struct LinkFailure {
  int from = 0;
  int to = 0;
  std::string reason;
};

// The line for these failures (at most 8 named, then "and N more"), or nothing.
std::optional<std::string> LinkTestMismatch(const std::vector<LinkEndpoint>& endpoints,
                                            const std::vector<LinkFailure>& failures);

// Collectives (two AllgatherV): every rank fails alike when any pair failed. Skipped with one
// rank or when the engine has no TCP peers (rabit::LinkAddress() empty: MPI, single).
Status RunLinkTest(double timeout_s);

}  // namespace treering::cli
