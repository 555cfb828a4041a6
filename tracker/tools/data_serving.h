// `treering-submit --serve-data DIR [--serve-data-port P]`: the job's data server, `treering-data
// serve` started as a child process (launch/data_server_process.h) next to the tracker for the
// job's life, so it answers `?counts` and `?summary` while the launcher links no data code. It
// binds the tracker's --host-ip, demands a fresh random bearer token, and the workers get
// TREERING_DATA_TOKEN (the token) and TREERING_DATA_URL (http://HOST:PORT) in their environment;
// configs name files as data=http://HOST:PORT/FILE (a fixed --serve-data-port makes that URL
// known before the launch).
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include <CLI/CLI.hpp>

#include "../src/launch/data_server_process.h"
#include "../src/launch/launch.h"
#include "base/status.h"

namespace treering::launch {

struct ServeDataArgs {
  std::string dir;  // empty: no data server
  std::uint16_t port = 0;
};

void AddServeDataOptions(CLI::App& app, ServeDataArgs* args);

// Starts the server when args.dir is set (else returns null), says `[submit] serving DIR at
// http://HOST:PORT/` through `emit` (stderr) and adds the workers' variables to *env. With
// `debug` (--log-level DEBUG) the server's access log goes through `emit` too, and so does which
// program runs; without it only the server's errors do.
Result<std::unique_ptr<DataServerProcess>> StartJobDataServer(
    const ServeDataArgs& args, const std::string& host_ip, bool debug,
    const std::function<void(const std::string&)>& emit, EnvList* env);

}  // namespace treering::launch
