#include "elastic_restart.h"

#include <cstdio>

#include "rabit/rabit.h"

namespace treering::cli {

Status RepeatWhileWorldChanges(const std::function<Status()>& train) {
  for (;;) {
    try {
      return train();
    } catch (const rabit::WorldChanged& e) {
      // Every survivor prints it: each one's own new rank is what a user looks for.
      std::fprintf(stderr, "%s; setting up again as rank %d of %d\n", e.what(), rabit::GetRank(),
                   rabit::GetWorldSize());
      std::fflush(stderr);
    }
  }
}

}  // namespace treering::cli
