#include "collective/rank_placement.h"

#include <unistd.h>

#include <algorithm>
#include <fstream>
#include <map>
#include <string>
#include <thread>

namespace rabit::collective {
namespace {

std::uint64_t Fnv1a(const std::string& text) {
  std::uint64_t h = 1469598103934665603ULL;
  for (unsigned char c : text) {
    h ^= c;
    h *= 1099511628211ULL;
  }
  return h;
}

// The boot id is per kernel, shared by every namespace of it; the host name is the fallback
// where /proc is not mounted (one rank a host name is still right on real clusters).
std::string MachineName() {
  std::ifstream in("/proc/sys/kernel/random/boot_id");
  std::string id;
  if (in && std::getline(in, id) && !id.empty()) return "boot:" + id;
  char host[256] = {};
  if (gethostname(host, sizeof(host) - 1) == 0) return std::string("host:") + host;
  return "unknown";
}

}  // namespace

RankPlacement LocalPlacement(int parent) {
  RankPlacement p;
  p.parent = parent;
  p.cores = static_cast<std::int32_t>(std::max(1U, std::thread::hardware_concurrency()));
  p.machine = Fnv1a(MachineName());
  return p;
}

int RanksBeyondCores(const std::vector<RankPlacement>& ranks) {
  std::map<std::uint64_t, std::pair<int, int>> machines;  // machine -> (ranks, fewest cores)
  for (const RankPlacement& r : ranks) {
    const int cores = std::max(1, static_cast<int>(r.cores));
    auto it = machines.emplace(r.machine, std::make_pair(0, cores)).first;
    it->second.first += 1;
    it->second.second = std::min(it->second.second, cores);
  }
  int beyond = 0;
  for (const auto& [machine, m] : machines) beyond = std::max(beyond, m.first - m.second);
  return beyond;
}

}  // namespace rabit::collective
