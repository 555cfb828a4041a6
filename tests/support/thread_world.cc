#include "thread_world.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <thread>

#include "collective/reducer.h"

namespace treering::testing {

// One rank: an engine of the one collective interface (rabit/engine.h) whose collectives meet
// the other ranks' threads at the world's barriers. Messages, Reduce, Gather, Scatter and
// ReduceScatter are the Engine defaults (on top of the three below).
class ThreadWorld::Member final : public rabit::Engine {
 public:
  Member(ThreadWorld* w, int rank) : w_(w), rank_(rank) {}
  int Rank() const override { return rank_; }
  int WorldSize() const override { return w_->world_; }
  Status TrackerPrint(const std::string& msg) override {
    if (rank_ == 0) w_->printed_.push_back(msg);
    return Status::Ok();
  }

  Status Allreduce(void* buf, std::size_t count, rabit::DataType type, rabit::OpKind op,
                   const rabit::PrepareFn& prepare) override {
    if (prepare) prepare();
    // Every rank fails alike (same type and op), so none is left waiting in a barrier.
    auto reduce = rabit::collective::SelectReducer(type, op);
    if (!reduce.ok()) return reduce.status().WithContext("ThreadWorld Allreduce");
    const std::size_t bytes = count * rabit::DataTypeSize(type);
    w_->slots_[rank_] = buf;
    w_->barrier_.arrive_and_wait();
    std::vector<char> acc(static_cast<const char*>(w_->slots_[0]),
                          static_cast<const char*>(w_->slots_[0]) + bytes);
    for (int r = 1; r < w_->world_; ++r) reduce.value()(acc.data(), w_->slots_[r], count);
    w_->barrier_.arrive_and_wait();
    if (bytes != 0) std::memcpy(buf, acc.data(), bytes);
    return Status::Ok();
  }
  Status Broadcast(void* buf, std::size_t bytes, int root) override {
    w_->slots_[rank_] = buf;
    w_->barrier_.arrive_and_wait();
    if (rank_ != root && bytes != 0) std::memcpy(buf, w_->slots_[root], bytes);
    w_->barrier_.arrive_and_wait();
    return Status::Ok();
  }
  Status Allgather(void* buf, const std::vector<std::size_t>& slice_bytes) override {
    w_->slots_[rank_] = buf;
    w_->barrier_.arrive_and_wait();
    std::size_t offset = 0;
    for (int r = 0; r < w_->world_; ++r) {
      if (r != rank_ && slice_bytes[r] != 0) {
        std::memcpy(static_cast<char*>(buf) + offset,
                    static_cast<const char*>(w_->slots_[r]) + offset, slice_bytes[r]);
      }
      offset += slice_bytes[r];
    }
    w_->barrier_.arrive_and_wait();
    return Status::Ok();
  }

 private:
  ThreadWorld* w_;
  int rank_;
};

void ThreadWorld::Run(const std::function<void(int, rabit::Comm*)>& fn) {
  std::vector<std::thread> threads;
  std::vector<std::exception_ptr> errors(world_);
  for (int r = 0; r < world_; ++r) {
    threads.emplace_back([this, r, &fn, &errors] {
      Member engine(this, r);
      rabit::Comm comm(engine);
      try {
        fn(r, &comm);
      } catch (const std::exception& e) {
        // The other ranks would wait forever in the next barrier.
        std::fprintf(stderr, "ThreadWorld: rank %d threw: %s\n", r, e.what());
        std::abort();
      }
    });
  }
  for (auto& t : threads) t.join();
}

}  // namespace treering::testing
