#include "transport/cross_memory.h"

#include <sys/uio.h>

#include <cerrno>
#include <random>

namespace rabit::transport {
namespace {

// One direction of the copy: the kernel may move fewer bytes than asked (a page it could not
// touch ends the call), so go on from where it stopped until done or refused.
template <typename Call>
bool CopyAll(Call call, std::uint8_t* local, std::uint64_t remote, std::size_t bytes) {
  while (bytes > 0) {
    iovec l{local, bytes};
    iovec r{reinterpret_cast<void*>(remote), bytes};
    const ssize_t n = call(&l, &r);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    local += n;
    remote += static_cast<std::uint64_t>(n);
    bytes -= static_cast<std::size_t>(n);
  }
  return true;
}

}  // namespace

bool ReadFromProcess(pid_t pid, std::uint64_t remote, void* local, std::size_t bytes) {
  return CopyAll([pid](iovec* l, iovec* r) { return process_vm_readv(pid, l, 1, r, 1, 0); },
                 static_cast<std::uint8_t*>(local), remote, bytes);
}

bool WriteToProcess(pid_t pid, std::uint64_t remote, const void* local, std::size_t bytes) {
  return CopyAll([pid](iovec* l, iovec* r) { return process_vm_writev(pid, l, 1, r, 1, 0); },
                 static_cast<std::uint8_t*>(const_cast<void*>(local)), remote, bytes);
}

const std::uint64_t& ProcessProbe() {
  static const std::uint64_t probe = [] {
    std::random_device device;
    return (std::uint64_t{device()} << 32 | device()) | 1;  // never 0: 0 is what a miss reads
  }();
  return probe;
}

}  // namespace rabit::transport
