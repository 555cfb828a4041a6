#include "served_path.h"

#include <sys/stat.h>

#include <cerrno>
#include <climits>
#include <cstdlib>

namespace treering::net {

bool InsideRoot(const std::string& root, const std::string& real_path) {
  if (root == "/") return !real_path.empty() && real_path[0] == '/';
  return real_path.size() > root.size() && real_path.compare(0, root.size(), root) == 0 &&
         real_path[root.size()] == '/';
}

ServedPath ResolveServedPath(const std::string& root, const std::string& decoded) {
  ServedPath out;
  if (decoded.empty() || decoded[0] != '/' || decoded.find('\0') != std::string::npos) {
    return ServedPath{400, "bad path", ""};
  }
  std::string relative;
  std::size_t start = 1;
  while (start <= decoded.size()) {
    std::size_t stop = decoded.find('/', start);
    if (stop == std::string::npos) stop = decoded.size();
    const std::string segment = decoded.substr(start, stop - start);
    if (segment == ".." || segment == ".") {
      return ServedPath{403, "path leaves the served directory", ""};
    }
    if (!segment.empty()) relative += (relative.empty() ? "" : "/") + segment;
    start = stop + 1;
  }
  if (relative.empty()) return ServedPath{404, "not a file", ""};
  const std::string candidate = root + "/" + relative;
  char resolved[PATH_MAX];
  if (realpath(candidate.c_str(), resolved) == nullptr) {
    return ServedPath{404, errno == EACCES ? "permission denied" : "no such file", ""};
  }
  out.real_path = resolved;
  if (!InsideRoot(root, out.real_path)) {
    return ServedPath{403, "path leaves the served directory", ""};
  }
  struct stat info {};
  if (stat(out.real_path.c_str(), &info) != 0 || !S_ISREG(info.st_mode)) {
    return ServedPath{404, "not a regular file", ""};
  }
  return out;
}

}  // namespace treering::net
