#include "label_summary.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <map>
#include <sstream>

namespace treering::data {
namespace {

constexpr std::size_t kMaxListedLabels = 32;

bool AllIntegers(const std::vector<float>& labels) {
  return std::all_of(labels.begin(), labels.end(),
                     [](float y) { return std::floor(y) == y && std::fabs(y) < 1e9f; });
}

std::string CountPerLabel(const std::vector<float>& labels) {
  std::map<std::int64_t, std::uint64_t> counts;
  for (float y : labels) ++counts[static_cast<std::int64_t>(y)];
  std::ostringstream out;
  if (counts.size() > kMaxListedLabels) {
    out << counts.size() << " distinct integers in [" << counts.begin()->first << ", "
        << counts.rbegin()->first << "]";
    return out.str();
  }
  const char* separator = "";
  for (const auto& [label, count] : counts) {
    out << separator << label << ":" << count;
    separator = " ";
  }
  return out.str();
}

std::string RangeAndMean(const std::vector<float>& labels) {
  const auto [low, high] = std::minmax_element(labels.begin(), labels.end());
  double sum = 0;
  for (float y : labels) sum += y;
  std::ostringstream out;
  out << "min " << *low << ", max " << *high << ", mean "
      << sum / static_cast<double>(labels.size());
  return out.str();
}

}  // namespace

std::string SummarizeLabels(const std::vector<float>& labels) {
  if (labels.empty()) return "none";
  return AllIntegers(labels) ? CountPerLabel(labels) : RangeAndMean(labels);
}

}  // namespace treering::data
