#include "opened_file.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <utility>

#include "http_chunk_count.h"
#include "net/http_read_ahead.h"
#include "net/http_url.h"

namespace treering::data::detail {

OpenedFile::OpenedFile(int fd, std::string path) : fd_(fd), path_(std::move(path)) {}

Result<OpenedFile> OpenedFile::Open(const std::string& path, const std::string& version) {
  if (net::IsHttpUri(path)) {
    Result<net::HttpRangeReader> reader = net::HttpRangeReader::Create(path, version);
    if (!reader.ok()) return reader.status();
    OpenedFile file(-1, path);
    file.remote_ = std::make_unique<net::HttpReadAhead>(std::move(*reader));
    return file;
  }
  const int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return Status::IoError(path + ": cannot open: " + std::strerror(errno));
  return OpenedFile(fd, path);
}

OpenedFile::OpenedFile(OpenedFile&& other) noexcept
    : fd_(std::exchange(other.fd_, -1)),
      path_(std::move(other.path_)),
      remote_(std::move(other.remote_)) {}

OpenedFile& OpenedFile::operator=(OpenedFile&& other) noexcept {
  if (this != &other) {
    if (fd_ >= 0) close(fd_);
    fd_ = std::exchange(other.fd_, -1);
    path_ = std::move(other.path_);
    remote_ = std::move(other.remote_);
  }
  return *this;
}

OpenedFile::~OpenedFile() {
  if (fd_ >= 0) close(fd_);
}

Status OpenedFile::ReadAt(std::uint64_t offset, char* buffer, std::size_t n,
                          std::size_t* got) const {
  if (remote_) return remote_->ReadAt(offset, buffer, n, got);
  *got = 0;
  while (*got < n) {
    const ssize_t r = pread(fd_, buffer + *got, n - *got, static_cast<off_t>(offset + *got));
    if (r < 0 && errno == EINTR) continue;
    if (r < 0) return Status::IoError(path_ + ": read failed: " + std::strerror(errno));
    if (r == 0) break;  // end of file
    *got += static_cast<std::size_t>(r);
  }
  return Status::Ok();
}

void OpenedFile::WillRead(std::uint64_t begin, std::uint64_t end) const {
  if (remote_) remote_->WillRead(begin, end);
}

Status OpenedFile::ForEachRemoteLineBlock(
    std::uint64_t begin, std::uint64_t end, std::vector<char>& buffer,
    const std::function<bool(std::string_view, std::uint64_t)>& on_lines) const {
  return remote_->ForEachLineBlock(begin, end, buffer, on_lines);
}

Result<std::optional<ChunkCounts>> OpenedFile::CountOnServer(std::uint64_t begin, std::uint64_t end,
                                                             TextFormat format,
                                                             std::uint64_t label_column) const {
  if (!remote_) return std::optional<ChunkCounts>();
  return detail::CountOnServer(remote_->StoppedReader(), begin, end, format, label_column);
}

Result<std::uint64_t> NextLineStart(const OpenedFile& file, std::uint64_t size,
                                    std::uint64_t offset) {
  if (offset == 0 || offset >= size) return std::min(offset, size);
  char block[16384];
  std::uint64_t pos = offset - 1;  // the byte before `offset` decides whether a line starts
  while (pos < size) {
    std::size_t got = 0;
    const std::size_t want =
        static_cast<std::size_t>(std::min<std::uint64_t>(sizeof block, size - pos));
    if (Status s = file.ReadAt(pos, block, want, &got); !s.ok()) return s;
    if (got == 0) break;
    if (const void* nl = std::memchr(block, '\n', got)) {
      return pos + (static_cast<const char*>(nl) - block) + 1;
    }
    pos += got;
  }
  return size;
}

}  // namespace treering::data::detail
