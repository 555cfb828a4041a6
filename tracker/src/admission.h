// Limits for connections that have not proved they belong to the job yet (no verified Hello,
// no legacy preamble). A stranger may open many such connections; each must stay cheap.
#pragma once

#include <cstdint>

namespace treering::tracker {

// The largest payload a Hello may announce. A Hello is a few short strings and integers, well
// under 1 KiB in practice; anything larger is refused before a byte of it is allocated.
inline constexpr std::uint64_t kMaxHelloPayload = 4096;

}  // namespace treering::tracker
