// SingleEngine: a world of one. Used when no tracker or MPI launcher is in the environment,
// so `treering train.conf` runs locally with no set-up and no communication cost, and for
// rabit::MakeWorldOfOne(). Checkpoints only count versions (the Engine defaults).
#pragma once

#include "engines/engine.h"
#include "transport/mailbox.h"

namespace rabit::engine {

class SingleEngine final : public Engine {
 public:
  int Rank() const override { return 0; }
  int WorldSize() const override { return 1; }

  Status Allreduce(void*, std::size_t, DataType, OpKind, const PrepareFn& prepare) override;
  Status Broadcast(void*, std::size_t, int root) override;
  Status Allgather(void*, const std::vector<std::size_t>& slice_bytes) override;
  Status TrackerPrint(const std::string& msg) override;
  // Messages to self only, copied in memory (MPI's world of one does the same).
  Result<PointToPoint*> Messages() override { return &messages_; }

 private:
  transport::Mailbox messages_{transport::MailboxOptions{}, {}};
};

}  // namespace rabit::engine
