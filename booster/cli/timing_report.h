// The distributed timing report printed after training (docs/distributed.md): per-round
// compute time T_comp and synchronisation time T_sync (wall time inside rabit collectives),
// the payload handed to collectives, and the speedup the synchronous-SGD model predicts,
// R * T_comp / (T_comp + T_sync), next to the measured one when a single-worker time is known.
#pragma once

#include <string>
#include <vector>

namespace treering::cli {

// Totals over the boosting rounds of one job, already averaged over the workers.
struct RoundTotals {
  int workers = 1;
  int rounds = 0;
  double comp_s = 0;         // round wall time outside collectives
  double sync_s = 0;         // wall time inside collectives (includes waiting for peers)
  double payload_bytes = 0;  // bytes handed to collectives
  double calls = 0;          // collectives called
};

// R * T_comp / (T_comp + T_sync); 0 when both times are 0.
double PredictedSpeedup(int workers, double comp_s, double sync_s);

// The report's lines (no trailing newlines). single_worker_seconds > 0 adds the measured
// speedup: single_worker_seconds / (this job's rounds time = comp_s + sync_s).
std::vector<std::string> FormatTimingReport(const RoundTotals& totals,
                                            double single_worker_seconds);

}  // namespace treering::cli
