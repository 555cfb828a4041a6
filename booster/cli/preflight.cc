#include "preflight.h"

#include <algorithm>
#include <cstdlib>
#include <map>

#include "preflight_links.h"
#include "rabit/rabit.h"

#ifndef TREERING_VERSION_STRING
#define TREERING_VERSION_STRING "unknown"
#endif

namespace treering::cli {
namespace {

std::string Ranges(const std::vector<int>& ranks) {
  std::string out;
  for (std::size_t i = 0; i < ranks.size();) {
    std::size_t j = i;
    while (j + 1 < ranks.size() && ranks[j + 1] == ranks[j] + 1) ++j;
    out += (out.empty() ? "" : ",") + std::to_string(ranks[i]);
    if (j > i) out += "-" + std::to_string(ranks[j]);
    i = j + 1;
  }
  return (ranks.size() == 1 ? "rank " : "ranks ") + out;
}

}  // namespace

std::string DisagreementLine(const std::string& key,
                             const std::vector<std::pair<std::string, std::vector<int>>>& held) {
  if (held.size() < 2) return "";
  std::string line = key + ": ";
  for (std::size_t i = 0; i < held.size(); ++i) {
    line += (i ? ", " : "") + held[i].first + " on " + Ranges(held[i].second);
  }
  return line;
}

std::vector<std::string> PreflightEntries(const CliOptions& options, const std::string& version) {
  std::map<std::string, std::string> keys;
  keys["treering_version"] = version;
  keys["booster"] = options.booster;
  keys["num_round"] = std::to_string(options.num_round);
  for (const auto& [key, value] : options.learner_params) keys[key] = value;
  std::vector<std::string> entries;
  for (const auto& [key, value] : keys) entries.push_back(key + "=" + value);
  return entries;
}

std::optional<std::string> PreflightMismatch(
    const std::vector<std::vector<std::string>>& per_rank) {
  // key -> value -> ranks; a key a rank lacks has the value "(unset)".
  std::map<std::string, std::map<std::string, std::vector<int>>> seen;
  for (std::size_t r = 0; r < per_rank.size(); ++r) {
    for (const std::string& entry : per_rank[r]) {
      const std::size_t eq = entry.find('=');
      seen[entry.substr(0, eq)][eq == std::string::npos ? "" : entry.substr(eq + 1)];
    }
  }
  for (auto& [key, values] : seen) {
    for (std::size_t r = 0; r < per_rank.size(); ++r) {
      std::string value = "(unset)";
      for (const std::string& entry : per_rank[r]) {
        if (entry.compare(0, key.size() + 1, key + "=") == 0) value = entry.substr(key.size() + 1);
      }
      values[value].push_back(static_cast<int>(r));
    }
  }
  std::string text;
  for (const auto& [key, values] : seen) {
    std::vector<std::pair<std::string, std::vector<int>>> held;
    for (const auto& [value, ranks] : values) {
      if (!ranks.empty()) held.emplace_back(value, ranks);
    }
    if (held.size() < 2) continue;
    std::sort(held.begin(), held.end(),
              [](const auto& a, const auto& b) { return a.second.front() < b.second.front(); });
    text += (text.empty() ? "" : "; ") + DisagreementLine(key, held);
  }
  if (text.empty()) return std::nullopt;
  return text;
}

Status RunPreflight(const CliOptions& options) {
  if (rabit::GetWorldSize() < 2) return Status::Ok();
  // The escape hatch for ranks meant to differ (and for testing debug_synchronize, which
  // catches what the configuration cannot show). Every rank must skip it alike.
  if (const char* skip = std::getenv("TREERING_PREFLIGHT"); skip && std::string(skip) == "0") {
    return Status::Ok();
  }
  const char* previous = rabit::SetPhase("pre-flight check");
  std::string mine;
  for (const std::string& e : PreflightEntries(options, TREERING_VERSION_STRING)) mine += e + "\n";
  std::vector<std::size_t> counts;
  const std::vector<char> all =
      rabit::AllgatherV(std::vector<char>(mine.begin(), mine.end()), &counts);
  rabit::SetPhase(previous);
  std::vector<std::vector<std::string>> per_rank(counts.size());
  std::size_t at = 0;
  for (std::size_t r = 0; r < counts.size(); ++r) {
    std::string text(all.begin() + at, all.begin() + at + counts[r]);
    at += counts[r];
    for (std::size_t start = 0, nl; (nl = text.find('\n', start)) != std::string::npos;
         start = nl + 1) {
      per_rank[r].push_back(text.substr(start, nl - start));
    }
  }
  auto mismatch = PreflightMismatch(per_rank);
  if (mismatch) {
    return Status::InvalidInput("pre-flight: the ranks' configurations differ: " + *mismatch);
  }
  // Long enough for a loaded host to answer, short enough that a dropped SYN fails promptly.
  constexpr double kLinkTestSeconds = 10;
  const char* during = rabit::SetPhase("pre-flight check");
  Status links = RunLinkTest(kLinkTestSeconds);
  rabit::SetPhase(during);
  return links;
}

}  // namespace treering::cli
