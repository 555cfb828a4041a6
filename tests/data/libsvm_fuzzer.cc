// libFuzzer target for the LibSVM and CSV parsers (built only with -DTREERING_FUZZ=ON and
// clang; see docs/data.md). Each input is written to a scratch file and loaded in both
// formats; a crash, a sanitizer report, an internal error, an error without "FILE:LINE:COL: "
// or a malformed DMatrix is a finding.
#include <unistd.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "data/load.h"

namespace {

const std::string& ScratchFile() {
  static const std::string path = [] {
    char pattern[] = "/tmp/treering-fuzz-XXXXXX";
    const int fd = mkstemp(pattern);
    if (fd < 0) std::abort();
    close(fd);
    return std::string(pattern);
  }();
  return path;
}

void Require(bool condition, const char* what) {
  if (!condition) {
    std::fprintf(stderr, "fuzz finding: %s\n", what);
    std::abort();
  }
}

bool IsLocated(const std::string& message, const std::string& path) {
  if (message.compare(0, path.size() + 1, path + ":") != 0) return false;
  std::size_t p = path.size() + 1;
  for (int field = 0; field < 2; ++field) {
    const std::size_t digits = p;
    while (p < message.size() && message[p] >= '0' && message[p] <= '9') ++p;
    if (p == digits || p >= message.size() || message[p] != ':') return false;
    ++p;
  }
  return message.compare(p, 1, " ") == 0;
}

void CheckWellFormed(const treering::data::DMatrix& m) {
  Require(m.row_ptr.front() == 0 && m.row_ptr.back() == m.index.size(), "row_ptr ends");
  Require(m.value.size() == m.index.size() && m.label.size() == m.NumRows(), "array sizes");
  for (std::size_t r = 0; r < m.NumRows(); ++r) {
    Require(std::isfinite(m.label[r]), "finite label");
    for (std::uint64_t e = m.row_ptr[r]; e < m.row_ptr[r + 1]; ++e) {
      Require(e == m.row_ptr[r] || m.index[e - 1] < m.index[e], "increasing indices");
      Require(m.index[e] < m.num_col && std::isfinite(m.value[e]), "entry in range");
    }
  }
}

void LoadAndCheck(const std::string& uri) {
  treering::Result<treering::data::DMatrix> m =
      treering::data::Load(uri, {0, 1}, treering::Context{.nthread = 1});
  if (m.ok()) return CheckWellFormed(*m);
  Require(m.status().code() == treering::StatusCode::kInvalidInput, "error code");
  Require(IsLocated(m.status().message(), ScratchFile()), "FILE:LINE:COL in the message");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  FILE* out = std::fopen(ScratchFile().c_str(), "wb");
  if (out == nullptr) return 0;
  std::fwrite(data, 1, size, out);
  std::fclose(out);
  LoadAndCheck(ScratchFile());
  LoadAndCheck(ScratchFile() + "?format=csv");
  return 0;
}
