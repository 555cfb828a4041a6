#include "status/progress_line.h"

#include <cmath>

namespace treering::tracker {
namespace {

std::string Duration(double s) {
  char text[48];
  if (s < 100) {
    std::snprintf(text, sizeof text, "%.0f s", s);
  } else if (s < 6000) {
    std::snprintf(text, sizeof text, "%.0f min", std::ceil(s / 60));
  } else {
    std::snprintf(text, sizeof text, "%.1f h", s / 3600);
  }
  return text;
}

}  // namespace

std::string FormatProgress(const RoundPace& pace) {
  char rate[48];
  std::snprintf(rate, sizeof rate, "%.3g s/round", pace.seconds_per_round);
  std::string text = "round " + std::to_string(pace.rounds_done);
  if (pace.total_rounds > 0) text += "/" + std::to_string(pace.total_rounds);
  text += ", ";
  text += rate;
  if (pace.eta_s >= 0) text += ", about " + Duration(pace.eta_s) + " left";
  return text;
}

void ProgressLine::Show(std::string text) {
  if (!enabled_) return;
  text_ = std::move(text);
  std::fprintf(out_, "\r\033[K%s", text_.c_str());
  std::fflush(out_);
  shown_ = true;
}

void ProgressLine::Clear() {
  if (!enabled_ || !shown_) return;
  std::fprintf(out_, "\r\033[K");
  std::fflush(out_);
}

void ProgressLine::Restore() {
  if (!enabled_ || !shown_) return;
  std::fprintf(out_, "%s", text_.c_str());
  std::fflush(out_);
}

void ProgressLine::Finish() {
  Clear();
  shown_ = false;
}

}  // namespace treering::tracker
