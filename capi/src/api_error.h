// How every C API function reports failure: it runs its body inside ApiCall, which turns any
// exception (ApiError from argument checks, rabit::Error, std::bad_alloc, anything) into -1 and
// this thread's XGBGetLastError message. Nothing thrown ever crosses the C boundary.
#pragma once

#include <new>
#include <stdexcept>
#include <string>
#include <utility>

#include "base/status.h"

namespace treering::capi {

// A bad argument or a failed operation; the message names the argument or the step at fault.
class ApiError : public std::runtime_error {
 public:
  explicit ApiError(const std::string& message) : std::runtime_error(message) {}
};

// This thread's message for XGBGetLastError.
void SetLastError(std::string message);
const char* LastError();

// Throws ApiError with the status's message unless it is ok.
inline void ThrowIfError(const Status& status) {
  if (!status.ok()) throw ApiError(status.message());
}
template <typename T>
T ValueOrThrow(Result<T> result) {
  if (!result.ok()) throw ApiError(result.status().message());
  return std::move(result.value());
}

// `name` must not be null: the message names the argument as the C prototype does.
template <typename P>
P* NotNull(P* pointer, const char* name) {
  if (pointer == nullptr) throw ApiError(std::string(name) + " is null");
  return pointer;
}

// The body of a C API function: 0 on success, -1 (and LastError) on any exception.
template <typename Body>
int ApiCall(const char* function, Body&& body) noexcept {
  try {
    std::forward<Body>(body)();
    return 0;
  } catch (const std::bad_alloc&) {
    SetLastError(std::string(function) + ": out of memory");
  } catch (const std::exception& e) {
    SetLastError(std::string(function) + ": " + e.what());
  } catch (...) {
    SetLastError(std::string(function) + ": unknown error");
  }
  return -1;
}

}  // namespace treering::capi
