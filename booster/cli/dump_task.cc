// task=dump: model_in as text, JSON or dot (XGBoost's dump layout), features named by fmap when
// given, to name_dump; a learner without trees says so.
#include "output_check.h"
#include "task_support.h"
#include "tasks.h"

namespace treering::cli {

Status RunDump(const CliOptions& options) {
  if (Status st = CheckOutputsWritable({{"name_dump", options.name_dump}}); !st.ok()) return st;
  booster::DumpSpec spec{options.dump_format, options.dump_stats, {}};
  if (!options.fmap.empty()) {  // read first: XGBoost's CLI reads the map before the model
    auto fmap = booster::FeatureMap::Read(options.fmap);
    if (!fmap.ok()) return fmap.status();
    spec.fmap = std::move(fmap.value());
  }
  auto learner = CreateLearnerFromConfig(options);
  if (!learner.ok()) return learner.status();
  auto text = learner.value()->DumpModelFile(options.model_in, spec);
  if (!text.ok()) return text.status();
  Status st = WriteOutputRank0(options.name_dump, text.value());
  if (!st.ok()) return st.WithContext("name_dump");
  LogRank0(options, 1, "Writing dump to " + options.name_dump);
  return Status::Ok();
}

}  // namespace treering::cli
