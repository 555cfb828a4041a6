// `treering-data serve DIR [--port P] [--host-ip A] [--token-file F]`: runs a net::FileServer
// answering data::DataQueries (?summary, ?counts) until SIGINT or SIGTERM, after printing
// "serving DIR at http://A:P/" on stdout (flushed, so a launcher or test reading stdout learns
// the port chosen with --port 0; `treering-submit --serve-data` runs it so, with the token on
// stdin through `--token-file /dev/stdin`).
#pragma once

#include <string>

#include <CLI/CLI.hpp>

#include "net/file_server.h"

struct ServeArgs {
  treering::net::FileServerOptions server;
  bool count_ranges = true;  // answer GET FILE?counts (data/data_queries.h)
  std::string token_file;
};

CLI::App* AddServeCommand(CLI::App& app, ServeArgs* args);
int RunServe(const ServeArgs& args);
