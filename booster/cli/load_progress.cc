#include "load_progress.h"

namespace treering::cli {

std::string FormatLoadProgress(const std::string& what, const data::LoadProgress& progress,
                               double seconds) {
  const double mb = static_cast<double>(progress.bytes) / 1e6;
  char text[160];
  std::snprintf(text, sizeof text, "%s %.1f of %.1f MB, %.1f MB/s",
                progress.pass == 1 ? "counting" : "parsing", mb,
                static_cast<double>(progress.total_bytes) / 1e6, seconds > 0 ? mb / seconds : 0.0);
  std::string line = what + ": " + text;
  if (progress.rows > 0) line += ", " + std::to_string(progress.rows) + " rows";
  return line;
}

LoadProgressLine::LoadProgressLine(std::string what, bool enabled, std::FILE* out)
    : what_(std::move(what)), enabled_(enabled), out_(out) {}

LoadProgressLine::~LoadProgressLine() {
  if (shown_) {
    std::fprintf(out_, "\r\033[K");
    std::fflush(out_);
  }
}

void LoadProgressLine::Attach(data::LoadOptions* options) {
  if (!enabled_) return;
  options->progress = [this](const data::LoadProgress& p) { Draw(p); };
}

void LoadProgressLine::Draw(const data::LoadProgress& progress) {
  const auto now = std::chrono::steady_clock::now();
  if (progress.pass != pass_) {
    pass_ = progress.pass;
    pass_start_ = now;
  }
  const double seconds = std::chrono::duration<double>(now - pass_start_).count();
  std::fprintf(out_, "\r\033[K%s", FormatLoadProgress(what_, progress, seconds).c_str());
  std::fflush(out_);
  shown_ = true;
}

}  // namespace treering::cli
