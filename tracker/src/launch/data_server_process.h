// The data server of `treering-submit --serve-data DIR`: `treering-data serve` run as a child
// process for the job's life. The launcher sits below data/ (it links no loader), so instead of
// running the bare file server in-process it runs the tool that plugs data's `?counts` and
// `?summary` answers into that server; workers then fetch each part once (docs/data.md).
//
// The child gets the bearer token on stdin (`--token-file /dev/stdin`: never on a command line,
// where `ps` shows it), binds `host` on `port` (0: a free one), and says the port it bound on its
// first stdout line, `serving DIR at http://HOST:PORT/`. Its stderr (the access log, or only
// errors without `access_log`) is relayed line by line through `emit` by one thread.
//
// Lifetime: Stop() (or the destructor) sends SIGTERM to the child's process group, SIGKILLs it
// after a grace period and reaps it. Start() must run on a thread that lives as long as the
// launcher (its main thread): the kernel sends the child SIGTERM when that thread dies
// (PR_SET_PDEATHSIG), so even a SIGKILLed launcher leaves no server behind.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <thread>

#include "base/status.h"
#include "child_process.h"
#include "line_buffer.h"

namespace treering::launch {

struct DataServerSpec {
  std::string program;  // the treering-data executable (FindDataServerProgram)
  std::string dir;
  std::string host;
  std::uint16_t port = 0;
  std::string token;
  bool access_log = false;
  double start_timeout_s = 10;  // for the child to print its address
};

// `treering-data` in the directory of this executable (/proc/self/exe), else the first one on
// PATH; the error names both places.
Result<std::string> FindDataServerProgram();

// "serving DIR at http://HOST:PORT/" -> PORT (HOST may be an IPv6 address, bracketed or not).
Result<std::uint16_t> ParseServingLine(const std::string& line);

class DataServerProcess {
 public:
  using Emit = std::function<void(const std::string& line)>;
  // Ok once the child printed the port it bound; an error (with what the child said on stderr)
  // when it could not start, exited first, or said nothing within start_timeout_s.
  static Result<std::unique_ptr<DataServerProcess>> Start(const DataServerSpec& spec, Emit emit);
  ~DataServerProcess();
  DataServerProcess(const DataServerProcess&) = delete;
  DataServerProcess& operator=(const DataServerProcess&) = delete;

  std::uint16_t port() const { return port_; }
  pid_t pid() const { return child_.pid; }
  // Stops the child and joins the relay thread; idempotent.
  void Stop();

 private:
  DataServerProcess(Child child, Emit emit);
  // Reads the child's output until its serving line (relaying stderr with access_log).
  Result<std::uint16_t> AwaitPort(const DataServerSpec& spec);
  // The child's exit code once it exited (waiting until `deadline`), else nullopt.
  std::optional<int> Reap(std::chrono::steady_clock::time_point deadline);
  // The relay thread: every later output line through emit_, until the child's pipes close.
  void Relay();

  Child child_;
  std::uint16_t port_ = 0;
  Emit emit_;
  LineBuffer out_, err_;  // AwaitPort's, then the relay thread's
  std::optional<int> exit_code_;
  std::thread relay_;
  bool stopped_ = false;
};

}  // namespace treering::launch
