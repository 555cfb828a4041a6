// The distributed timing report printed after training (docs/distributed.md): per-round
// compute time T_comp and synchronisation time T_sync (wall time inside rabit collectives),
// the payload handed to collectives, and the speedup the synchronous-SGD model predicts,
// R * T_comp / (T_comp + T_sync), next to the measured one when a single-worker time is known.
//
// With a link model (the rabit_link_bandwidth_mbps / rabit_link_latency_us keys) it also
// predicts the round from the link: T_round = T_comp + T_sync(link), where every collective
// pays the latency once per step and its payload crosses each rank's link 2(R-1)/R times
// (docs/distributed.md, "The cost model"), and names the bottleneck.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace treering::cli {

// Totals over the boosting rounds of one job, already averaged over the workers.
struct RoundTotals {
  int workers = 1;
  int rounds = 0;
  double comp_s = 0;           // round wall time outside collectives
  double sync_s = 0;           // wall time inside collectives (includes waiting for peers)
  double payload_bytes = 0;    // bytes handed to collectives
  double calls = 0;            // collectives called
  double scattered_bytes = 0;  // of payload_bytes, by reduce-scatters (their slices)
  // The slowest rank's comp_s: a synchronous round waits for it (0: unknown, comp_s is used).
  double comp_max_s = 0;
};

// One link between two ranks, as the rabit_link_* keys state it (docs/collectives.md).
struct LinkModel {
  double bandwidth_mbps = 0;  // Mbit/s each way
  double latency_us = 0;      // per message
};

// The link model of a job's rabit keys (the last value of a key wins, as in rabit::Init); a key
// not given takes rabit's default. nullopt when neither key is given: the report then has no
// link to predict from (rabit's defaults describe loopback, not the job's network).
std::optional<LinkModel> LinkModelFromParams(
    const std::vector<std::pair<std::string, std::string>>& rabit_params);

// R * T_comp / (T_comp + T_sync); 0 when both times are 0.
double PredictedSpeedup(int workers, double comp_s, double sync_s);

// Latency steps of one bandwidth-optimal Allreduce over `workers` ranks: recursive halving
// (reduce-scatter) then doubling (allgather), 2 log2 R; a world that is not a power of two
// folds its extra ranks in and out first (Rabenseifner), 2 steps more. 0 for one rank.
int AllreduceSteps(int workers);

// Predicted seconds inside collectives for `calls` collectives moving `payload_bytes` in all, of
// which `scattered_bytes` are reduce-scatter slices: calls * steps * latency + (2(R-1)/R *
// (payload_bytes - scattered_bytes) + (R-1) * scattered_bytes) / bandwidth (a ring
// reduce-scatter sends every other rank's slice once). 0 for one rank.
double PredictedSyncSeconds(int workers, double payload_bytes, double calls, const LinkModel& link,
                            double scattered_bytes = 0);

// The report's lines (no trailing newlines). single_worker_seconds > 0 adds the measured
// speedup: single_worker_seconds / (this job's rounds time = comp_s + sync_s). A link model
// adds the predicted round, its ratio to the measured one, the bottleneck and (with
// single_worker_seconds) the predicted speed-up over one host.
std::vector<std::string> FormatTimingReport(const RoundTotals& totals, double single_worker_seconds,
                                            const std::optional<LinkModel>& link = std::nullopt);

}  // namespace treering::cli
