// How many threads a loop deserves. Starting an OpenMP region costs microseconds (and much
// more on a loaded machine, where idle workers spin), so loops over little work run inline.
#pragma once

#include <cstddef>

namespace treering::booster {

// Below this many elementary operations a loop runs on the calling thread.
inline constexpr std::size_t kMinParallelWork = 1 << 14;

inline int ThreadsFor(std::size_t work, int nthread) {
  return work < kMinParallelWork ? 1 : nthread;
}

}  // namespace treering::booster
