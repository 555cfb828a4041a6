#include "data_serving.h"

namespace treering::launch {

void AddServeDataOptions(CLI::App& app, ServeDataArgs* args) {
  app.add_option("--serve-data", args->dir,
                 "serve the data files under DIR over HTTP for the job's life (workers read "
                 "data=http://HOST:PORT/FILE; docs/launcher.md)");
  app.add_option("--serve-data-port", args->port, "port of --serve-data (default: any free one)");
}

Result<std::unique_ptr<net::FileServer>> StartJobDataServer(const ServeDataArgs& args,
                                                            const std::string& host_ip,
                                                            bool access_log, EnvList* env,
                                                            std::string* url) {
  if (args.dir.empty()) return std::unique_ptr<net::FileServer>();
  net::FileServerOptions options;
  options.dir = args.dir;
  options.host = host_ip;
  options.port = args.port;
  options.token = RandomToken();
  options.access_log = access_log;
  auto server = net::FileServer::Start(options);
  if (!server.ok()) return server.status().WithContext("--serve-data " + args.dir);
  const bool v6 = host_ip.find(':') != std::string::npos;
  *url = "http://" + (v6 ? "[" + host_ip + "]" : host_ip) + ":" + std::to_string((*server)->port());
  env->emplace_back(kDataTokenVariable, options.token);
  env->emplace_back("TREERING_DATA_URL", *url);
  return std::move(*server);
}

}  // namespace treering::launch
