// What a process may still allocate, for checks that refuse a job up front ("needs ~X MiB, Y
// available") instead of letting it die in std::bad_alloc or the OOM killer halfway through.
#pragma once

#include <cstdint>
#include <string>

namespace treering {

// The machine's MemAvailable, or less when an address-space limit (ulimit -v) leaves less room
// beside what is mapped already. UINT64_MAX when neither can be read.
std::uint64_t AvailableMemoryBytes();

// "1221 MiB": how budget errors print sizes.
std::string Mebibytes(std::uint64_t bytes);

}  // namespace treering
