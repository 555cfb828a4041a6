// How many threads a learner's loop deserves, for code that holds a thread count as an int (the
// tree learner's internals, objectives and metrics): the one rule of base/context.h with the
// learners' grain, kBoosterGrain (below 2^14 elementary operations inline, above on every
// thread). Loops that split float sums by thread get exactly the counts they got before the
// rule moved to base, so models stay byte-identical.
#pragma once

#include <cstddef>

#include "base/context.h"

namespace treering::booster {

inline int ThreadsFor(std::size_t work, int nthread) {
  return treering::ThreadsFor(work, nthread, kBoosterGrain);
}

}  // namespace treering::booster
