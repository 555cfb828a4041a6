// The XGBoost CLI's configuration syntax: `key = value` lines in a file, then `key=value`
// tokens from the command line, kept in order (repeated keys are kept, e.g. two eval_metric).
//
// File syntax (docs/cli.md): one pair per line; blank lines and `# comments` (also after a
// pair) are skipped; key and value may be quoted with "..." or '...' (then `#`, `=` and spaces
// are literal); spaces around `=` are ignored. Anything else is an error naming file:line.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "base/status.h"

namespace treering::cli {

struct ConfigEntry {
  std::string key;
  std::string value;
  std::string origin;  // "train.conf:12" or "command line", for error messages
};

// Parses the text of a config file; `source` names it in errors ("train.conf:3: ...").
Result<std::vector<ConfigEntry>> ParseConfigText(std::string_view text, const std::string& source);
// Reads and parses a file; a missing file is kInvalidInput naming the path.
Result<std::vector<ConfigEntry>> ParseConfigFile(const std::string& path);
// One command-line token "key=value" (split at the first '=').
Result<ConfigEntry> ParseCommandLinePair(const std::string& token);

}  // namespace treering::cli
