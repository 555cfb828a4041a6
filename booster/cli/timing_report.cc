#include "timing_report.h"

#include <cstdio>

namespace treering::cli {

double PredictedSpeedup(int workers, double comp_s, double sync_s) {
  const double round = comp_s + sync_s;
  return round > 0 ? workers * comp_s / round : 0.0;
}

std::vector<std::string> FormatTimingReport(const RoundTotals& t, double single_worker_seconds) {
  const double rounds = t.rounds > 0 ? t.rounds : 1;
  const double comp = t.comp_s / rounds;
  const double sync = t.sync_s / rounds;
  const double ratio = comp > 0 ? sync / comp : 0.0;
  std::vector<std::string> lines;
  char line[512];
  std::snprintf(line, sizeof(line),
                "treering: timing: %d rounds on %d worker%s in %.3f s; per round (mean over "
                "workers): T_comp %.4f s, T_sync %.4f s, T_sync/T_comp %.3f, %.0f bytes in %.1f "
                "collectives",
                t.rounds, t.workers, t.workers == 1 ? "" : "s", t.comp_s + t.sync_s, comp, sync,
                ratio, t.payload_bytes / rounds, t.calls / rounds);
  lines.emplace_back(line);
  const double predicted = PredictedSpeedup(t.workers, comp, sync);
  int n = std::snprintf(line, sizeof(line),
                        "treering: timing: speedup predicted by R*T_comp/(T_comp+T_sync) = "
                        "%d*%.4f/(%.4f+%.4f) = %.2f",
                        t.workers, comp, comp, sync, predicted);
  const double total = t.comp_s + t.sync_s;
  if (single_worker_seconds > 0 && total > 0) {
    std::snprintf(line + n, sizeof(line) - static_cast<std::size_t>(n),
                  "; measured %.3f/%.3f = %.2f (single_worker_seconds / this job's rounds)",
                  single_worker_seconds, total, single_worker_seconds / total);
  }
  lines.emplace_back(line);
  return lines;
}

}  // namespace treering::cli
