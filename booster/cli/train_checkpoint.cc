#include "train_checkpoint.h"

#include <cstdint>
#include <cstring>
#include <string_view>

namespace treering::cli {

// Layout: u64 length of the early-stopping state, that state, then the learner's bytes.
void RoundCheckpoint::Save(std::string* out) const {
  const std::string stopping = stopping_->SaveState();
  const std::uint64_t n = stopping.size();
  out->assign(reinterpret_cast<const char*>(&n), sizeof(n));
  out->append(stopping);
  learner_->SaveCheckpoint(out);
}

Status RoundCheckpoint::Restore() {
  std::uint64_t n = 0;
  if (loaded_.size() < sizeof(n)) return Status::Internal("checkpoint: truncated");
  std::memcpy(&n, loaded_.data(), sizeof(n));
  if (loaded_.size() < sizeof(n) + n) return Status::Internal("checkpoint: truncated");
  stopping_->LoadState(loaded_.substr(sizeof(n), n));
  return learner_->RestoreCheckpoint(std::string_view(loaded_).substr(sizeof(n) + n));
}

}  // namespace treering::cli
