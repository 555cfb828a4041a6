// The "labels:" line of `treering-data info`: a count per label when every label is an
// integer (classification data), otherwise the range and mean (regression data).
#pragma once

#include <string>
#include <vector>

namespace treering::data {

std::string SummarizeLabels(const std::vector<float>& labels);

}  // namespace treering::data
