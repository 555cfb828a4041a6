#include "row_location.h"

#include <fstream>
#include <regex>

namespace treering::cli {

std::string RowLocation(const std::string& uri, int part, int nparts, std::uint64_t row) {
  std::string path = uri.substr(0, uri.find('?'));
  if (path.find_first_of(",*?[") != std::string::npos || path.rfind("http://", 0) == 0) {
    return "";
  }
  std::ifstream in(path, std::ios::binary | std::ios::ate);
  if (!in) return "";
  const std::uint64_t size = static_cast<std::uint64_t>(in.tellg());
  const std::uint64_t begin = nparts > 0 ? size * static_cast<std::uint64_t>(part) / nparts : 0;
  in.seekg(0);
  std::uint64_t offset = 0, line_no = 0, seen = 0;
  for (std::string line; std::getline(in, line);) {
    const std::uint64_t start = offset;
    offset += line.size() + 1;
    ++line_no;
    if (start < begin) continue;
    const std::size_t first = line.find_first_not_of(" \t\r");
    if (first == std::string::npos || line[first] == '#') continue;  // no row on this line
    if (seen++ == row) return path + ":" + std::to_string(line_no);
  }
  return "";
}

Status WithRowLocation(const Status& st, const std::string& uri, int part, int nparts) {
  if (st.ok()) return st;
  static const std::regex kRow(R"(row (\d+) \(0-based, this worker's rows\))");
  std::smatch m;
  const std::string& message = st.message();
  if (!std::regex_search(message, m, kRow)) return st;
  const std::string where = RowLocation(uri, part, nparts, std::stoull(m[1].str()));
  if (where.empty()) return st;
  const std::size_t colon = where.rfind(':');
  Status out(st.code(), m.prefix().str() + where.substr(0, colon) + " line " +
                            where.substr(colon + 1) + " (row " + m[1].str() + ")" +
                            m.suffix().str());
  return out.WithKey(st.key());
}

}  // namespace treering::cli
