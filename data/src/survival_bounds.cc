#include "data/survival_bounds.h"

#include <sys/stat.h>

#include <charconv>
#include <cmath>
#include <cstdint>
#include <fstream>
#include <vector>

namespace treering::data {
namespace {

struct Bounds {
  std::vector<float> lower, upper;
};

// One bound: a decimal number rounded to float (std::from_chars), or inf / +inf / infinity.
bool ParseBound(const std::string& s, float* out) {
  const char* begin = s.data() + (s.size() > 1 && s[0] == '+' ? 1 : 0);
  const char* end = s.data() + s.size();
  const auto [ptr, ec] = std::from_chars(begin, end, *out);
  return ec == std::errc() && ptr == end;
}

// The line's fields split on blanks, tabs and commas; '#' starts a comment.
std::vector<std::string> Fields(const std::string& line) {
  std::vector<std::string> fields;
  std::string cur;
  for (char c : line.substr(0, line.find('#'))) {
    if (c == ' ' || c == '\t' || c == ',' || c == '\r') {
      if (!cur.empty()) fields.push_back(cur);
      cur.clear();
    } else {
      cur += c;
    }
  }
  if (!cur.empty()) fields.push_back(cur);
  return fields;
}

Result<Bounds> ReadBounds(const std::string& path) {
  std::ifstream in(path);
  if (!in) return Status::IoError(path + ": cannot open the survival bounds file");
  Bounds b;
  std::string line;
  for (std::uint64_t line_no = 1; std::getline(in, line); ++line_no) {
    const std::vector<std::string> f = Fields(line);
    if (f.empty()) continue;
    const std::string where = path + ":" + std::to_string(line_no) + ": ";
    float lo = 0, hi = 0;
    if (f.size() != 2 || !ParseBound(f[0], &lo) || !ParseBound(f[1], &hi)) {
      return Status::InvalidInput(where +
                                  "expected 'LOWER UPPER' (two numbers, UPPER may be "
                                  "inf), got '" +
                                  line + "'");
    }
    if (std::isnan(lo) || std::isnan(hi)) {
      return Status::InvalidInput(where + "a survival bound is NaN");
    }
    if (lo < 0 || hi < 0) {
      return Status::InvalidInput(where +
                                  "a survival bound is negative (times are >= 0; "
                                  "0 as LOWER means left-censored)");
    }
    if (lo > hi || std::isinf(lo)) {
      return Status::InvalidInput(where + "LOWER " + f[0] + " is above UPPER " + f[1]);
    }
    b.lower.push_back(lo);
    b.upper.push_back(hi);
  }
  if (in.bad()) return Status::IoError(path + ": read error");
  return b;
}

}  // namespace

std::string BoundsFilePath(const std::string& uri) {
  const std::string path = uri.substr(0, uri.find('?'));
  if (path.find(',') != std::string::npos || path.find_first_of("*?[") != std::string::npos ||
      path.rfind("http://", 0) == 0) {
    return "";
  }
  struct stat st {};
  const std::string bounds = path + ".bounds";
  return ::stat(bounds.c_str(), &st) == 0 && S_ISREG(st.st_mode) ? bounds : "";
}

Status AttachSurvivalBounds(const std::string& key, const std::string& uri, bool sharded,
                            rabit::Comm& comm, DMatrix* m) {
  const bool distributed = sharded && comm.IsDistributed();
  const std::string path = BoundsFilePath(uri);
  // Every rank sees the same file system, so all ranks agree on whether to go on.
  if (path.empty()) return Status::Ok();
  const std::uint64_t rows = m->NumRows();
  const std::vector<std::uint64_t> counts = distributed
                                                ? comm.AllgatherV(std::vector<std::uint64_t>{rows})
                                                : std::vector<std::uint64_t>{rows};
  std::uint64_t offset = 0, total = 0;
  for (int p = 0; p < static_cast<int>(counts.size()); ++p) {
    if (p < (distributed ? comm.Rank() : 0)) offset += counts[p];
    total += counts[p];
  }
  auto bounds = ReadBounds(path);
  if (!bounds.ok()) return bounds.status().WithContext(key + " = " + uri);
  if (bounds.value().lower.size() != total) {
    return Status::InvalidInput(key + " = " + uri + ": " + path + " has " +
                                std::to_string(bounds.value().lower.size()) +
                                " rows of bounds, the data has " + std::to_string(total));
  }
  const auto first = bounds.value().lower.begin() + static_cast<std::ptrdiff_t>(offset);
  m->label_lower_bound.assign(first, first + static_cast<std::ptrdiff_t>(rows));
  const auto ufirst = bounds.value().upper.begin() + static_cast<std::ptrdiff_t>(offset);
  m->label_upper_bound.assign(ufirst, ufirst + static_cast<std::ptrdiff_t>(rows));
  return Status::Ok();
}

}  // namespace treering::data
