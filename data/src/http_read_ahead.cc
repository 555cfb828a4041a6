#include "http_read_ahead.h"

#include <algorithm>
#include <cstring>

namespace treering::data::detail {

void HttpReadAhead::WillRead(std::uint64_t begin, std::uint64_t end) {
  Stop();
  reader_.WillRead(end);
  if (begin >= end) return;
  stopping_ = false;
  fetch_done_ = false;
  next_ = begin;
  end_ = end;
  fetcher_ = std::thread([this, begin, end] { Fetch(begin, end); });
}

// The fetch thread: receives [begin, end) block by block, never holding more than
// kBlocksAhead blocks that ReadAt has not emptied yet.
void HttpReadAhead::Fetch(std::uint64_t begin, std::uint64_t end) {
  std::uint64_t pos = begin;
  while (true) {
    std::vector<char> bytes;
    {
      std::unique_lock<std::mutex> lock(mutex_);
      changed_.wait(lock, [&] { return stopping_ || held_ < kBlocksAhead; });
      if (stopping_) {
        fetch_done_ = true;
        changed_.notify_all();
        return;
      }
      ++held_;
      if (!spare_.empty()) {
        bytes = std::move(spare_.back());
        spare_.pop_back();
      }
    }
    bytes.resize(kBlockBytes);
    const std::size_t want =
        static_cast<std::size_t>(std::min<std::uint64_t>(kBlockBytes, end - pos));
    std::size_t got = 0;
    Status status = reader_.ReadAt(pos, bytes.data(), want, &got);
    pos += got;
    const bool last = !status.ok() || got < want || pos >= end;
    std::lock_guard<std::mutex> lock(mutex_);
    ready_.push_back(Block{std::move(bytes), got, 0, std::move(status), last});
    fetch_done_ = last;
    changed_.notify_all();
    if (last) return;
  }
}

void HttpReadAhead::Stop() {
  if (!fetcher_.joinable()) return;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
  }
  changed_.notify_all();
  fetcher_.join();
  for (Block& block : ready_) spare_.push_back(std::move(block.bytes));
  ready_.clear();
  held_ = 0;
}

Status HttpReadAhead::ReadAt(std::uint64_t offset, char* buffer, std::size_t n, std::size_t* got) {
  *got = 0;
  if (fetcher_.joinable() && offset == next_) {
    if (Status s = ReadAhead(buffer, n, got); !s.ok() || *got == n) return s;
    offset += *got;  // past the fetched range: the rest is read directly
  }
  Stop();
  std::size_t more = 0;
  Status s = reader_.ReadAt(offset, buffer + *got, n - *got, &more);
  *got += more;
  return s;
}

// Copies from the fetched blocks until n bytes, a failure, or the last fetched block.
Status HttpReadAhead::ReadAhead(char* buffer, std::size_t n, std::size_t* got) {
  std::unique_lock<std::mutex> lock(mutex_);
  while (*got < n) {
    changed_.wait(lock, [&] { return !ready_.empty() || fetch_done_; });
    if (ready_.empty()) return Status::Ok();  // everything fetched was read
    // The fetch thread only appends to ready_ (which keeps references valid) and never
    // touches a queued block: copy outside the lock.
    Block& block = ready_.front();
    lock.unlock();
    const std::size_t take = std::min(n - *got, block.size - block.taken);
    std::memcpy(buffer + *got, block.bytes.data() + block.taken, take);
    block.taken += take;
    *got += take;
    next_ += take;
    lock.lock();
    if (block.taken < block.size) continue;
    Status status = std::move(block.status);
    const bool last = block.last;
    spare_.push_back(std::move(block.bytes));
    ready_.pop_front();
    --held_;
    changed_.notify_all();
    if (!status.ok()) return status;
    if (last) return Status::Ok();
  }
  return Status::Ok();
}

}  // namespace treering::data::detail
