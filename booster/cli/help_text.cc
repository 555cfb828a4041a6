#include "help_text.h"

#include <algorithm>

namespace treering::cli {
namespace {

// "  key = default    meaning", keys padded to one column.
std::string Table(const std::vector<booster::ParamDoc>& docs) {
  std::size_t width = 0;
  for (const auto& d : docs) width = std::max(width, d.key.size() + 3 + d.default_value.size());
  std::string out;
  for (const auto& d : docs) {
    std::string left = d.key + " = " + d.default_value;
    left.resize(std::max(width, left.size()) + 2, ' ');
    out += "  " + left + d.description + "\n";
  }
  return out;
}

}  // namespace

std::string HelpText(const std::vector<booster::ParamDoc>& cli_docs,
                     const std::vector<booster::ParamDoc>& learner_docs) {
  return "Config syntax: `key = value` lines, # comments, values may be quoted; repeated keys\n"
         "are kept (eval_metric); command-line key=value pairs come after the file's.\n\n"
         "Tasks (task = ...):\n"
         "  train  boost num_round rounds on data, print one metric line per round, save JSON\n"
         "  pred   predict test:data with model_in, one value per line into name_pred\n"
         "  dump   write the trees of model_in as text or JSON into name_dump\n\n"
         "CLI keys (key = default  meaning):\n" +
         Table(cli_docs) + "\nLearner keys (key = default  meaning):\n" + Table(learner_docs) +
         "\nrabit_*, dmlc_*, DMLC_* and mock keys configure the collective layer (rabit::Init;\n"
         "docs/collectives.md lists them); an unknown rabit_* key is an error.\n"
         "Exit codes: 0 success, 2 user error (config, data, model file), 1 runtime failure.\n";
}

}  // namespace treering::cli
