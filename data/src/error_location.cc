#include "error_location.h"

#include <algorithm>
#include <vector>

#include "opened_file.h"

namespace treering::data::detail {

Result<std::string> LocateOffset(const std::string& path, std::uint64_t offset,
                                 const std::string& version) {
  Result<OpenedFile> file = OpenedFile::Open(path, version);
  if (!file.ok()) return file.status();
  std::vector<char> block(1 << 20);
  std::uint64_t line = 1;
  std::uint64_t line_start = 0;
  for (std::uint64_t pos = 0; pos < offset;) {
    const std::size_t want =
        static_cast<std::size_t>(std::min<std::uint64_t>(block.size(), offset - pos));
    std::size_t got = 0;
    if (Status s = file->ReadAt(pos, block.data(), want, &got); !s.ok()) return s;
    if (got == 0) break;
    for (std::size_t i = 0; i < got; ++i) {
      if (block[i] == '\n') {
        ++line;
        line_start = pos + i + 1;
      }
    }
    pos += got;
  }
  return path + ":" + std::to_string(line) + ":" + std::to_string(offset - line_start + 1);
}

}  // namespace treering::data::detail
