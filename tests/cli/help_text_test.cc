// --help is generated from the key tables: every key appears with its default and meaning.
#include "help_text.h"

#include <gtest/gtest.h>

#include "cli_params.h"

namespace treering::cli {
namespace {

TEST(HelpText, ListsTasksAndEveryKeyWithDefault) {
  const std::vector<booster::ParamDoc> learner = {{"max_depth", "6", "maximum tree depth"},
                                                  {"eta", "0.3", "step size"}};
  const std::string help = HelpText(CliParamDocs(), learner);
  for (const char* task : {"  train  ", "  pred   ", "  dump   "}) {
    EXPECT_NE(help.find(task), std::string::npos) << task;
  }
  for (const auto& docs : {CliParamDocs(), learner}) {
    for (const booster::ParamDoc& d : docs) {
      const std::string head = "  " + d.key + " = " + d.default_value + " ";
      const auto at = help.find(head);
      ASSERT_NE(at, std::string::npos) << head;
      EXPECT_NE(help.find(d.description, at), std::string::npos) << d.key;
    }
  }
  EXPECT_NE(help.find("  num_round = 10"), std::string::npos);
}

}  // namespace
}  // namespace treering::cli
