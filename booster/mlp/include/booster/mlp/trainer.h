// Synchronous data-parallel SGD over the MLP. Every rank holds its own shard of the rows; per
// step each rank computes the gradient sum of its own minibatch, the sums are allreduced in
// fixed-size buckets (fixed order), divided by the global row weight, and every rank applies the
// same optimizer step, so all replicas stay bit-identical (checked by CheckRanksAgree).
//
// An epoch is the same number of steps on every rank: ceil(max over ranks of shard rows /
// batch_size), agreed by one allreduce. A rank whose shard is shorter contributes smaller (or
// empty) minibatches in its last steps; every row is visited exactly once per epoch. Row order
// within a shard is a fixed function of (seed, epoch), so a run resumed after epoch e takes the
// same steps as one that never stopped.
//
// Trainer state = parameters + optimizer slots + step count + epochs done: all of it is in the
// model file (model_file.h), which makes per-epoch CheckPoint/LoadCheckPoint a matter of
// serialising that same state.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "base/context.h"
#include "booster/mlp/gradient_buckets.h"
#include "booster/mlp/network.h"
#include "booster/mlp/optimizer.h"
#include "data/dmatrix.h"
#include "rabit/comm.h"

namespace treering::booster::mlp {

// Global per-feature statistics over all ranks' rows (an absent feature counts as 0), by one
// allreduce of sums in double. Identity scaling when `standardize` is false.
InputScaling ComputeScaling(const data::DMatrix& local, int num_inputs, bool standardize,
                            rabit::Comm* comm);

// Row visiting order of a shard of `rows` rows in `epoch`: a permutation that depends only on
// (seed, epoch, rows); the identity when shuffle is off.
std::vector<std::uint32_t> EpochOrder(std::size_t rows, std::uint64_t seed, int epoch,
                                      bool shuffle);

struct EpochReport {
  double train_loss = 0;              // global weighted mean loss over the epoch's rows
  double rows = 0;                    // global row weight seen this epoch
  double compute_s = 0;               // forward, backward and update (this rank)
  double sync_s = 0;                  // inside the gradient allreduces (this rank)
  double payload_bytes = 0;           // handed to gradient allreduces (this rank)
  double calls = 0;                   // gradient allreduces
  std::vector<double> bucket_sync_s;  // sync_s per bucket, in plan order
  std::vector<std::size_t> bucket_floats;
  std::int64_t steps = 0;
};

struct TrainerState {
  std::vector<float> params;
  std::vector<std::vector<float>> slots;  // optimizer
  std::int64_t steps = 0;                 // optimizer steps taken
  int epochs_done = 0;
};

class Trainer {
 public:
  Trainer(const MlpParam& param, Architecture arch, const Context& ctx, rabit::Comm* comm);

  // Fresh start: rank 0 initialises from the seed and broadcasts. Resume: `state` (read by
  // every rank from the same file) is broadcast from rank 0 anyway, so replicas start equal.
  void Start(const TrainerState* resume);
  // Takes over a rabit checkpoint's state with no collective: only a restarted rank calls it,
  // while the survivors are already past that checkpoint.
  void Restore(const TrainerState& state);
  // Agrees on the number of steps per epoch for this training shard.
  void SetTrainShard(const data::DMatrix* scaled_train);

  EpochReport RunEpoch(const InputScaling& scaling);
  // 64-bit hash of the parameter bytes; max and min across ranks must agree.
  std::uint64_t Checksum() const;
  bool RanksAgree();

  const Architecture& arch() const { return arch_; }
  const std::vector<float>& params() const { return params_; }
  TrainerState State() const;
  std::int64_t steps_per_epoch() const { return steps_per_epoch_; }
  int epochs_done() const { return epochs_done_; }

 private:
  void StepOn(std::span<const std::uint32_t> rows, const InputScaling& scaling, EpochReport* r);

  MlpParam param_;
  Architecture arch_;
  rabit::Comm* comm_;
  Context ctx_;  // threads of the forward and backward passes
  std::vector<float> params_;
  std::vector<std::uint8_t> is_weight_;
  Optimizer optimizer_;
  std::vector<BucketRange> buckets_;
  std::vector<float> flat_;  // gradients, then row weight and loss sums (allreduced together)
  Workspace ws_;
  const data::DMatrix* train_ = nullptr;
  std::int64_t steps_per_epoch_ = 0;
  int epochs_done_ = 0;
};

}  // namespace treering::booster::mlp
