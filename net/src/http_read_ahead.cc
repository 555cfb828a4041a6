#include "net/http_read_ahead.h"

#include <algorithm>
#include <cstring>

namespace treering::net {

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
    bytes.resize(kHeadroom + kBlockBytes + 1);
    const std::size_t want =
        static_cast<std::size_t>(std::min<std::uint64_t>(kBlockBytes, end - pos));
    std::size_t got = 0;
    Status status = reader_.ReadAt(pos, bytes.data() + kHeadroom, want, &got);
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
  if (!lent_.bytes.empty()) spare_.push_back(std::move(lent_.bytes));
  lent_ = Block{};
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
    std::memcpy(buffer + *got, block.bytes.data() + kHeadroom + block.taken, take);
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

void HttpReadAhead::ReturnLent() {
  if (lent_.bytes.empty()) return;
  std::lock_guard<std::mutex> lock(mutex_);
  spare_.push_back(std::move(lent_.bytes));
  lent_ = Block{};
  --held_;
  changed_.notify_all();
}

HttpReadAhead::Block* HttpReadAhead::TakeBlock() {
  ReturnLent();
  std::unique_lock<std::mutex> lock(mutex_);
  changed_.wait(lock, [&] { return !ready_.empty() || fetch_done_; });
  if (ready_.empty()) return &lent_;  // size 0: nothing more was fetched
  lent_ = std::move(ready_.front());
  ready_.pop_front();
  next_ += lent_.size;
  return &lent_;
}

Status HttpReadAhead::ForEachLineBlock(std::uint64_t begin, std::uint64_t end,
                                       std::vector<char>& spill, const OnLines& on_lines) {
  WillRead(begin, end);
  std::size_t carry = 0;  // bytes of an unfinished line, at the front of `spill`
  std::uint64_t pos = begin;
  while (pos < end) {
    Block* block = TakeBlock();
    if (!block->status.ok()) return block->status;
    if (block->size == 0) return Status::IoError(reader_.url() + ": file shrank while being read");
    char* received = block->bytes.data() + kHeadroom;
    pos += block->size;
    const std::size_t filled = carry + block->size;
    char* text = received - carry;
    if (carry <= kHeadroom) {
      std::memcpy(text, spill.data(), carry);
    } else {  // a line longer than the headroom: join it in `spill`
      if (spill.size() < filled + 1) spill.resize(filled + 1);
      std::memcpy(spill.data() + carry, received, block->size);
      text = spill.data();
    }
    std::size_t complete = filled;  // at `end` everything left is complete lines
    if (pos >= end) {
      text[filled] = '\n';  // the byte after the block (or spill) is there for it
    } else {
      const void* last = memrchr(text, '\n', filled);
      complete = last ? static_cast<const char*>(last) - text + 1 : 0;
    }
    if (complete > 0 && !on_lines(std::string_view(text, complete), pos - filled)) {
      return Status::Ok();
    }
    carry = filled - complete;
    if (spill.size() < carry + 1) spill.resize(carry + 1);
    std::memmove(spill.data(), text + complete, carry);
  }
  ReturnLent();
  return Status::Ok();
}

}  // namespace treering::net
