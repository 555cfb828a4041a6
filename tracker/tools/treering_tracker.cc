// treering-tracker: runs the tracker alone, for workers started by something else. Prints the
// worker environment between DMLC_TRACKER_ENV_START / _END, then serves until the job ends.
#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <string>

#include <CLI/CLI.hpp>

#include "../src/launch/launch.h"
#include "shared_options.h"
#include "tracker/server.h"
#include "tracker/status_url.h"

namespace {

// Reads the job token from the first line of `path`. The file must be readable by its owner only
// (as ssh insists for private keys): a token other local users can read protects nothing.
treering::Status ReadTokenFile(const std::string& path, std::string* token) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) {
    return treering::Status::InvalidInput("--token-file " + path + ": cannot stat");
  }
  if ((st.st_mode & (S_IRWXG | S_IRWXO)) != 0) {
    return treering::Status::InvalidInput("--token-file " + path +
                                          ": readable by group or others (chmod 600 it)");
  }
  std::ifstream in(path);
  if (!in || !std::getline(in, *token) || token->empty()) {
    return treering::Status::InvalidInput("--token-file " + path + ": no token on its first line");
  }
  if (!token->empty() && token->back() == '\r') token->pop_back();
  return treering::Status::Ok();
}

}  // namespace

int main(int argc, char** argv) {
  treering::tracker::TrackerOptions o;
  std::string token_file;
  CLI::App app{"treering-tracker: rendezvous for a job's workers (native and dmlc/rabit)"};
  app.add_option("--num-workers", o.num_workers, "number of workers")->required();
  app.add_option("--host-ip", o.host_ip, "address to bind and advertise (IPv4 or IPv6)");
  app.add_option("--port", o.port, "port to listen on (0: any free port)");
  auto* token_opt = app.add_option(
      "--token", o.token, "job token (default: random); other local users can read it in ps");
  app.add_option("--token-file", token_file,
                 "read the job token from the first line of this 0600 file")
      ->excludes(token_opt);
  app.add_flag("--legacy", o.legacy,
               "also accept dmlc/rabit workers (XGBoost 1.7's CLI); that dialect has no token, "
               "so it is off by default and never acts on a job of native workers");
  app.add_option("--bootstrap-timeout", o.bootstrap_timeout_s, "seconds for all workers to join");
  app.add_option("--max-attempts", o.max_attempts,
                 "attempts per task; > 1 lets a restarted worker rejoin (recovery epochs)")
      ->check(CLI::PositiveNumber);
  app.add_option("--recovery-timeout", o.recovery_timeout_s,
                 "seconds every rank has to rejoin a recovery epoch")
      ->check(CLI::PositiveNumber);
  treering::tracker::AddElasticOptions(
      &app, &o,
      "elastic job: drop a rank lost for --elastic-timeout seconds and go on with the "
      "others renumbered (the workers need rabit_elastic=1 / TREERING_ELASTIC=1)");
  treering::tracker::AddHangReportOption(&app, &o);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int rc = app.exit(e);
    return rc == 0 ? 0 : 2;
  }
  if (!token_file.empty()) {
    const treering::Status ts = ReadTokenFile(token_file, &o.token);
    if (!ts.ok()) {
      std::fprintf(stderr, "treering-tracker: %s\n", ts.message().c_str());
      return 2;
    }
  }
  if (o.token.empty()) o.token = treering::launch::RandomToken();
  o.progress_line = ::isatty(STDERR_FILENO) != 0;
  treering::tracker::TrackerServer server(o);
  treering::Status s = server.Start();
  if (!s.ok()) {
    std::fprintf(stderr, "treering-tracker: %s\n", s.message().c_str());
    return treering::ExitCodeFor(s);
  }
  std::printf(
      "DMLC_TRACKER_ENV_START\nDMLC_TRACKER_URI=%s\nDMLC_TRACKER_PORT=%u\n"
      "DMLC_NUM_WORKER=%d\nTREERING_JOB_TOKEN=%s\nDMLC_TRACKER_ENV_END\n",
      o.host_ip.c_str(), static_cast<unsigned>(server.port()), o.num_workers, o.token.c_str());
  std::fflush(stdout);
  for (const std::string& line :
       treering::tracker::StatusLinesHere(o.host_ip, server.port(), o.token)) {
    std::fprintf(stderr, "%s\n", line.c_str());
  }
  std::fflush(stderr);
  s = server.Wait();
  if (!s.ok()) std::fprintf(stderr, "treering-tracker: job failed: %s\n", s.message().c_str());
  return s.ok() ? 0 : 1;
}
