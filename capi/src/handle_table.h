// Handles of the C API are not pointers: each is a number that is never reused, looked up in
// one process-wide table. A freed handle, a handle of the wrong kind (a booster given as a
// DMatrix) or a made-up value is then an error naming the argument, never a use-after-free.
// The table hands out shared_ptrs, so an object stays alive for a call that is using it even if
// another thread frees its handle meanwhile.
#pragma once

#include <cstdint>
#include <memory>
#include <shared_mutex>
#include <string>
#include <unordered_map>

#include "api_error.h"

namespace treering::capi {

enum class HandleKind : std::uint8_t { kDMatrix = 1, kBooster = 2, kTracker = 3 };

class HandleTable {
 public:
  // A new handle for `object`.
  void* Add(HandleKind kind, std::shared_ptr<void> object);
  // The object behind `handle`; ApiError naming `argument` when it is null, unknown, freed or
  // of another kind.
  std::shared_ptr<void> Get(const void* handle, HandleKind kind, const char* argument) const;
  // Forgets the handle (the object dies with its last user); errors as Get.
  void Remove(const void* handle, HandleKind kind, const char* argument);
  std::size_t Size() const;

 private:
  struct Entry {
    HandleKind kind;
    std::shared_ptr<void> object;
  };
  mutable std::shared_mutex mutex_;
  std::unordered_map<std::uintptr_t, Entry> entries_;
  std::uintptr_t next_id_ = 0;
};

HandleTable& Handles();

// Typed access: T has `static constexpr HandleKind kKind`.
template <typename T>
void* AddHandle(std::shared_ptr<T> object) {
  return Handles().Add(T::kKind, std::static_pointer_cast<void>(std::move(object)));
}
template <typename T>
std::shared_ptr<T> GetHandle(const void* handle, const char* argument) {
  return std::static_pointer_cast<T>(Handles().Get(handle, T::kKind, argument));
}
template <typename T>
void FreeHandle(const void* handle, const char* argument) {
  Handles().Remove(handle, T::kKind, argument);
}

}  // namespace treering::capi
