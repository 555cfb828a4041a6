// treering-param-docs: prints the key tables of docs/ from the parameter tables in code.
//   treering-param-docs                 print every table (with the doc each belongs in)
//   treering-param-docs --write DOCS    rewrite the generated tables in DOCS/*.md
//   treering-param-docs --check DOCS    exit 1 naming every doc whose table differs from the code
#include <cstdio>
#include <cstring>
#include <string>

#include "booster/atomic_file.h"
#include "param_docs.h"

namespace {

using treering::cli::DocTable;

int Print() {
  for (const DocTable& t : treering::cli::DocTables()) {
    std::printf("%s (docs/%s):\n%s\n", t.name.c_str(), t.file.c_str(), t.markdown.c_str());
  }
  return 0;
}

// --write / --check over every table of `docs_dir`.
int Update(const std::string& docs_dir, bool write) {
  int stale = 0;
  for (const DocTable& t : treering::cli::DocTables()) {
    const std::string path = docs_dir + "/" + t.file;
    auto text = treering::booster::ReadWholeFile(path);
    auto updated = text.ok() ? treering::cli::ReplaceTable(text.value(), t) : text.status();
    if (!updated.ok()) {
      std::fprintf(stderr, "treering-param-docs: %s\n", updated.status().message().c_str());
      return 2;
    }
    if (updated.value() == text.value()) continue;
    ++stale;
    if (!write) {
      std::fprintf(stderr, "treering-param-docs: %s: the '%s' key table differs from the code\n",
                   path.c_str(), t.name.c_str());
      continue;
    }
    if (auto st = treering::booster::WriteFileAtomic(path, updated.value()); !st.ok()) {
      std::fprintf(stderr, "treering-param-docs: %s\n", st.message().c_str());
      return 1;
    }
    std::fprintf(stderr, "treering-param-docs: updated the '%s' table of %s\n", t.name.c_str(),
                 path.c_str());
  }
  if (stale > 0 && !write) {
    std::fprintf(stderr, "treering-param-docs: run `treering-param-docs --write %s`\n",
                 docs_dir.c_str());
    return 1;
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc == 1) return Print();
  if (argc == 3 && (std::strcmp(argv[1], "--write") == 0 || std::strcmp(argv[1], "--check") == 0)) {
    return Update(argv[2], std::strcmp(argv[1], "--write") == 0);
  }
  std::fprintf(stderr, "usage: treering-param-docs [--write DOCS_DIR | --check DOCS_DIR]\n");
  return 2;
}
