// Splitting a child's output into whole lines: the supervisor relays workers line by line with
// their rank prefix, and the data server's child (data_server_process.h) is read line by line.
#pragma once

#include <cstddef>
#include <string>

namespace treering::launch {

// Splits a byte stream into lines; a partial line waits for its end (or for Flush).
struct LineBuffer {
  std::string pending;
  template <typename Emit>
  void Feed(const char* data, std::size_t n, Emit emit) {
    pending.append(data, n);
    std::size_t start = 0;
    for (std::size_t nl; (nl = pending.find('\n', start)) != std::string::npos; start = nl + 1) {
      emit(pending.substr(start, nl - start));
    }
    pending.erase(0, start);
  }
  template <typename Emit>
  void Flush(Emit emit) {
    if (!pending.empty()) emit(pending);
    pending.clear();
  }
};

}  // namespace treering::launch
