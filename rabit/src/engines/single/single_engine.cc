#include "engines/single/single_engine.h"

#include <cstdio>

namespace rabit::engine {

Status SingleEngine::Allreduce(void*, std::size_t, DataType, OpKind, const PrepareFn& prepare) {
  if (prepare) prepare();
  return Status::Ok();
}

Status SingleEngine::Broadcast(void*, std::size_t, int root) {
  if (root != 0)
    return Status::InvalidInput("Broadcast: root " + std::to_string(root) +
                                " is not a rank of a world of size 1");
  return Status::Ok();
}

Status SingleEngine::Allgather(void*, const std::vector<std::size_t>& slice_bytes) {
  if (slice_bytes.size() != 1) return Status::InvalidInput("Allgather: expected one slice");
  return Status::Ok();
}

Status SingleEngine::TrackerPrint(const std::string& msg) {
  std::fputs(msg.c_str(), stdout);
  if (msg.empty() || msg.back() != '\n') std::fputc('\n', stdout);
  std::fflush(stdout);
  return Status::Ok();
}

}  // namespace rabit::engine
