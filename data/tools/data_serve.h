// `treering-data serve DIR [--port P] [--host-ip A] [--token-file F]`: runs a DataServer until
// SIGINT or SIGTERM, after printing "serving DIR at http://A:P/" on stdout (flushed, so a
// launcher or test reading stdout learns the port chosen with --port 0).
#pragma once

#include <string>

#include <CLI/CLI.hpp>

#include "data/data_server.h"

struct ServeArgs {
  treering::data::DataServerOptions server;
  std::string token_file;
};

CLI::App* AddServeCommand(CLI::App& app, ServeArgs* args);
int RunServe(const ServeArgs& args);
