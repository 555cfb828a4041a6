// task=dump: model_in as text or JSON (XGBoost's dump layout) to name_dump; a learner without
// trees says so.
#include "task_support.h"
#include "tasks.h"

namespace treering::cli {

Status RunDump(const CliOptions& options) {
  auto learner = CreateLearnerFromConfig(options);
  if (!learner.ok()) return learner.status();
  auto text =
      learner.value()->DumpModelFile(options.model_in, options.dump_format, options.dump_stats);
  if (!text.ok()) return text.status();
  Status st = WriteOutputRank0(options.name_dump, text.value());
  if (!st.ok()) return st.WithContext("name_dump");
  LogRank0(options, 1, "Writing dump to " + options.name_dump);
  return Status::Ok();
}

}  // namespace treering::cli
