#include "input_files.h"

#include <fcntl.h>
#include <glob.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstring>
#include <string_view>

#include "net/http_range_reader.h"
#include "net/http_url.h"

namespace treering::data::detail {
namespace {

std::vector<std::string> Split(std::string_view text, char separator) {
  std::vector<std::string> parts;
  std::size_t start = 0;
  while (true) {
    const std::size_t stop = text.find(separator, start);
    parts.emplace_back(text.substr(start, stop - start));
    if (stop == std::string_view::npos) return parts;
    start = stop + 1;
  }
}

Status ApplyOption(const std::string& uri, const std::string& option, InputSpec* spec) {
  const std::size_t eq = option.find('=');
  const std::string key = option.substr(0, eq);
  const std::string value = eq == std::string::npos ? "" : option.substr(eq + 1);
  if (key == "format") {
    if (value == "libsvm") {
      spec->format = TextFormat::kLibsvm;
    } else if (value == "csv") {
      spec->format = TextFormat::kCsv;
    } else {
      return Status::InvalidInput(uri + ": unknown format '" + value +
                                  "' (expected format=libsvm or format=csv)");
    }
    return Status::Ok();
  }
  if (key == "indexing_mode") {
    if (value != "0" && value != "1") {
      return Status::InvalidInput(
          uri + ": indexing_mode must be 0 (0-based) or 1 (1-based), got '" + value + "'");
    }
    spec->index_base = value == "1" ? 1 : 0;
    return Status::Ok();
  }
  if (key == "label_column") {
    std::uint64_t column = 0;
    const char* end = value.data() + value.size();
    const auto [next, ec] = std::from_chars(value.data(), end, column);
    if (value.empty() || ec != std::errc() || next != end) {
      return Status::InvalidInput(uri + ": label_column must be a column number (0-based), got '" +
                                  value + "'");
    }
    spec->label_column = column;
    return Status::Ok();
  }
  if (key == "float_parsing") {
    if (value != "exact" && value != "xgboost") {
      return Status::InvalidInput(uri + ": float_parsing must be exact or xgboost, got '" + value +
                                  "'");
    }
    spec->xgboost_floats = value == "xgboost";
    return Status::Ok();
  }
  return Status::InvalidInput(uri + ": unknown URI option '" + key +
                              "' (known: format, indexing_mode, label_column, float_parsing)");
}

bool HasGlobCharacters(const std::string& path) {
  return path.find_first_of("*?[") != std::string::npos;
}

Result<std::vector<std::string>> ExpandGlob(const std::string& pattern) {
  glob_t matches{};
  const int rc = glob(pattern.c_str(), GLOB_NOSORT, nullptr, &matches);
  std::vector<std::string> paths(matches.gl_pathv, matches.gl_pathv + matches.gl_pathc);
  globfree(&matches);
  if (rc == GLOB_NOMATCH || (rc == 0 && paths.empty())) {
    return Status::InvalidInput(pattern + ": no file matches this pattern");
  }
  if (rc != 0) return Status::IoError(pattern + ": cannot expand the pattern");
  std::sort(paths.begin(), paths.end());  // byte order, independent of the locale
  return paths;
}

// Stats the file, then opens it once, so that a missing, unreadable or wrong kind of file is
// reported before any parsing starts. Stat comes first: opening a FIFO would block.
Result<std::uint64_t> CheckReadableFile(const std::string& path) {
  struct stat info {};
  if (stat(path.c_str(), &info) != 0) {
    const int err = errno;
    if (err == ENOENT || err == ENOTDIR) return Status::InvalidInput(path + ": no such file");
    return Status::IoError(path + ": cannot stat: " + std::strerror(err));
  }
  if (S_ISDIR(info.st_mode)) {
    return Status::InvalidInput(path + ": is a directory, expected a data file");
  }
  if (!S_ISREG(info.st_mode)) {
    return Status::InvalidInput(path + ": not a regular file (sharding needs the file size)");
  }
  const int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return Status::IoError(path + ": cannot open: " + std::strerror(errno));
  close(fd);
  return static_cast<std::uint64_t>(info.st_size);
}

Status AddRemoteFile(const std::string& url, InputSpec* spec) {
  Result<net::HttpRangeReader> reader = net::HttpRangeReader::Create(url);
  if (!reader.ok()) return reader.status();
  Result<net::RemoteFileInfo> info = reader->Stat();
  if (!info.ok()) return info.status();
  spec->files.push_back(SourceFile{url, info->size, spec->total_bytes, info->etag});
  spec->total_bytes += info->size;
  return Status::Ok();
}

Status AddFile(const std::string& path, InputSpec* spec) {
  if (net::IsHttpUri(path)) return AddRemoteFile(path, spec);
  Result<std::uint64_t> size = CheckReadableFile(path);
  if (!size.ok()) return size.status();
  spec->files.push_back(SourceFile{path, *size, spec->total_bytes, ""});
  spec->total_bytes += *size;
  return Status::Ok();
}

Status AddPaths(const std::string& uri, const std::string& path_list, InputSpec* spec) {
  for (const std::string& item : Split(path_list, ',')) {
    if (item.empty()) return Status::InvalidInput(uri + ": empty file name in the list");
    if (!HasGlobCharacters(item) || net::IsHttpUri(item)) {
      if (Status s = AddFile(item, spec); !s.ok()) return s;
      continue;
    }
    Result<std::vector<std::string>> matches = ExpandGlob(item);
    if (!matches.ok()) return matches.status();
    for (const std::string& path : *matches) {
      if (Status s = AddFile(path, spec); !s.ok()) return s;
    }
  }
  return Status::Ok();
}

}  // namespace

Result<InputSpec> ResolveInput(const std::string& uri) {
  InputSpec spec;
  const std::size_t question = uri.find('?');
  if (question != std::string::npos) {
    for (const std::string& option : Split(std::string_view(uri).substr(question + 1), '&')) {
      if (Status s = ApplyOption(uri, option, &spec); !s.ok()) return s;
    }
  }
  if (spec.format != TextFormat::kCsv && spec.label_column != 0) {
    return Status::InvalidInput(uri + ": label_column applies only to format=csv");
  }
  if (spec.format != TextFormat::kLibsvm && spec.xgboost_floats) {
    return Status::InvalidInput(uri + ": float_parsing=xgboost applies only to format=libsvm");
  }
  const std::string path_list = uri.substr(0, question);
  if (path_list.empty()) return Status::InvalidInput("empty data URI");
  if (Status s = AddPaths(uri, path_list, &spec); !s.ok()) return s;
  return spec;
}

}  // namespace treering::data::detail
