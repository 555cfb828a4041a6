#include "sync_check.h"

#include <cstdint>
#include <cstdio>

#include "rabit/rabit.h"

namespace treering::cli {

std::string Fnv1a64Hex(const std::string& bytes) {
  std::uint64_t h = 14695981039346656037ull;
  for (const char c : bytes) {
    h ^= static_cast<unsigned char>(c);
    h *= 1099511628211ull;
  }
  char hex[17];
  std::snprintf(hex, sizeof(hex), "%016llx", static_cast<unsigned long long>(h));
  return hex;
}

void ReportModelDigest(const std::string& model_bytes) {
  rabit::TrackerPrint("debug_synchronize: model fnv1a64=" + Fnv1a64Hex(model_bytes) +
                      " bytes=" + std::to_string(model_bytes.size()));
}

}  // namespace treering::cli
