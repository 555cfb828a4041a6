// treering-data: inspect a data URI with the same loader training uses.
//   treering-data info URI [--part P --nparts N --nthread T]
//   treering-data serve DIR [--port P] [--host-ip A] [--token-file F]   (data_serve.h)
// prints one "key: value" line per fact on stdout. On bad input it prints one line on stderr,
// nothing on stdout, and exits with code 2 (1 for I/O or internal errors).
#include <chrono>
#include <cstdio>
#include <iostream>

#include <CLI/CLI.hpp>

#include "data/load.h"
#include "data_serve.h"
#include "label_summary.h"

namespace {

struct InfoArgs {
  std::string uri;
  treering::data::LoadOptions load;
  treering::Context ctx;  // --nthread
};

void PrintInfo(const InfoArgs& args, const treering::data::DMatrix& m,
               const treering::data::LoadStats& stats, double seconds) {
  std::printf("uri: %s\n", args.uri.c_str());
  std::printf("part: %d of %d\n", args.load.part, args.load.nparts);
  std::printf("rows: %zu\n", m.NumRows());
  std::printf("columns: %llu\n", static_cast<unsigned long long>(m.num_col));
  std::printf("non-zeros: %zu\n", m.NumNonZero());
  std::printf("labels: %s\n", treering::data::SummarizeLabels(m.label).c_str());
  std::printf("weights: %s\n", m.weight.empty() ? "no" : "yes");
  std::printf("qids: %s\n", m.qid.empty() ? "no" : "yes");
  std::printf("bytes: %zu\n", m.Bytes());
  std::printf("input bytes: %llu\n", static_cast<unsigned long long>(stats.bytes));
  std::printf("threads: %d\n", stats.threads);
  std::printf("load seconds: %.3f\n", seconds);
  std::printf("MB/s: %.1f\n", seconds > 0 ? static_cast<double>(stats.bytes) / 1e6 / seconds : 0.0);
}

int RunInfo(const InfoArgs& args) {
  treering::data::LoadStats stats;
  const auto start = std::chrono::steady_clock::now();
  treering::Result<treering::data::DMatrix> m =
      treering::data::Load(args.uri, args.load, args.ctx, &stats);
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (!m.ok()) {
    std::cerr << "treering-data: " << m.status().message() << "\n";
    return treering::ExitCodeFor(m.status());
  }
  PrintInfo(args, *m, stats, seconds);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"treering-data: inspect LibSVM/CSV data as treering loads it"};
  app.require_subcommand(1);
  InfoArgs args;
  CLI::App* info = app.add_subcommand("info", "load URI and print its shape, labels and speed");
  info->add_option("uri", args.uri, "file, a,b list, glob; ?format=libsvm|csv")->required();
  info->add_option("--part", args.load.part, "this reader's part (rank)")
      ->check(CLI::NonNegativeNumber);
  info->add_option("--nparts", args.load.nparts, "number of parts")->check(CLI::PositiveNumber);
  // The Context's table checks the value, so --nthread takes what nthread= takes in treering.
  info->add_option_function<std::string>(
      "--nthread",
      [&args](const std::string& value) {
        const treering::Status st = treering::Context::Table().Set(&args.ctx, "nthread", value);
        if (!st.ok()) throw CLI::ValidationError("--nthread", st.message());
      },
      "parser threads (0: all cores)");
  ServeArgs serve_args;
  CLI::App* serve = AddServeCommand(app, &serve_args);
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    std::cerr << "treering-data: " << e.what() << "\n";
    return 2;
  }
  if (serve->parsed()) return RunServe(serve_args);
  try {
    return RunInfo(args);
  } catch (const std::exception& e) {  // out of memory while loading, or a bug
    std::cerr << "treering-data: " << e.what() << "\n";
    return 1;
  }
}
