// Pre-flight (docs/status.md): before any data is read, every rank checks that all ranks run
// the same treering version with the same training configuration, so a stale binary on one
// host or a config file edited between launches fails at once with the ranks and the keys
// that differ, instead of as a silent hang or a wrong model rounds later. File paths, nthread
// and the rabit_* keys may differ between ranks (mounts, core counts) and are not compared.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "base/status.h"
#include "cli_options.h"

namespace treering::cli {

// "key=value" lines, sorted by key (the last value of a key wins): the version, the booster,
// num_round and every learner key.
std::vector<std::string> PreflightEntries(const CliOptions& options, const std::string& version);

// What the ranks' entries disagree on, one "key: A on ranks 0,2-3, B on rank 1" per key, or
// nothing when all agree. `per_rank[r]` is rank r's PreflightEntries.
std::optional<std::string> PreflightMismatch(const std::vector<std::vector<std::string>>& per_rank);

// "key: A on ranks 0-1,3, B on rank 2" for values and the ranks holding each (in the order
// given), "" when fewer than two values are held. Shared with the data checks.
std::string DisagreementLine(const std::string& key,
                             const std::vector<std::pair<std::string, std::vector<int>>>& held);

// Gathers every rank's entries (two collectives) and fails with the mismatch on every rank;
// then the link test (preflight_links.h).
Status RunPreflight(const CliOptions& options);

}  // namespace treering::cli
