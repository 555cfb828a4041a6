#include "engines/robust/result_cache.h"

#include <algorithm>
#include <cstring>

namespace rabit::engine {

std::uint8_t* ResultCache::Tail(std::size_t bytes) {
  if (used_ + bytes > capacity_) {
    const std::size_t grown = std::max(used_ + bytes, capacity_ * 2);
    std::unique_ptr<std::uint8_t[]> bigger(new std::uint8_t[grown]);
    if (used_ != 0) std::memcpy(bigger.get(), arena_.get(), used_);
    arena_ = std::move(bigger);
    capacity_ = grown;
  }
  return arena_.get() + used_;
}

void ResultCache::Stage(const void* data, std::size_t bytes) {
  if (bytes != 0) std::memcpy(Tail(bytes), data, bytes);
}

void ResultCache::Unstage(void* out, std::size_t bytes) const {
  if (bytes != 0) std::memcpy(out, arena_.get() + used_, bytes);
}

void ResultCache::Append(const transport::OpHeader& signature, const void* data,
                         std::size_t bytes) {
  std::uint8_t* tail = Tail(bytes);
  if (bytes != 0 && tail != data) std::memcpy(tail, data, bytes);
  entries_.push_back(Entry{signature, used_, bytes});
  used_ += bytes;
}

ResultCache::View ResultCache::Get(std::size_t index) {
  Entry& e = entries_[index];
  return View{&e.signature, arena_.get() + e.offset, e.bytes};
}

void ResultCache::Clear() {
  entries_.clear();
  used_ = 0;
}

}  // namespace rabit::engine
