// Options treering-tracker and treering-submit share, spelled once so both tools say the same
// (docs/launcher.md, docs/fault-tolerance.md). Each tool's options struct has the fields.
#pragma once

#include <CLI/CLI.hpp>

namespace treering::tracker {

template <typename Options>
void AddElasticOptions(CLI::App* app, Options* o, const char* elastic_help) {
  app->add_flag("--elastic", o->elastic, elastic_help);
  app->add_option("--elastic-timeout", o->elastic_timeout_s,
                  "elastic: seconds a lost worker has to come back before it is dropped "
                  "(keep it above the workers' rabit_timeout)")
      ->check(CLI::PositiveNumber);
  app->add_option("--min-workers", o->min_workers,
                  "elastic: the job fails instead of shrinking below this many workers")
      ->check(CLI::PositiveNumber);
}

template <typename Options>
void AddHangReportOption(CLI::App* app, Options* o) {
  app->add_option("--hang-report", o->hang_report_s,
                  "rabit_hang_report: seconds a collective may wait for some ranks before a "
                  "line names them (0: never; docs/status.md)")
      ->check(CLI::NonNegativeNumber);
}

}  // namespace treering::tracker
