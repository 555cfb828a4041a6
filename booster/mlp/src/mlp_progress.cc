// MlpLearner's own lines in the driver's training job: the network at start-up, one progress
// line per epoch (loss, throughput, compute / sync split) with the per-bucket sync times at
// verbosity 2, and the parameter checksum every rank agreed on.
#include <algorithm>
#include <cstdio>

#include "booster/mlp/mlp_learner.h"

namespace treering::booster::mlp {
namespace {

LogLine StartLine(const Trainer& trainer, const MlpParam& param, int world) {
  return {1, "treering: mlp " + WidthsText(trainer.arch().widths()) + ", " + std::to_string(world) +
                 " worker(s) x batch " + std::to_string(param.batch_size) + " = effective batch " +
                 std::to_string(world * param.batch_size) + ", " +
                 std::to_string(trainer.steps_per_epoch()) + " steps per epoch, " +
                 std::to_string(trainer.arch().NumParams()) + " parameters"};
}

std::vector<LogLine> EpochLines(int epoch, const EpochReport& r, double wall_s, int world) {
  char line[256];
  std::snprintf(line, sizeof(line),
                "[%d]\ttrain-loss:%.6f\tsamples/s:%.0f\tcompute:%.3fs\tsync:%.3fs\tepoch:%.3fs",
                epoch, r.train_loss, r.rows / std::max(1e-9, wall_s), r.compute_s, r.sync_s,
                wall_s);
  std::vector<LogLine> lines{{1, line}};
  if (world == 1) return lines;
  // Where the sync time goes, bucket by bucket (for bucket_bytes tuning).
  std::snprintf(line, sizeof(line), "[%d]\tsync per bucket (floats:seconds):", epoch);
  std::string buckets = line;
  for (std::size_t i = 0; i < r.bucket_sync_s.size(); ++i) {
    std::snprintf(line, sizeof(line), " %zu:%.3f", r.bucket_floats[i], r.bucket_sync_s[i]);
    buckets += line;
  }
  lines.push_back({2, buckets});
  return lines;
}

}  // namespace

std::vector<LogLine> MlpLearner::Lines(TrainStage stage, const TrainProgress& p) const {
  switch (stage) {
    case TrainStage::kReady:
      return {StartLine(*trainer_, param_, comm_->WorldSize())};
    case TrainStage::kRoundEnd:
      return EpochLines(p.round, last_epoch_, last_epoch_s_, comm_->WorldSize());
    case TrainStage::kAfterTimingReport: {
      char line[256];
      std::snprintf(line, sizeof(line),
                    "treering: %d epochs in %.3f s; parameter checksum %016llx equal on all ranks",
                    trainer_->epochs_done(), p.loop_s,
                    static_cast<unsigned long long>(trainer_->Checksum()));
      return {{1, line}};
    }
    default:
      return {};
  }
}

}  // namespace treering::booster::mlp
