#include "status/heartbeat.h"

#include <unistd.h>

#include <chrono>

namespace rabit::status {

treering::proto::Report Progress::Snapshot() const {
  treering::proto::Report r;
  r.pid = static_cast<std::uint32_t>(::getpid());
  r.round = round_.load(std::memory_order_relaxed);
  r.phase = phase_.load(std::memory_order_relaxed);
  r.op = static_cast<treering::proto::OpKind>(op_.load(std::memory_order_relaxed));
  // finished before entered: a reader never sees finished > entered.
  r.finished = finished_.load(std::memory_order_acquire);
  r.entered = entered_.load(std::memory_order_acquire);
  r.bytes = bytes_.load(std::memory_order_relaxed);
  r.hang_report_s = hang_report_s_;
  if (links_) {
    const std::int64_t now = transport::LinkTrafficTable::NowNs();
    for (int peer = 0; peer < links_->world(); ++peer) {
      const transport::LinkTraffic* t = links_->Peer(peer);
      if (!t->used.load(std::memory_order_relaxed)) continue;
      treering::proto::LinkReport link;
      link.peer = peer;
      link.sent = t->sent.load(std::memory_order_relaxed);
      link.received = t->received.load(std::memory_order_relaxed);
      link.idle_s =
          static_cast<double>(now - t->last_byte_ns.load(std::memory_order_relaxed)) * 1e-9;
      link.waiting = t->waiting.load(std::memory_order_relaxed) > 0;
      r.links.push_back(link);
    }
  }
  return r;
}

Heartbeat::Heartbeat(const Progress* progress, Send send, double interval_s)
    : progress_(progress), send_(std::move(send)), interval_s_(interval_s) {
  thread_ = std::thread([this] { Run(); });
}

void Heartbeat::Stop() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  if (thread_.joinable()) thread_.join();
}

void Heartbeat::Run() {
  const auto interval = std::chrono::duration_cast<std::chrono::steady_clock::duration>(
      std::chrono::duration<double>(interval_s_));
  std::unique_lock<std::mutex> lock(mutex_);
  while (!stopping_) {
    lock.unlock();
    const bool sent = send_(progress_->Snapshot()).ok();
    lock.lock();
    if (!sent) return;
    wake_.wait_for(lock, interval, [this] { return stopping_; });
  }
}

}  // namespace rabit::status
