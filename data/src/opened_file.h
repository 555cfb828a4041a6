// A read-only file read by offset (pread), safe to share between threads, and the bounded
// block reader the parsers consume: it hands out whole lines of a byte range through one
// reused buffer, so a loader never holds more than a block of the file per thread (touching
// the file through mmap would count its pages in the process' RSS).
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/status.h"
#include "csr_cursor.h"
#include "input_files.h"

namespace treering::net {
class HttpReadAhead;
}  // namespace treering::net

namespace treering::data::detail {

// A local path is read with pread and may be shared between threads. An http:// URL is read
// by Range requests over one keep-alive connection (net/http_range_reader.h), with the ranges
// announced by WillRead fetched ahead on a thread of their own (net/http_read_ahead.h): open one
// per thread.
class OpenedFile {
 public:
  // `version` is the ETag a remote file must still have (empty: any, and for local files).
  static Result<OpenedFile> Open(const std::string& path, const std::string& version = "");
  OpenedFile(OpenedFile&& other) noexcept;
  OpenedFile& operator=(OpenedFile&& other) noexcept;
  OpenedFile(const OpenedFile&) = delete;
  OpenedFile& operator=(const OpenedFile&) = delete;
  ~OpenedFile();

  // Reads up to n bytes at `offset`; *got < n only at end of file.
  Status ReadAt(std::uint64_t offset, char* buffer, std::size_t n, std::size_t* got) const;
  const std::string& path() const { return path_; }
  bool remote() const { return remote_ != nullptr; }
  // A remote file's server counts the lines of [begin, end) itself (http_chunk_count.h);
  // nullopt for a local file or a server that does not count.
  Result<std::optional<ChunkCounts>> CountOnServer(std::uint64_t begin, std::uint64_t end,
                                                   TextFormat format,
                                                   std::uint64_t label_column) const;
  // Reads in order over [begin, end) follow: a remote file asks for them in one request and
  // receives them while the caller works on what it has read.
  void WillRead(std::uint64_t begin, std::uint64_t end) const;
  // ForEachLineBlock for a remote file: the lines handed out in place in the received blocks.
  Status ForEachRemoteLineBlock(
      std::uint64_t begin, std::uint64_t end, std::vector<char>& buffer,
      const std::function<bool(std::string_view, std::uint64_t)>& on_lines) const;

 private:
  OpenedFile(int fd, std::string path);
  int fd_ = -1;
  std::string path_;
  std::unique_ptr<net::HttpReadAhead> remote_;  // set for http:// files
};

// Smallest line start >= `offset` in a file of `size` bytes: offset itself when it is 0 or
// follows a '\n', otherwise the byte after the next '\n' (or `size` when there is none).
Result<std::uint64_t> NextLineStart(const OpenedFile& file, std::uint64_t size,
                                    std::uint64_t offset);

// Calls on_lines(text, file_offset_of_text) for consecutive pieces of [begin, end) that each
// end with a '\n' (the last piece ends at `end`, which must be a line start or the file end).
// A last piece without its '\n' is followed by one in the buffer (text.data()[text.size()]),
// so parsers see every line terminated. on_lines returns false to stop early. `buffer` is
// reused across calls and grows only for a line longer than it.
template <typename OnLines>
Status ForEachLineBlock(const OpenedFile& file, std::uint64_t begin, std::uint64_t end,
                        std::vector<char>& buffer, OnLines&& on_lines) {
  if (file.remote()) {
    return file.ForEachRemoteLineBlock(
        begin, end, buffer,
        [&](std::string_view text, std::uint64_t offset) { return on_lines(text, offset); });
  }
  std::size_t carry = 0;  // bytes of an unfinished line kept at the front of the buffer
  std::uint64_t pos = begin;
  while (pos < end) {
    if (carry + 1 >= buffer.size()) buffer.resize(buffer.size() * 2 + 4096);  // a long line
    const std::size_t capacity = buffer.size() - 1;  // one byte for a terminating '\n'
    const std::size_t want =
        static_cast<std::size_t>(std::min<std::uint64_t>(capacity - carry, end - pos));
    std::size_t got = 0;
    if (Status s = file.ReadAt(pos, buffer.data() + carry, want, &got); !s.ok()) return s;
    if (got != want) return Status::IoError(file.path() + ": file shrank while being read");
    pos += got;
    const std::size_t filled = carry + got;
    const std::uint64_t text_offset = pos - filled;
    std::size_t complete = filled;  // at `end` everything left is complete lines
    if (pos == end) {
      buffer[filled] = '\n';
    } else {
      const void* last = memrchr(buffer.data(), '\n', filled);
      complete = last ? static_cast<const char*>(last) - buffer.data() + 1 : 0;
    }
    if (complete > 0 && !on_lines(std::string_view(buffer.data(), complete), text_offset)) {
      return Status::Ok();
    }
    carry = filled - complete;
    std::memmove(buffer.data(), buffer.data() + complete, carry);
  }
  return Status::Ok();
}

}  // namespace treering::data::detail
