// MessageWorld: N ranks as threads in one process, each with a Mailbox over real loopback TCP
// message links (one per pair, as the socket engine makes them). RunOnAll runs fn(rank, box) on
// every rank concurrently and returns each rank's Status.
#pragma once

#include <functional>
#include <memory>
#include <stdexcept>
#include <thread>
#include <vector>

#include "bootstrap/loopback_links.h"
#include "transport/mailbox.h"

namespace rabit::testing {

class MessageWorld {
 public:
  explicit MessageWorld(int world, double timeout_seconds = 20)
      : MessageWorld(world, [timeout_seconds](transport::MailboxOptions& options) {
          options.timeout_seconds = timeout_seconds;
        }) {}
  // tune(options) adjusts each rank's options after rank and world are set (timeout 20 s).
  MessageWorld(int world, const std::function<void(transport::MailboxOptions&)>& tune) {
    auto links = bootstrap::BuildLoopbackMessageLinks(world);
    if (!links.ok()) throw std::runtime_error(links.status().message());
    for (int r = 0; r < world; ++r) {
      transport::MailboxOptions options;
      options.rank = r;
      options.world = world;
      options.timeout_seconds = 20;
      tune(options);
      boxes_.push_back(std::make_unique<transport::Mailbox>(options, std::move(links.value()[r])));
    }
  }

  int size() const { return static_cast<int>(boxes_.size()); }
  transport::Mailbox& box(int rank) { return *boxes_[rank]; }

  std::vector<treering::Status> RunOnAll(
      const std::function<treering::Status(int, transport::Mailbox&)>& fn) {
    std::vector<treering::Status> out(boxes_.size());
    std::vector<std::thread> threads;
    for (int r = 0; r < size(); ++r) {
      threads.emplace_back([&, r] { out[r] = fn(r, *boxes_[r]); });
    }
    for (auto& t : threads) t.join();
    return out;
  }

 private:
  std::vector<std::unique_ptr<transport::Mailbox>> boxes_;
};

}  // namespace rabit::testing
