#include "eval_report.h"

#include <charconv>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "booster/metric.h"

namespace treering::cli {
namespace {

std::string Fixed17(double value) {
  char buf[512];
  std::snprintf(buf, sizeof(buf), "%.17f", value);
  return buf;
}

// "test-auc" -> "auc" (Python splits the printed name at its first '-').
std::string MetricOf(const std::string& name) {
  const auto dash = name.find('-');
  return dash == std::string::npos ? name : name.substr(dash + 1);
}

}  // namespace

std::string FormatEvalLine(int iter, const std::vector<booster::EvalResult>& results) {
  // Appends only: GCC 12 warns falsely (-Wrestrict) on `"literal" + std::string`.
  std::string line("[");
  line.append(std::to_string(iter)).append("]");
  for (const booster::EvalResult& r : results) {
    line.append("\t").append(r.name).append(":").append(Fixed17(r.value));
  }
  return line;
}

bool EarlyStopping::Update(int model_round, const std::vector<booster::EvalResult>& results) {
  if (results.empty()) return false;
  // Python compares the value it parsed back from the printed line, so do the same.
  const double score = std::strtod(Fixed17(results.back().value).c_str(), nullptr);
  const bool maximise = booster::Metric::Maximised(MetricOf(results.back().name));
  const bool improved = best_round_ < 0 || (maximise ? score > best_score_ : score < best_score_);
  if (improved) {
    best_round_ = model_round;
    best_score_ = score;
    stale_rounds_ = 0;
  } else {
    ++stale_rounds_;
  }
  return stale_rounds_ >= rounds_;
}

std::map<std::string, std::string> EarlyStopping::Attributes() const {
  if (!HasBest()) return {};
  return {{"best_iteration", std::to_string(best_round_)},
          {"best_score", PythonRepr(best_score_)},
          {"best_ntree_limit", std::to_string(best_round_ + 1)}};
}

std::string PythonRepr(double value) {
  char buf[64];
  const auto res = std::to_chars(buf, buf + sizeof(buf), value);
  std::string s(buf, res.ptr);
  if (s.find_first_of(".eni") == std::string::npos) s += ".0";  // 1 -> "1.0" as Python
  return s;
}

std::string EarlyStopping::SaveState() const {
  std::string out(sizeof(int) * 2 + sizeof(double), '\0');
  std::memcpy(out.data(), &best_round_, sizeof(int));
  std::memcpy(out.data() + sizeof(int), &stale_rounds_, sizeof(int));
  std::memcpy(out.data() + 2 * sizeof(int), &best_score_, sizeof(double));
  return out;
}

void EarlyStopping::LoadState(const std::string& bytes) {
  if (bytes.size() != sizeof(int) * 2 + sizeof(double)) return;
  std::memcpy(&best_round_, bytes.data(), sizeof(int));
  std::memcpy(&stale_rounds_, bytes.data() + sizeof(int), sizeof(int));
  std::memcpy(&best_score_, bytes.data() + 2 * sizeof(int), sizeof(double));
}

}  // namespace treering::cli
