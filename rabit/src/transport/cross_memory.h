// Cross-memory access between two processes of one machine (Linux's process_vm_readv /
// process_vm_writev, "cross-memory attach", which Open MPI's shared-memory transport uses for
// large messages): one copy straight between the two address spaces, where loopback TCP costs
// two kernel copies plus the TCP work. Allowed by the kernel for processes of one user (ptrace
// rules); refused by some container seccomp profiles, which callers detect with a probe.
//
// Who uses it: the two-rank reduce-scatter (collective/local_pair_reduce_scatter.cc) reads the
// partner's buffer; the Mailbox writes large messages into a receive buffer the receiver granted
// (transport/mailbox.h). Both only ever touch the process a probe verified.
#pragma once

#include <sys/types.h>

#include <cstddef>
#include <cstdint>

namespace rabit::transport {

// Copies `bytes` at address `remote` of process `pid` into `local`; false on any failure (errno
// is the call's).
bool ReadFromProcess(pid_t pid, std::uint64_t remote, void* local, std::size_t bytes);
// Copies `bytes` from `local` to address `remote` of process `pid`; false on any failure.
bool WriteToProcess(pid_t pid, std::uint64_t remote, const void* local, std::size_t bytes);

// A random 64-bit value fixed for this process's life, at a fixed address: a peer that reads
// it back through ReadFromProcess at the address and pid this process announced has shown that
// the pid is this process and that the kernel allows the access.
const std::uint64_t& ProcessProbe();

}  // namespace rabit::transport
