#include "base/memory_budget.h"

#include <sys/resource.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <limits>

namespace treering {
namespace {

constexpr std::uint64_t kUnknown = std::numeric_limits<std::uint64_t>::max();

// A "Key:   123 kB" line of a /proc file, in bytes; kUnknown when absent.
std::uint64_t ProcKilobytes(const char* file, const std::string& key) {
  std::ifstream in(file);
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind(key, 0) == 0) return std::strtoull(line.c_str() + key.size(), nullptr, 10) << 10;
  }
  return kUnknown;
}

}  // namespace

std::uint64_t AvailableMemoryBytes() {
  std::uint64_t available = ProcKilobytes("/proc/meminfo", "MemAvailable:");
  rlimit limit{};
  if (::getrlimit(RLIMIT_AS, &limit) == 0 && limit.rlim_cur != RLIM_INFINITY) {
    const std::uint64_t mapped = ProcKilobytes("/proc/self/status", "VmSize:");
    const std::uint64_t room = mapped < limit.rlim_cur ? limit.rlim_cur - mapped : 0;
    if (mapped != kUnknown && room < available) available = room;
  }
  return available;
}

std::string Mebibytes(std::uint64_t bytes) {
  char text[32];
  std::snprintf(text, sizeof text, "%.0f MiB", static_cast<double>(bytes) / (1 << 20));
  return text;
}

}  // namespace treering
