#include "data_serve.h"

#include <csignal>
#include <cstdio>
#include <fstream>
#include <iostream>

#include "data/data_queries.h"

CLI::App* AddServeCommand(CLI::App& app, ServeArgs* args) {
  CLI::App* serve = app.add_subcommand("serve", "serve the data files under DIR over HTTP");
  serve->add_option("dir", args->server.dir, "directory whose files are served")->required();
  serve->add_option("--port", args->server.port, "port (0: any free port)");
  serve->add_option("--host-ip", args->server.host, "address to bind (default 127.0.0.1)");
  serve->add_option("--token-file", args->token_file,
                    "file holding the bearer token clients must send");
  serve->add_option("--max-connections", args->server.max_connections, "connection limit")
      ->check(CLI::PositiveNumber);
  serve->add_flag("!--no-counts", args->count_ranges,
                  "do not count rows for workers (GET FILE?counts): they fetch their shard twice");
  serve->add_flag("!--no-access-log", args->server.access_log,
                  "no line per request on stderr (errors still go there)");
  serve
      ->add_option("--test-drop-after", args->server.test_drop_after,
                   "tests: cut file replies after this many bytes")
      ->group("");
  serve
      ->add_option("--test-drop-count", args->server.test_drop_count,
                   "tests: how many replies to cut")
      ->group("");
  return serve;
}

int RunServe(const ServeArgs& args) {
  treering::net::FileServerOptions options = args.server;
  options.queries = treering::data::DataQueries(args.count_ranges);
  if (!args.token_file.empty()) {
    std::ifstream in(args.token_file);
    if (!in || !std::getline(in, options.token) || options.token.empty()) {
      std::cerr << "treering-data: " << args.token_file << ": cannot read a token\n";
      return 2;
    }
    while (!options.token.empty() && std::isspace(static_cast<unsigned char>(options.token.back())))
      options.token.pop_back();
  }
  // Block the stop signals before any thread starts, so only sigwait below sees them.
  sigset_t stop;
  sigemptyset(&stop);
  sigaddset(&stop, SIGINT);
  sigaddset(&stop, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &stop, nullptr);
  std::signal(SIGPIPE, SIG_IGN);
  auto server = treering::net::FileServer::Start(options);
  if (!server.ok()) {
    std::cerr << "treering-data: " << server.status().message() << "\n";
    return treering::ExitCodeFor(server.status());
  }
  // An IPv6 address is bracketed, so the line holds a URL a client can use as it is.
  const bool v6 = options.host.find(':') != std::string::npos;
  const std::string host = v6 ? "[" + options.host + "]" : options.host;
  std::printf("serving %s at http://%s:%u/\n", options.dir.c_str(), host.c_str(),
              static_cast<unsigned>((*server)->port()));
  std::fflush(stdout);
  int signal = 0;
  sigwait(&stop, &signal);
  (*server)->Stop();
  return 0;
}
