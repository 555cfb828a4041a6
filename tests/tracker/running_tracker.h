// A TrackerServer serving on its own thread for tests, with its prints captured.
#pragma once

#include <future>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "tracker/server.h"

namespace treering::testing {

using tracker::TrackerOptions;
using tracker::TrackerServer;

class RunningTracker {
 public:
  explicit RunningTracker(TrackerOptions options) {
    options.print = [this](const std::string& m) {
      std::lock_guard<std::mutex> lock(mu_);
      prints_.push_back(m);
    };
    server_ = std::make_unique<TrackerServer>(std::move(options));
    start_ = server_->Start();
    if (!start_.ok()) return;
    done_ = std::async(std::launch::async, [this] { return server_->Wait(); });
  }
  ~RunningTracker() {
    if (done_.valid()) {
      server_->Stop();
      done_.wait();
    }
  }

  const Status& start_status() const { return start_; }
  std::uint16_t port() const { return server_->port(); }
  TrackerServer& server() { return *server_; }

  // The job's result, or kTimeout when it has not ended within `timeout_s`.
  Status Result(double timeout_s) {
    if (result_) return *result_;
    if (!done_.valid()) return start_;
    if (done_.wait_for(std::chrono::duration<double>(timeout_s)) != std::future_status::ready) {
      return Status::Timeout("tracker still running");
    }
    result_ = std::make_unique<Status>(done_.get());
    return *result_;
  }
  std::vector<std::string> prints() {
    std::lock_guard<std::mutex> lock(mu_);
    return prints_;
  }

 private:
  std::unique_ptr<TrackerServer> server_;
  Status start_;
  std::future<Status> done_;
  std::unique_ptr<Status> result_;
  std::mutex mu_;
  std::vector<std::string> prints_;
};

}  // namespace treering::testing
