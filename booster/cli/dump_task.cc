// task=dump: model_in as text or JSON (XGBoost's dump layout) to name_dump.
#include "booster/model_dump.h"
#include "task_support.h"
#include "tasks.h"

namespace treering::cli {

Status RunDump(const CliOptions& options) {
  auto model = LoadModelIn(options.model_in);
  if (!model.ok()) return model.status();
  const std::string text =
      booster::DumpModel(model.value(), options.dump_format, options.dump_stats);
  Status st = WriteOutputRank0(options.name_dump, text);
  if (!st.ok()) return st.WithContext("name_dump");
  LogRank0(options, 1, "Writing dump to " + options.name_dump);
  return Status::Ok();
}

}  // namespace treering::cli
