// Status and Result<T>: errors as values on every path that fails for outside reasons
// (files, sockets, peers, user input). Callers must look at them ([[nodiscard]]); only the
// top of a program (CLI main, test harness) turns a bad Status into an exit code or exception.
// This header-only piece lives in the lowest layer (treering_base) so every layer can use it.
#pragma once

#include <cassert>
#include <string>
#include <utility>
#include <variant>

namespace treering {

enum class StatusCode {
  kOk = 0,
  kInvalidInput,  // the user's file, flag or config is wrong: CLIs exit with code 2
  kIoError,       // a file could not be opened, read or written
  kNetwork,       // a socket failed or a peer closed its link
  kTimeout,       // a deadline passed (peer frozen, tracker silent)
  kProtocol,      // a peer sent bytes that do not follow the protocol
  kAborted,       // the job was aborted (by the tracker or another rank)
  kInternal,      // a bug in treering: should never be seen by a user
  // Not a failure: an elastic job's world shrank or grew (rabit_elastic); the collective that
  // was running ends with this code and rabit::Comm throws rabit::WorldChanged for it.
  kWorldChanged,
};

class [[nodiscard]] Status {
 public:
  Status() = default;
  Status(StatusCode code, std::string message) : code_(code), message_(std::move(message)) {}

  static Status Ok() { return Status(); }
  static Status InvalidInput(std::string m) { return {StatusCode::kInvalidInput, std::move(m)}; }
  static Status IoError(std::string m) { return {StatusCode::kIoError, std::move(m)}; }
  static Status Network(std::string m) { return {StatusCode::kNetwork, std::move(m)}; }
  static Status Timeout(std::string m) { return {StatusCode::kTimeout, std::move(m)}; }
  static Status Protocol(std::string m) { return {StatusCode::kProtocol, std::move(m)}; }
  static Status Aborted(std::string m) { return {StatusCode::kAborted, std::move(m)}; }
  static Status Internal(std::string m) { return {StatusCode::kInternal, std::move(m)}; }
  static Status WorldChanged(std::string m) { return {StatusCode::kWorldChanged, std::move(m)}; }
  // A user error about one configuration key: the key travels with the status, so a CLI can
  // point at the line that set it without searching the message text.
  static Status InvalidKey(std::string key, std::string m) {
    return InvalidInput(std::move(m)).WithKey(std::move(key));
  }

  bool ok() const { return code_ == StatusCode::kOk; }
  StatusCode code() const { return code_; }
  const std::string& message() const { return message_; }
  // The configuration key this error is about, as the user spelled it; empty when none.
  const std::string& key() const { return key_; }

  // Adds context in front of the message ("while loading train.libsvm: ..."); keeps the key.
  Status WithContext(const std::string& context) const {
    if (ok()) return *this;
    Status s(code_, context + ": " + message_);
    s.key_ = key_;
    return s;
  }
  // The same error, about `key` (an OK status stays OK and keyless).
  Status WithKey(std::string key) const {
    Status s = *this;
    if (!ok()) s.key_ = std::move(key);
    return s;
  }

 private:
  StatusCode code_ = StatusCode::kOk;
  std::string message_;
  std::string key_;
};

template <typename T>
class [[nodiscard]] Result {
 public:
  Result(T value) : v_(std::move(value)) {}        // NOLINT: implicit by design
  Result(Status status) : v_(std::move(status)) {  // NOLINT: implicit by design
    assert(!std::get<Status>(v_).ok() && "Result built from an OK status has no value");
  }

  bool ok() const { return std::holds_alternative<T>(v_); }
  const Status& status() const {
    static const Status kOk;
    return ok() ? kOk : std::get<Status>(v_);
  }
  T& value() & { return std::get<T>(v_); }
  const T& value() const& { return std::get<T>(v_); }
  T&& value() && { return std::get<T>(std::move(v_)); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }
  T& operator*() & { return value(); }

 private:
  std::variant<T, Status> v_;
};

// Exit code a command-line tool uses for a failed Status: 2 for user errors, 1 otherwise.
inline int ExitCodeFor(const Status& s) {
  if (s.ok()) return 0;
  return s.code() == StatusCode::kInvalidInput ? 2 : 1;
}

}  // namespace treering
