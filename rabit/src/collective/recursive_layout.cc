#include "collective/recursive_layout.h"

#include <algorithm>

namespace rabit::collective {

RecursiveLayout RecursiveLayout::For(int world) {
  RecursiveLayout l;
  l.world = std::max(world, 1);
  while (l.core * 2 <= l.world) l.core *= 2;
  l.folded = l.world - l.core;
  return l;
}

int RecursiveLayout::Steps() const {
  int steps = 0;
  while ((1 << steps) < core) ++steps;
  return steps;
}

bool RecursiveLayout::SitsOut(int rank) const { return rank < 2 * folded && rank % 2 == 0; }

bool RecursiveLayout::TakesFold(int rank) const { return rank < 2 * folded && rank % 2 == 1; }

int RecursiveLayout::CoreIndex(int rank) const {
  if (SitsOut(rank)) return -1;
  return rank < 2 * folded ? rank / 2 : rank - folded;
}

int RecursiveLayout::RankOfCore(int core_index) const {
  return core_index < folded ? 2 * core_index + 1 : core_index + folded;
}

std::vector<int> RecursivePartners(int rank, int world) {
  const RecursiveLayout l = RecursiveLayout::For(world);
  std::vector<int> out;
  if (l.SitsOut(rank)) out.push_back(rank + 1);
  if (l.TakesFold(rank)) out.push_back(rank - 1);
  const int c = l.CoreIndex(rank);
  if (c >= 0) {
    for (int j = 0; j < l.Steps(); ++j) out.push_back(l.RankOfCore(c ^ (1 << j)));
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

}  // namespace rabit::collective
