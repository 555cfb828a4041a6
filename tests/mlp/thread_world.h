// N ranks as threads of one process, for the trainer's Collective interface: shared-memory
// allreduce (each rank adds all ranks' buffers in rank order, so every rank gets bit-identical
// sums) and broadcast, separated by barriers.
#pragma once

#include <barrier>
#include <cstring>
#include <functional>
#include <thread>
#include <vector>

#include "booster/mlp/collective.h"

namespace treering::booster::mlp::testing {

class ThreadWorld {
 public:
  explicit ThreadWorld(int world) : world_(world), slots_(world), barrier_(world) {}

  class Member final : public Collective {
   public:
    Member(ThreadWorld* w, int rank) : w_(w), rank_(rank) {}
    int Rank() const override { return rank_; }
    int WorldSize() const override { return w_->world_; }
    void SumFloats(float* buf, std::size_t n) override { Sum(buf, n); }
    void SumDoubles(double* buf, std::size_t n) override { Sum(buf, n); }
    void MaxU64(std::uint64_t* buf, std::size_t n) override {
      Reduce(buf, n, [](std::uint64_t a, std::uint64_t b) { return a > b ? a : b; });
    }
    void Broadcast(void* buf, std::size_t bytes, int root) override {
      w_->slots_[rank_] = buf;
      w_->barrier_.arrive_and_wait();
      if (rank_ != root) std::memcpy(buf, w_->slots_[root], bytes);
      w_->barrier_.arrive_and_wait();
    }

   private:
    template <typename T>
    void Sum(T* buf, std::size_t n) {
      Reduce(buf, n, [](T a, T b) { return a + b; });
    }
    template <typename T, typename Op>
    void Reduce(T* buf, std::size_t n, Op op) {
      w_->slots_[rank_] = buf;
      w_->barrier_.arrive_and_wait();
      std::vector<T> acc(static_cast<const T*>(w_->slots_[0]),
                         static_cast<const T*>(w_->slots_[0]) + n);
      for (int r = 1; r < w_->world_; ++r) {
        const T* other = static_cast<const T*>(w_->slots_[r]);
        for (std::size_t i = 0; i < n; ++i) acc[i] = op(acc[i], other[i]);
      }
      w_->barrier_.arrive_and_wait();
      std::memcpy(buf, acc.data(), n * sizeof(T));
    }
    ThreadWorld* w_;
    int rank_;
  };

  // Runs fn(rank, collective) on `world` threads and joins them.
  void Run(const std::function<void(int, Collective*)>& fn) {
    std::vector<std::thread> threads;
    for (int r = 0; r < world_; ++r) {
      threads.emplace_back([this, r, &fn] {
        Member comm(this, r);
        fn(r, &comm);
      });
    }
    for (auto& t : threads) t.join();
  }

 private:
  int world_;
  std::vector<void*> slots_;
  std::barrier<> barrier_;
};

}  // namespace treering::booster::mlp::testing
