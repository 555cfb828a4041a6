// ssh: before any worker starts, every host is reached once, in parallel and within
// --host-timeout: with --sync-dst-dir the working directory is copied there (tar over ssh; as
// dmlc-submit's rsync, which Debian does not install by default), and in both cases the remote
// shell checks that the worker command exists where it will run. A host that is down, refuses
// ssh or lacks the command fails the job here, naming the host, instead of as a rank that never
// joins.
#pragma once

#include <functional>
#include <string>

#include "base/status.h"
#include "launch.h"

namespace treering::launch {

// The remote shell line that fails with a one-line reason unless DIR exists and holds (or PATH
// finds) the program `command[0]`.
std::string CommandCheckScript(const std::string& dir, const std::string& program);

// Ok when every host of the host file passed; else every failing host, one "host H: why" each.
// `log` gets progress lines ("[submit] ...").
Status PrepareHosts(const SubmitOptions& o, const std::function<void(const std::string&)>& log);

}  // namespace treering::launch
