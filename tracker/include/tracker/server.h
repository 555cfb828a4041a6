// The tracker: rendezvous of a job's workers. It assigns ranks in one batch, tells every worker
// its topology and whom to dial, forwards prints, watches each worker's control connection and
// aborts the whole job when a worker dies or reports an error (or, with restarts allowed, waits
// for the dead worker's restart and has every rank relink: a recovery epoch). Speaks the native
// protocol (protocol.h) and, for XGBoost 1.7's own workers, the legacy dmlc/rabit protocol.
//
// Threads: Start() and port() from any one thread; Wait() runs the event loop on the calling
// thread until the job ends; Stop() and Abort() may be called from any thread at any time.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include "base/status.h"

namespace treering::tracker {

struct TrackerOptions {
  int num_workers = 0;
  std::string host_ip = "127.0.0.1";  // address to bind and to advertise ("::1" for IPv6)
  std::uint16_t port = 0;             // 0: the OS picks a free port
  std::string token;                  // job token every native Hello must carry
  double bootstrap_timeout_s = 120;   // all workers must have said Hello within this
  double hello_timeout_s = 10;        // a connection must finish each message within this
  // Accept 0xff99 (dmlc/rabit, XGBoost 1.7) clients. Off by default: that dialect has no
  // token; even when on, a legacy client can never act on a job of native workers.
  bool legacy = false;
  // Connections that have not said a verified Hello (or a legacy preamble) yet: at most this
  // many; a new one pushes out the oldest (docs/protocol.md, Limits).
  std::size_t max_anonymous_connections = 256;
  // Fault tolerance (docs/fault-tolerance.md). With max_attempts > 1 a native worker whose
  // connection drops is "lost", not fatal: the job waits for its restart (attempt < max) and
  // runs a recovery epoch, which must complete within recovery_timeout_s (the job's
  // rabit_timeout) or the job is aborted naming the ranks that did not rejoin.
  std::uint32_t max_attempts = 1;
  double recovery_timeout_s = 60;
  // Elastic job (docs/fault-tolerance.md, "Elastic jobs"): a lost rank that has not come back
  // within elastic_timeout_s (while every other rank asked to relink) is dropped, and the epoch
  // completes with the others renumbered 0..N-2 in their old order; below min_workers the job
  // fails naming the lost ranks and hosts. Lost ranks need no restarts to be waited for.
  bool elastic = false;
  double elastic_timeout_s = 10;
  int min_workers = 1;
  // rabit_hang_report: a collective some ranks entered and others did not (or that every rank
  // entered and some never finished) for this long gets one line naming the late ranks, then
  // again at 2x, 4x, ... (docs/status.md). 0 turns the lines off.
  double hang_report_s = 30;
  // One updating "round 12/100, ..., about 27 s left" line on stderr (the tools turn it on when
  // stderr is a terminal).
  bool progress_line = false;
  // Where Print messages go (one message per call, trailing newlines removed); default stdout.
  std::function<void(const std::string&)> print;
  // Where the tracker's own lines go (arrivals, failures); default stderr as "[tracker] line".
  // The C API's in-process tracker sends them to the binding's log callback.
  std::function<void(const std::string&)> log;
};

class TrackerServer {
 public:
  explicit TrackerServer(TrackerOptions options);
  ~TrackerServer();
  TrackerServer(const TrackerServer&) = delete;
  TrackerServer& operator=(const TrackerServer&) = delete;

  Status Start();              // binds and listens; kInvalidInput for bad options
  std::uint16_t port() const;  // the bound port (valid after Start)
  // Serves until every rank said Shutdown (Ok) or the job failed: then the Status names the
  // rank that died or reported an error, or the timeout that passed.
  Status Wait();
  void Stop();                            // ends the job now: Wait returns kAborted
  void Abort(const std::string& reason);  // fails the job: every worker gets Abort(reason)

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace treering::tracker
