// Read-ahead for a remote file: while the loader parses one block of a chunk, a fetch thread
// already receives the next ones, so transfer and parsing overlap instead of taking turns (and
// the server is never left waiting on a full socket buffer while the client parses).
//
// Contract: one HttpReadAhead per loader thread, used from that thread only (the fetch thread
// is internal). WillRead(begin, end) starts fetching [begin, end) in blocks of kBlockBytes over
// the reader's one keep-alive connection (one GET for the whole range); at most kBlocksAhead
// blocks are held, so memory stays bounded whatever the range. ReadAt at the position the
// read-ahead has reached is served from those blocks; any other ReadAt first stops the fetch
// thread and then reads directly. Failures (after the reader's own retries and resumes) come
// back from the ReadAt that reaches the failing byte, exactly as a direct read would return
// them. Destruction stops the fetch thread after the block it is receiving.
//
// ForEachLineBlock is the loader's scan without ReadAt's copy: it hands out whole lines
// straight from the received blocks (the copy out of the blocks was 4% of the client's CPU).
// Each block is received kHeadroom bytes into its buffer, so the unfinished line of the block
// before can be put in front of it, and has one byte after it for the terminating '\n'.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <mutex>
#include <string_view>
#include <thread>
#include <vector>

#include "base/status.h"
#include "net/http_range_reader.h"

namespace treering::net {

class HttpReadAhead {
 public:
  static constexpr std::size_t kBlockBytes = 1 << 20;
  static constexpr std::size_t kBlocksAhead = 4;  // counting the one being parsed
  // Room in front of a block for the unfinished line of the block before; longer lines are
  // joined in the caller's buffer instead.
  static constexpr std::size_t kHeadroom = 64 * 1024;

  using OnLines = std::function<bool(std::string_view text, std::uint64_t offset)>;

  explicit HttpReadAhead(HttpRangeReader reader) : reader_(std::move(reader)) {}
  HttpReadAhead(const HttpReadAhead&) = delete;
  HttpReadAhead& operator=(const HttpReadAhead&) = delete;
  ~HttpReadAhead() { Stop(); }

  // Reads in order over [begin, end) follow: fetch them ahead of the reads.
  void WillRead(std::uint64_t begin, std::uint64_t end);

  // The reader itself, for a request of another kind: the fetch thread is stopped first.
  HttpRangeReader* StoppedReader() {
    Stop();
    return &reader_;
  }

  // Reads up to n bytes at `offset`; *got < n only at end of file.
  Status ReadAt(std::uint64_t offset, char* buffer, std::size_t n, std::size_t* got);

  // The loader's line scan (data's ForEachLineBlock) over [begin, end) of this file: the same
  // pieces and offsets, parsed in place in the received blocks. `spill` holds an unfinished line
  // between blocks and joins lines longer than kHeadroom; it grows only for such lines.
  Status ForEachLineBlock(std::uint64_t begin, std::uint64_t end, std::vector<char>& spill,
                          const OnLines& on_lines);

 private:
  struct Block {
    std::vector<char> bytes;
    std::size_t size = 0;   // bytes received
    std::size_t taken = 0;  // bytes already handed to ReadAt
    Status status;          // the failure after `size` bytes, if any
    bool last = false;      // nothing follows: end of the range, end of file, or failure
  };

  void Fetch(std::uint64_t begin, std::uint64_t end);
  void Stop();
  Status ReadAhead(char* buffer, std::size_t n, std::size_t* got);
  // Gives back the block lent by TakeBlock, then waits for the next one and lends it (its
  // `size` is 0 when the fetch thread has queued nothing more).
  Block* TakeBlock();
  void ReturnLent();

  HttpRangeReader reader_;  // owned by the fetch thread while it runs
  std::thread fetcher_;
  std::mutex mutex_;
  std::condition_variable changed_;
  std::deque<Block> ready_;               // received, in file order
  Block lent_;                            // taken by ForEachLineBlock, parsed in place
  std::vector<std::vector<char>> spare_;  // emptied blocks, reused
  std::size_t held_ = 0;                  // blocks ready, being received or lent
  bool stopping_ = false;
  bool fetch_done_ = false;  // the fetch thread has queued its last block
  std::uint64_t next_ = 0;   // file offset the next ReadAt from the blocks starts at
  std::uint64_t end_ = 0;    // end of the range being fetched
};

}  // namespace treering::net
