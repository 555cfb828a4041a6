#include "train_checkpoint.h"

#include <cstdint>
#include <cstring>

#include "booster/model_io.h"

namespace treering::cli {

// Layout: u64 length of the early-stopping state, that state, then the model JSON.
void TrainCheckpoint::Save(std::string* out) const {
  const std::string stopping = stopping_->SaveState();
  const std::uint64_t n = stopping.size();
  out->assign(reinterpret_cast<const char*>(&n), sizeof(n));
  out->append(stopping);
  // A model XGBoost could not load cannot come out of training; the model part stays empty
  // then, so Restore() fails loudly instead of resuming from something else.
  (void)json_.AppendTo(learner_->Model(), out);
}

Status TrainCheckpoint::Restore() {
  std::uint64_t n = 0;
  if (loaded_.size() < sizeof(n)) return Status::Internal("checkpoint: truncated");
  std::memcpy(&n, loaded_.data(), sizeof(n));
  if (loaded_.size() < sizeof(n) + n) return Status::Internal("checkpoint: truncated");
  stopping_->LoadState(loaded_.substr(sizeof(n), n));
  json_.Reset();
  auto model = booster::ModelFromJson(std::string_view(loaded_).substr(sizeof(n) + n),
                                      "the checkpoint received from a surviving worker");
  if (!model.ok()) return model.status();
  return learner_->LoadModel(std::move(model.value()));
}

}  // namespace treering::cli
