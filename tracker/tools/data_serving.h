// `treering-submit --serve-data DIR [--serve-data-port P]`: the job's data server (the file
// server of `treering-data serve`, net/file_server.h) runs inside the launcher, next to the
// tracker, for the job's life. It serves the files only: the launcher sits below data/ and has
// no loader, so it does not answer `?counts` (workers then count their chunks themselves, one
// more transfer of their part; same matrix) nor `?summary`. It binds the tracker's --host-ip,
// demands a fresh random bearer token, and the workers get TREERING_DATA_TOKEN (the token) and
// TREERING_DATA_URL (http://HOST:PORT) in their environment; configs name files as
// data=http://HOST:PORT/FILE (a fixed --serve-data-port makes that URL known before the launch).
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include <CLI/CLI.hpp>

#include "../src/launch/launch.h"
#include "base/status.h"
#include "net/file_server.h"

namespace treering::launch {

struct ServeDataArgs {
  std::string dir;  // empty: no data server
  std::uint16_t port = 0;
};

void AddServeDataOptions(CLI::App& app, ServeDataArgs* args);

// Starts the server when args.dir is set (else returns null) and adds the workers' variables
// to *env. The access log goes to stderr only with `access_log` (--log-level DEBUG).
Result<std::unique_ptr<net::FileServer>> StartJobDataServer(const ServeDataArgs& args,
                                                            const std::string& host_ip,
                                                            bool access_log, EnvList* env,
                                                            std::string* url);

}  // namespace treering::launch
