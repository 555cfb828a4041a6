// libFuzzer target for the worker's peer handshake (built only with -DTREERING_FUZZ=ON and
// clang; see docs/protocol.md): each input is the other side of a fresh link, fed to
// ShakeHands over a socketpair (peer_handshake_harness.h). A crash, a sanitizer report, a hang,
// an accepted link or an error of the wrong kind is a finding.
#include <cstdint>
#include <cstdio>
#include <cstdlib>

#include "peer_handshake_harness.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string finding = rabit::bootstrap::fuzz::CheckHandshakeOn({data, size});
  if (!finding.empty()) {
    std::fprintf(stderr, "fuzz finding: %s\n", finding.c_str());
    std::abort();
  }
  return 0;
}
