#include "data/query_groups.h"

#include <sys/stat.h>

#include <fstream>

#include "input_files.h"

namespace treering::data {
namespace {

bool IsRegularFile(const std::string& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode);
}

// The part of a line before any '#', without surrounding blanks.
std::string Content(const std::string& line) {
  std::string s = line.substr(0, line.find('#'));
  const std::size_t b = s.find_first_not_of(" \t\r");
  if (b == std::string::npos) return "";
  return s.substr(b, s.find_last_not_of(" \t\r") - b + 1);
}

}  // namespace

Result<std::string> GroupFilePath(const std::string& uri) {
  const std::string path = uri.substr(0, uri.find('?'));
  if (path.find(',') != std::string::npos || path.find_first_of("*?[") != std::string::npos ||
      path.rfind("http://", 0) == 0) {
    return std::string();
  }
  const std::string group = path + ".group";
  return IsRegularFile(group) ? group : std::string();
}

Result<std::vector<std::uint64_t>> ReadGroupSizes(const std::string& path) {
  std::ifstream in(path);
  if (!in) return Status::IoError(path + ": cannot open the query group file");
  std::vector<std::uint64_t> sizes;
  std::string line;
  for (std::uint64_t line_no = 1; std::getline(in, line); ++line_no) {
    const std::string s = Content(line);
    if (s.empty()) continue;
    std::uint64_t v = 0;
    bool ok = s.size() <= 18;
    for (char c : s) {
      ok = ok && c >= '0' && c <= '9';
      v = v * 10 + static_cast<std::uint64_t>(c - '0');
    }
    if (!ok || v == 0) {
      return Status::InvalidInput(path + ":" + std::to_string(line_no) +
                                  ": expected a query group size (an integer >= 1), got '" + s +
                                  "'");
    }
    sizes.push_back(v);
  }
  if (in.bad()) return Status::IoError(path + ": read error");
  return sizes;
}

Result<std::string> LocateRow(const std::string& uri, std::uint64_t row) {
  auto spec = detail::ResolveInput(uri);
  if (!spec.ok()) return spec.status();
  std::uint64_t seen = 0;
  for (const detail::SourceFile& f : spec.value().files) {
    std::ifstream in(f.path);
    std::string line;
    for (std::uint64_t line_no = 1; in && std::getline(in, line); ++line_no) {
      if (Content(line).empty()) continue;
      if (seen++ == row) return f.path + ":" + std::to_string(line_no);
    }
  }
  return uri + ": row " + std::to_string(row + 1);
}

std::vector<std::uint64_t> GroupsFromIds(const std::vector<std::uint64_t>& ids) {
  std::vector<std::uint64_t> ptr;
  for (std::size_t i = 0; i < ids.size(); ++i) {
    if (i == 0 || ids[i] != ids[i - 1]) ptr.push_back(i);
  }
  ptr.push_back(ids.size());
  return ptr;
}

}  // namespace treering::data
