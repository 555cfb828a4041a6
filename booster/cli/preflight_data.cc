#include "preflight_data.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>

#include "preflight.h"
#include "rabit/rabit.h"

namespace treering::cli {
namespace {

std::string Number(float v) {
  char text[32];
  std::snprintf(text, sizeof text, "%g", static_cast<double>(v));
  return text;
}

// "key: A on ranks 0-1, B on rank 2", values in the order of their first rank; "" when every
// rank holds the same value.
std::string Differ(const std::string& key, const std::vector<std::pair<int, std::string>>& held) {
  std::vector<std::pair<std::string, std::vector<int>>> groups;
  for (const auto& [rank, value] : held) {
    auto it = groups.begin();
    while (it != groups.end() && it->first != value) ++it;
    if (it == groups.end()) {
      groups.push_back({value, {rank}});
    } else {
      it->second.push_back(rank);
    }
  }
  return DisagreementLine(key, groups);
}

}  // namespace

PartFacts FactsOf(const data::DMatrix& part, const std::string& uri) {
  PartFacts f;
  f.has_rows = part.NumRows() > 0 ? 1 : 0;
  const std::size_t query = uri.find('?');
  f.csv = query != std::string::npos && uri.find("format=csv", query) != std::string::npos;
  f.label_columns = static_cast<std::uint32_t>(part.label_columns);
  f.num_col = part.num_col;
  if (!f.has_rows || part.label.empty()) return f;
  f.label_kind = LabelKind::kBinary;
  f.low = f.high = part.label.front();
  for (const float y : part.label) {
    if (!(std::isfinite(y) && y == std::nearbyint(y))) {
      f.label_kind = LabelKind::kContinuous;
      f.example = y;
      return f;
    }
    f.low = std::min(f.low, y);
    f.high = std::max(f.high, y);
    if (y != 0 && y != 1) f.label_kind = LabelKind::kInteger;
  }
  return f;
}

std::optional<std::string> PartsMismatch(const std::vector<PartFacts>& per_rank) {
  std::vector<std::pair<int, std::string>> format, features, columns, kinds;
  bool continuous = false, binary = false;
  for (std::size_t r = 0; r < per_rank.size(); ++r) {
    const PartFacts& f = per_rank[r];
    if (!f.has_rows) continue;
    const int rank = static_cast<int>(r);
    format.emplace_back(rank, f.csv ? "csv" : "libsvm");
    if (f.csv) features.emplace_back(rank, std::to_string(f.num_col));
    columns.emplace_back(rank, std::to_string(f.label_columns));
    switch (f.label_kind) {
      case LabelKind::kContinuous:
        continuous = true;
        kinds.emplace_back(rank, "continuous (e.g. " + Number(f.example) + ")");
        break;
      case LabelKind::kBinary:
        binary = true;
        kinds.emplace_back(rank, "binary 0/1");
        break;
      case LabelKind::kInteger:
        kinds.emplace_back(rank, "integers " + Number(f.low) + ".." + Number(f.high));
        break;
      case LabelKind::kNone:
        break;
    }
  }
  // A continuous example differs from rank to rank: one value per kind for the comparison.
  if (continuous) {
    std::string first_example;
    for (auto& [rank, text] : kinds) {
      if (text.rfind("continuous", 0) != 0) continue;
      if (first_example.empty()) first_example = text;
      text = first_example;
    }
  }
  std::string text;
  const auto add = [&text](const std::string& line) {
    if (!line.empty()) text += (text.empty() ? "" : "; ") + line;
  };
  add(Differ("format", format));
  // Only when every part is CSV: a LibSVM part's column count is its largest index, which
  // rightly differs between parts (the learner takes the largest).
  if (features.size() == format.size()) add(Differ("feature count", features));
  add(Differ("label columns", columns));
  // Binary 0/1 labels beside continuous ones: a classification export among regression ones.
  // Integers beside continuous values may be one target (prices, counts); integers beside 0/1
  // may be one multi-class target whose small part saw two classes: neither is flagged.
  if (continuous && binary) add(Differ("label kind", kinds));
  if (text.empty()) return std::nullopt;
  return text;
}

Status CheckPartsAgree(const CliOptions& options, const data::DMatrix& part) {
  if (rabit::GetWorldSize() < 2) return Status::Ok();
  if (const char* skip = std::getenv("TREERING_PREFLIGHT"); skip && std::string(skip) == "0") {
    return Status::Ok();
  }
  const char* previous = rabit::SetPhase("pre-flight check");
  const PartFacts mine = FactsOf(part, options.data);
  std::vector<char> bytes(sizeof mine);
  std::memcpy(bytes.data(), &mine, sizeof mine);
  const std::vector<char> all = rabit::AllgatherV(bytes);
  rabit::SetPhase(previous);
  std::vector<PartFacts> per_rank(all.size() / sizeof(PartFacts));
  std::memcpy(per_rank.data(), all.data(), per_rank.size() * sizeof(PartFacts));
  auto mismatch = PartsMismatch(per_rank);
  if (!mismatch) return Status::Ok();
  return Status::InvalidInput("pre-flight: data = " + options.data +
                              ": the ranks' training parts differ: " + *mismatch);
}

}  // namespace treering::cli
