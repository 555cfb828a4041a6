// Read-only mappings of external memory's page files, and the keeper of the resident cap.
//
// Why a keeper thread and not a budget in the readers: histogram building and partitioning
// read the pages from several places in the grower; handing mapped pages of a read-only
// shared file mapping back (MADV_DONTNEED) is safe at any moment (a later read faults the
// same bytes back from the page cache), so one thread that watches the resident size and
// trims the mappings keeps the cap without any reader knowing, and cannot change a result.
// A page file truncated under a mapping makes reads fault (SIGBUS): the handler names the
// file and exits with status 2 instead of crashing.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <string>
#include <thread>
#include <vector>

#include "base/status.h"

namespace treering::booster {

class PageMapping {
 public:
  PageMapping() = default;
  ~PageMapping();
  PageMapping(const PageMapping&) = delete;
  PageMapping& operator=(const PageMapping&) = delete;

  // Maps `bytes` of the file; a file of another size is an error naming it.
  Status Map(int fd, const std::string& path, std::size_t bytes);
  const void* region(std::size_t i) const { return regions_[i].data; }
  // Trims the mappings whenever the process's resident size nears `cap` bytes (0: never).
  void KeepUnder(std::uint64_t cap);
  // How many times the keeper trimmed (for tests and the bench).
  std::uint64_t trims() const { return trims_.load(std::memory_order_relaxed); }
  bool realtime() const { return realtime_.load(); }

 private:
  struct Region {
    void* data = nullptr;
    std::size_t bytes = 0;
  };
  void Keep(std::uint64_t cap);
  void TrimAll();

  std::vector<Region> regions_;
  std::thread keeper_;
  std::atomic<bool> stop_{false};
  std::atomic<std::uint64_t> trims_{0};
  std::atomic<bool> realtime_{false};
};

}  // namespace treering::booster
