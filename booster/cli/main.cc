// treering CONFIG [key=value ...]: XGBoost's command-line program, for treering's learner.
// Parses the config, starts the collective layer, runs the task; one line per error on
// stderr and exit code 2 for user errors, 1 for runtime failures (docs/cli.md).
#include <cstdio>
#include <exception>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "base/omp_wait_policy.h"
#include "cli_params.h"
#include "config_file.h"
#include "data/external_columns.h"
#include "help_text.h"
#include "learner_factory.h"
#include "rabit/rabit.h"
#include "tasks.h"

namespace {

using treering::Result;
using treering::Status;
namespace cli = treering::cli;

Result<cli::CliOptions> ReadOptions(const std::string& config_path,
                                    const std::vector<std::string>& pairs) {
  auto entries = cli::ParseConfigFile(config_path);
  if (!entries.ok()) return entries.status();
  for (const std::string& token : pairs) {
    auto entry = cli::ParseCommandLinePair(token);
    if (!entry.ok()) return entry.status();
    entries->push_back(std::move(entry.value()));
  }
  const std::string booster = cli::BoosterOf(entries.value());
  return cli::BuildOptions(entries.value(), cli::LearnerParamDocs(booster),
                           cli::OtherLearnersKeys(booster));
}

Status RunTask(const cli::CliOptions& options) {
  switch (options.task) {
    case cli::Task::kTrain:
      return cli::RunTrain(options);
    case cli::Task::kPred:
      return cli::RunPredict(options);
    case cli::Task::kDump:
      return cli::RunDump(options);
    case cli::Task::kImportance:
      return cli::RunImportance(options);
  }
  return Status::Internal("unknown task");
}

int Fail(const Status& st) {
  std::fprintf(stderr, "treering: %s\n", st.message().c_str());
  return treering::ExitCodeFor(st);
}

int RunCommand(const std::string& config_path, const std::vector<std::string>& pairs) {
  auto options = ReadOptions(config_path, pairs);
  if (!options.ok()) return Fail(options.status());
  if (const std::string w = cli::UnusedKeysWarning(options->unused_keys);
      !w.empty() && options->context.verbosity >= 1) {
    std::fprintf(stderr, "treering: warning: %s\n", w.c_str());
  }
  try {
    rabit::Init(options->rabit_params);
    const Status st = RunTask(options.value());
    rabit::Finalize();
    return st.ok() ? 0 : Fail(st);
  } catch (const rabit::Error& e) {  // a peer or the tracker failed: no Finalize handshake
    return Fail(Status::Network(e.what()));
  } catch (const std::exception& e) {
    return Fail(Status::Internal(std::string("internal error: ") + e.what()));
  }
}

}  // namespace

int main(int argc, char** argv) {
  treering::ApplyOmpWaitPolicy(argv);  // may execute the program again (omp_wait_policy.h)
  // This program owns its signals: a SIGTERM of a `#cache` run removes the cache files.
  treering::data::RemoveCachesOnTermination();
  CLI::App app{
      "treering: distributed gradient boosting with XGBoost 1.7's config files and "
      "JSON models."};
  std::string config_path;
  std::vector<std::string> pairs;
  app.add_option("config", config_path, "XGBoost-style config file (use /dev/null for none)")
      ->required();
  app.add_option("pairs", pairs, "key=value settings added after the file's (later wins)");
  app.footer(cli::HelpText(cli::CliParamDocs(), cli::LearnerParamDocs(cli::kDefaultBooster)) +
             cli::OtherLearnersHelpText());
  // -V as XGBoost's CLI (cli_main.cc accepts -V and --version).
  app.set_version_flag("-V,--version", "treering 0.1.0 (XGBoost 1.7 model format)");
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    std::fprintf(stderr, "treering: %s (see treering --help)\n", e.what());
    return 2;
  }
  return RunCommand(config_path, pairs);
}
