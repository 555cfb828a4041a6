// Shared by the libFuzzer target (peer_handshake_fuzzer.cc) and the bounded in-suite fuzz run
// (peer_handshake_fuzz_test.cc): plays arbitrary bytes as the other side of a fresh peer link
// and runs this side's ShakeHands on it.
#pragma once

#include <cstdint>
#include <span>
#include <string>

#include "base/status.h"

namespace rabit::bootstrap::fuzz {

inline constexpr char kToken[] = "fuzz-token";
inline constexpr std::size_t kMaxInput = 16 * 1024;  // fits a socketpair's buffer: no blocking

// input[0] picks the side (even: accept, odd: dial); the rest is everything the other side
// sends before it hangs up (cut at kMaxInput). Returns "" when ShakeHands behaved (a Status of
// kProtocol / kNetwork / kTimeout with a message, or a rank it was allowed to return), else what
// went wrong. `error`, when given, receives ShakeHands' error message.
std::string CheckHandshakeOn(std::span<const std::uint8_t> input, std::string* error = nullptr);

}  // namespace rabit::bootstrap::fuzz
