#include "handle_table.h"

#include <mutex>

namespace treering::capi {
namespace {

const char* KindName(HandleKind kind) {
  switch (kind) {
    case HandleKind::kDMatrix:
      return "DMatrix";
    case HandleKind::kBooster:
      return "Booster";
    case HandleKind::kTracker:
      return "Tracker";
  }
  return "unknown";
}

// Handle values start far from small integers and from heap addresses' low range, and step by
// 16, so a pointer or a small number passed by mistake is unlikely to name a live handle.
constexpr std::uintptr_t kFirstHandle = 0x7ee0000000000000ULL;
constexpr std::uintptr_t kHandleStep = 16;

}  // namespace

void* HandleTable::Add(HandleKind kind, std::shared_ptr<void> object) {
  std::unique_lock lock(mutex_);
  const std::uintptr_t id = kFirstHandle + (++next_id_) * kHandleStep;
  entries_.emplace(id, Entry{kind, std::move(object)});
  return reinterpret_cast<void*>(id);
}

std::shared_ptr<void> HandleTable::Get(const void* handle, HandleKind kind,
                                       const char* argument) const {
  if (handle == nullptr) {
    throw ApiError(std::string(argument) + " is null (expected a " + KindName(kind) + " handle)");
  }
  std::shared_lock lock(mutex_);
  auto it = entries_.find(reinterpret_cast<std::uintptr_t>(handle));
  if (it == entries_.end()) {
    throw ApiError(std::string(argument) + " is not a live " + KindName(kind) +
                   " handle (freed, or never created)");
  }
  if (it->second.kind != kind) {
    throw ApiError(std::string(argument) + " is a " + KindName(it->second.kind) +
                   " handle, expected a " + KindName(kind) + " handle");
  }
  return it->second.object;
}

void HandleTable::Remove(const void* handle, HandleKind kind, const char* argument) {
  std::shared_ptr<void> dying = Get(handle, kind, argument);  // checks; freed outside the lock
  std::unique_lock lock(mutex_);
  entries_.erase(reinterpret_cast<std::uintptr_t>(handle));
}

std::size_t HandleTable::Size() const {
  std::shared_lock lock(mutex_);
  return entries_.size();
}

HandleTable& Handles() {
  static HandleTable* table = new HandleTable();  // never destroyed: handles outlive statics
  return *table;
}

}  // namespace treering::capi
