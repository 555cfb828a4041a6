#include "feature_budget.h"

#include <sys/resource.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <limits>
#include <string>

#include "data/dmatrix.h"

namespace treering::booster {
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

// What this process may still allocate: the machine's available memory, or less when an
// address-space limit (ulimit -v) leaves less room beside what is mapped already.
std::uint64_t AvailableBytes() {
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

}  // namespace

Status CheckFeatureBudget(std::uint64_t num_feature, rabit::Comm& comm) {
  if (num_feature > data::kMaxFeatures) {  // data is checked at parse time; model_in is not
    return Status::InvalidInput("num_feature " + std::to_string(num_feature) + " is over the " +
                                "limit of " + std::to_string(data::kMaxFeatures) +
                                " features (docs/data.md)");
  }
  std::uint64_t available = AvailableBytes();
  comm.Allreduce<rabit::op::Min>(&available, 1);
  const std::uint64_t needed = num_feature * kHistBytesPerFeature;
  if (needed <= available) return Status::Ok();
  return Status::InvalidInput("feature index " + std::to_string(num_feature - 1) + " makes " +
                              std::to_string(num_feature) +
                              " features: the histogram learner needs ~" + Mebibytes(needed) +
                              " for them on each worker (" + std::to_string(kHistBytesPerFeature) +
                              " bytes per feature, however few are present), more than the " +
                              Mebibytes(available) + " available; renumber the features densely");
}

}  // namespace treering::booster
