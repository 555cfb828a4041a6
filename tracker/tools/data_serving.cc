#include "data_serving.h"

namespace treering::launch {

void AddServeDataOptions(CLI::App& app, ServeDataArgs* args) {
  app.add_option("--serve-data", args->dir,
                 "serve the data files under DIR over HTTP for the job's life with treering-data "
                 "serve (workers read data=http://HOST:PORT/FILE; docs/launcher.md)");
  app.add_option("--serve-data-port", args->port, "port of --serve-data (default: any free one)");
}

Result<std::unique_ptr<DataServerProcess>> StartJobDataServer(
    const ServeDataArgs& args, const std::string& host_ip, bool debug,
    const std::function<void(const std::string&)>& emit, EnvList* env) {
  if (args.dir.empty()) return std::unique_ptr<DataServerProcess>();
  const std::string context = "--serve-data " + args.dir;
  auto program = FindDataServerProgram();
  if (!program.ok()) return program.status().WithContext(context);
  DataServerSpec spec;
  spec.program = *program;
  spec.dir = args.dir;
  spec.host = host_ip;
  spec.port = args.port;
  spec.token = RandomToken();
  spec.access_log = debug;
  auto server = DataServerProcess::Start(spec, emit);
  if (!server.ok()) return server.status().WithContext(context);
  if (debug) {
    emit("[submit] data server: " + spec.program + " serve (pid " +
         std::to_string((*server)->pid()) + ")");
  }
  const bool v6 = host_ip.find(':') != std::string::npos;
  const std::string url =
      "http://" + (v6 ? "[" + host_ip + "]" : host_ip) + ":" + std::to_string((*server)->port());
  emit("[submit] serving " + args.dir + " at " + url + "/");
  env->emplace_back(kDataTokenVariable, spec.token);
  env->emplace_back("TREERING_DATA_URL", url);
  return std::move(*server);
}

}  // namespace treering::launch
