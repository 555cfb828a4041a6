// IdleSpin: how long a Mailbox wait retries non-blocking I/O (yielding the core between tries)
// before it sleeps in poll().
//
// Why not a fixed spin: a rank that sleeps in poll() on an otherwise idle core lets the (virtual)
// CPU halt, and waking it costs tens of microseconds (an IPI and, under KVM, a VM entry) on
// every wait, which at 1-4 MiB is a large part of a message's time. Open MPI never sleeps while
// a receive is posted. Spinning is free while nobody else wants the core, and costly when the
// machine is loaded (the spinner takes the share of the core that the peer or other jobs need).
// sched_yield() tells the two apart: it returns at once when no other task is runnable on this
// core and only after another task ran otherwise. So: spin `spin` after the last progress in any
// case (as rabit_spin_us always did), and beyond that, up to `idle_spin`, only while every yield
// came back quickly; one slow yield means the core is shared, and the wait sleeps until bytes
// move again.
#pragma once

#include <chrono>

namespace rabit::transport {

class IdleSpin {
 public:
  using Clock = std::chrono::steady_clock;
  // A yield that took longer than this let another task run.
  static constexpr Clock::duration kSharedCoreYield = std::chrono::microseconds(20);

  IdleSpin(Clock::duration spin, Clock::duration idle_spin, Clock::time_point now)
      : spin_(spin), idle_spin_(idle_spin) {
    Restart(now);
  }

  // Bytes moved: the peer is active, start a new quiet stretch.
  void Restart(Clock::time_point now) {
    quiet_since_ = now;
    shared_core_ = false;
  }

  // One sched_yield() took `took`.
  void OnYield(Clock::duration took) {
    if (took > kSharedCoreYield) shared_core_ = true;
  }

  // True: yield and retry; false: sleep in poll().
  bool ShouldSpin(Clock::time_point now) const {
    const Clock::duration quiet = now - quiet_since_;
    if (quiet < spin_) return true;
    return !shared_core_ && quiet < idle_spin_;
  }

 private:
  Clock::duration spin_;
  Clock::duration idle_spin_;
  Clock::time_point quiet_since_;
  bool shared_core_ = false;
};

}  // namespace rabit::transport
