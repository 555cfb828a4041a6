// Mapping a request path onto a file under the served directory, refusing every way out of it:
// ".." or "." segments (after percent-decoding, so %2e%2e too), NUL bytes, and symlinks whose
// target lies outside (the resolved path must stay under the directory's own resolved path).
#pragma once

#include <string>

namespace treering::net {

struct ServedPath {
  unsigned status = 200;  // 200, or 400 / 403 / 404 with `error` saying why
  std::string error;
  std::string real_path;  // the file, symlinks resolved
};

// `root` must be a resolved (realpath) directory; `decoded` the decoded request path.
ServedPath ResolveServedPath(const std::string& root, const std::string& decoded);

// Whether `real_path` (resolved) lies inside `root` (resolved).
bool InsideRoot(const std::string& root, const std::string& real_path);

}  // namespace treering::net
