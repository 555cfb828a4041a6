#include "timing_report.h"

#include <cstdio>
#include <cstdlib>

#include "rabit/params.h"

namespace treering::cli {
namespace {

constexpr const char* kBandwidthKey = "rabit_link_bandwidth_mbps";
constexpr const char* kLatencyKey = "rabit_link_latency_us";

double RabitDefault(const std::string& key) {
  for (const ParamDoc& doc : rabit::ParamDocs()) {
    if (doc.key == key) return std::strtod(doc.default_value.c_str(), nullptr);
  }
  return 0;
}

// Bytes per second of a link of `mbps` Mbit/s (the keys count 10^6 bits).
double BytesPerSecond(double mbps) { return mbps * 1e6 / 8; }

// Line 1 and 2: what was measured, and the sync-SGD model's speedup.
void AddMeasuredLines(const RoundTotals& t, double single_worker_seconds,
                      std::vector<std::string>* lines) {
  const double rounds = t.rounds > 0 ? t.rounds : 1;
  const double comp = t.comp_s / rounds;
  const double sync = t.sync_s / rounds;
  const double ratio = comp > 0 ? sync / comp : 0.0;
  char line[512];
  std::snprintf(line, sizeof(line),
                "treering: timing: %d rounds on %d worker%s in %.3f s; per round (mean over "
                "workers): T_comp %.4f s, T_sync %.4f s, T_sync/T_comp %.3f, %.0f bytes in %.1f "
                "collectives",
                t.rounds, t.workers, t.workers == 1 ? "" : "s", t.comp_s + t.sync_s, comp, sync,
                ratio, t.payload_bytes / rounds, t.calls / rounds);
  lines->emplace_back(line);
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
  lines->emplace_back(line);
}

// The link model's lines: predicted T_sync, predicted vs measured round, bottleneck, and the
// speed-up over one host when its time is known.
void AddLinkLines(const RoundTotals& t, double single_worker_seconds, const LinkModel& link,
                  std::vector<std::string>* lines) {
  const double rounds = t.rounds > 0 ? t.rounds : 1;
  const double calls = t.calls / rounds;
  const double bytes = t.payload_bytes / rounds;
  const double scattered = t.scattered_bytes / rounds;
  const int steps = AllreduceSteps(t.workers);
  const double latency_s = calls * steps * link.latency_us * 1e-6;
  const double sync = PredictedSyncSeconds(t.workers, bytes, calls, link, scattered);
  const double measured_sync = t.sync_s / rounds;
  char wire[160];
  if (scattered > 0) {  // tree_learner=data: histograms are reduce-scattered
    std::snprintf(wire, sizeof(wire), "(2*%d/%d x %.0f + %d x %.0f reduce-scattered) bytes",
                  t.workers - 1, t.workers, bytes - scattered, t.workers - 1, scattered);
  } else {
    std::snprintf(wire, sizeof(wire), "2*%d/%d x %.0f bytes", t.workers - 1, t.workers, bytes);
  }
  char line[512];
  std::snprintf(line, sizeof(line),
                "treering: timing: link %g Mbit/s, %g us: predicted T_sync per round = %.1f "
                "calls x %d steps x %g us + %s / %g Mbit/s = %.4f + %.4f = %.4f s (measured "
                "%.4f s)",
                link.bandwidth_mbps, link.latency_us, calls, steps, link.latency_us, wire,
                link.bandwidth_mbps, latency_s, sync - latency_s, sync, measured_sync);
  lines->emplace_back(line);
  // A synchronous round waits for its slowest rank's compute.
  const double comp = (t.comp_max_s > 0 ? t.comp_max_s : t.comp_s) / rounds;
  const double predicted = comp + sync;
  const double measured = (t.comp_s + t.sync_s) / rounds;
  const bool sync_bound = sync > comp;
  std::snprintf(line, sizeof(line),
                "treering: timing: predicted round = T_comp (slowest worker) + predicted T_sync "
                "= %.4f + %.4f = %.4f s; measured %.4f s, measured/predicted %.2f; bottleneck: "
                "%s (%.0f%% of the predicted round)",
                comp, sync, predicted, measured, predicted > 0 ? measured / predicted : 0.0,
                sync_bound ? "sync" : "compute",
                predicted > 0 ? 100 * (sync_bound ? sync : comp) / predicted : 0.0);
  lines->emplace_back(line);
  if (single_worker_seconds <= 0 || predicted <= 0 || measured <= 0) return;
  const double one_host = single_worker_seconds / rounds;
  std::snprintf(line, sizeof(line),
                "treering: timing: speed-up over 1 host (its round %.4f s, single_worker_seconds "
                "/ rounds): predicted %.2f, measured %.2f",
                one_host, one_host / predicted, one_host / measured);
  lines->emplace_back(line);
}

}  // namespace

std::optional<LinkModel> LinkModelFromParams(
    const std::vector<std::pair<std::string, std::string>>& rabit_params) {
  bool given = false;
  LinkModel link{RabitDefault(kBandwidthKey), RabitDefault(kLatencyKey)};
  for (const auto& [key, value] : rabit_params) {
    double* field = key == kBandwidthKey ? &link.bandwidth_mbps
                    : key == kLatencyKey ? &link.latency_us
                                         : nullptr;
    if (field == nullptr) continue;
    // rabit::CheckParam has accepted the value (a number > 0) before training starts.
    *field = std::strtod(value.c_str(), nullptr);
    given = true;
  }
  if (!given || !(link.bandwidth_mbps > 0) || !(link.latency_us > 0)) return std::nullopt;
  return link;
}

double PredictedSpeedup(int workers, double comp_s, double sync_s) {
  const double round = comp_s + sync_s;
  return round > 0 ? workers * comp_s / round : 0.0;
}

int AllreduceSteps(int workers) {
  if (workers <= 1) return 0;
  int log2 = 0;
  while ((2 << log2) <= workers) ++log2;
  const bool power_of_two = (1 << log2) == workers;
  return 2 * log2 + (power_of_two ? 0 : 2);
}

double PredictedSyncSeconds(int workers, double payload_bytes, double calls, const LinkModel& link,
                            double scattered_bytes) {
  if (workers <= 1 || !(link.bandwidth_mbps > 0)) return 0.0;
  const double crossings = 2.0 * (workers - 1) / workers;
  const double wire_bytes =
      crossings * (payload_bytes - scattered_bytes) + (workers - 1) * scattered_bytes;
  return calls * AllreduceSteps(workers) * link.latency_us * 1e-6 +
         wire_bytes / BytesPerSecond(link.bandwidth_mbps);
}

std::vector<std::string> FormatTimingReport(const RoundTotals& t, double single_worker_seconds,
                                            const std::optional<LinkModel>& link) {
  std::vector<std::string> lines;
  AddMeasuredLines(t, single_worker_seconds, &lines);
  if (link && t.workers > 1) AddLinkLines(t, single_worker_seconds, *link, &lines);
  return lines;
}

}  // namespace treering::cli
