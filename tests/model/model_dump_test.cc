// Dumps against XGBoost 1.7.4's own output (`xgboost /dev/null task=dump model_in=<sample>
// [dump_stats=1] [dump_format=json]`, first tree copied below) and a hand-checked small tree.
#include "booster/model_dump.h"

#include <gtest/gtest.h>

#include "booster/model_io.h"
#include "model_test_util.h"

namespace treering::booster {
namespace {

GBTreeModel Sample() { return ModelFromJson(testing::SampleModelText(), "sample").value(); }

TEST(ModelDump, TextWithStatsMatchesXgboostCli) {
  const std::string expected =
      "0:[f89<10] yes=1,no=2,missing=1,gain=6290.02148,cover=10800\n"
      "\t1:[f775<8] yes=3,no=4,missing=3,gain=804.111023,cover=9093.59961\n"
      "\t\t3:[f48<11] yes=7,no=8,missing=7,gain=82.0388184,cover=7320.95947\n"
      "\t\t\t7:leaf=-0.152151838,cover=6769.07959\n"
      "\t\t\t8:leaf=-0.0317971408,cover=551.880005\n"
      "\t\t4:[f145<48] yes=9,no=10,missing=9,gain=1009.73468,cover=1772.63989\n"
      "\t\t\t9:leaf=-0.0132958321,cover=1506.23999\n"
      "\t\t\t10:leaf=0.619296968,cover=266.399994\n"
      "\t2:[f481<12] yes=5,no=6,missing=5,gain=7405.27539,cover=1706.3999\n"
      "\t\t5:[f200<11] yes=11,no=12,missing=11,gain=423.647461,cover=807.119995\n"
      "\t\t\t11:leaf=0.611388028,cover=103.319992\n"
      "\t\t\t12:leaf=1.27099895,cover=703.799988\n"
      "\t\t6:[f676<11] yes=13,no=14,missing=13,gain=207.625244,cover=899.279968\n"
      "\t\t\t13:leaf=0.242492959,cover=162.179993\n"
      "\t\t\t14:leaf=-0.131486267,cover=737.099976\n";
  EXPECT_EQ(DumpTrees(Sample(), DumpFormat::kText, true)[0], expected);
}

TEST(ModelDump, JsonMatchesXgboostCli) {
  const std::string expected =
      "  { \"nodeid\": 0, \"depth\": 0, \"split\": \"2\", \"split_condition\": 0.5, \"yes\": 1, "
      "\"no\": 2, \"missing\": 1 , \"gain\": 12.5, \"cover\": 10, \"children\": [\n"
      "    { \"nodeid\": 1, \"depth\": 1, \"split\": \"0\", \"split_condition\": -1.25, "
      "\"yes\": 3, \"no\": 4, \"missing\": 4 , \"gain\": 3.25, \"cover\": 6, \"children\": [\n"
      "      { \"nodeid\": 3, \"leaf\": -0.0500000007 , \"cover\": 2.5 }, \n"
      "      { \"nodeid\": 4, \"leaf\": 0.0125000002 , \"cover\": 3.5 }\n"
      "    ]}, \n"
      "    { \"nodeid\": 2, \"leaf\": 0.300000012 , \"cover\": 4 }\n"
      "  ]}";
  EXPECT_EQ(DumpTrees(testing::SmallModel(), DumpFormat::kJson, true)[0], expected);
}

TEST(ModelDump, WholeFileLayoutAsXgboostCli) {
  GBTreeModel m = testing::SmallModel();
  const std::string text = DumpModel(m, DumpFormat::kText, false);
  EXPECT_EQ(text.rfind("booster[0]:\n0:[f2<0.5] yes=1,no=2,missing=1\n\t1:[f0<-1.25] yes=3,no=4,"
                       "missing=4\n\t\t3:leaf=-0.0500000007\n",
                       0),
            0u)
      << text;
  EXPECT_NE(text.find("\nbooster[1]:\n0:[f2<0.5]"), std::string::npos);
  const std::string json = DumpModel(m, DumpFormat::kJson, false);
  EXPECT_EQ(json.rfind("[\n  { \"nodeid\": 0, \"depth\": 0, \"split\": \"2\", "
                       "\"split_condition\": 0.5, \"yes\": 1, \"no\": 2, \"missing\": 1 , "
                       "\"children\": [\n",
                       0),
            0u)
      << json;
  EXPECT_NE(json.find("  ]},\n  { \"nodeid\": 0"), std::string::npos);
  EXPECT_EQ(json.substr(json.size() - 7), "  ]}\n]\n");
}

}  // namespace
}  // namespace treering::booster

namespace treering::booster {
namespace {

// SmallModel's features named by a map: f2 (root, missing -> left) an indicator, f0 (missing ->
// right, threshold -1.25) an integer. Expected strings follow XGBoost 1.7.4's generators: the
// indicator line has no tabs and yes = the non-missing child; the integer threshold is rounded
// up; dot keeps the float threshold. tests/cli/xgboost_dump_test.py compares real files.
DumpSpec NamedSpec(DumpFormat format) {
  return {format, false, FeatureMap::Parse("0 age int\n1 x q\n2 is_red i\n", "fm").value()};
}

TEST(ModelDump, TextWithFeatureMapAsXgboost) {
  EXPECT_EQ(DumpTrees(testing::SmallModel(), NamedSpec(DumpFormat::kText)).value()[0],
            "0:[is_red] yes=2,no=1\n"
            "\t1:[age<-1] yes=3,no=4,missing=4\n"
            "\t\t3:leaf=-0.0500000007\n"
            "\t\t4:leaf=0.0125000002\n"
            "\t2:leaf=0.300000012\n");
}

TEST(ModelDump, JsonWithFeatureMapAsXgboost) {
  EXPECT_EQ(DumpTrees(testing::SmallModel(), NamedSpec(DumpFormat::kJson)).value()[0],
            "  { \"nodeid\": 0, \"depth\": 0, \"split\": \"is_red\", \"yes\": 2, \"no\": 1 , "
            "\"children\": [\n"
            "    { \"nodeid\": 1, \"depth\": 1, \"split\": \"age\", \"split_condition\": -1, "
            "\"yes\": 3, \"no\": 4, \"missing\": 4 , \"children\": [\n"
            "      { \"nodeid\": 3, \"leaf\": -0.0500000007 }, \n"
            "      { \"nodeid\": 4, \"leaf\": 0.0125000002 }\n"
            "    ]}, \n"
            "    { \"nodeid\": 2, \"leaf\": 0.300000012 }\n"
            "  ]}");
}

TEST(ModelDump, DotAsXgboostGraphviz) {
  const std::string expected =
      "digraph {\n    graph [ rankdir=TB ]\n\n"
      "    0 [ label=\"is_red\" ]\n"
      "    0 -> 1 [label=\"yes, missing\" color=\"#0000FF\"]\n"
      "    0 -> 2 [label=\"no\" color=\"#FF0000\"]\n\n"
      "    1 [ label=\"age<-1.25\" ]\n"
      "    1 -> 3 [label=\"yes\" color=\"#FF0000\"]\n"
      "    1 -> 4 [label=\"no, missing\" color=\"#0000FF\"]\n\n"
      "    3 [ label=\"leaf=-0.0500000007\" ]\n\n"
      "    4 [ label=\"leaf=0.0125000002\" ]\n\n"
      "    2 [ label=\"leaf=0.300000012\" ]\n}";
  EXPECT_EQ(DumpTrees(testing::SmallModel(), NamedSpec(DumpFormat::kDot)).value()[0], expected);
  // Without a map: f<index> labels; stats are never in a dot dump (XGBoost ignores them too).
  const std::string plain = DumpTrees(testing::SmallModel(), DumpFormat::kDot, true)[0];
  EXPECT_NE(plain.find("    0 [ label=\"f2<0.5\" ]\n"), std::string::npos) << plain;
  EXPECT_EQ(plain.find("cover"), std::string::npos);
  // The file: "booster[i]:\n" before each graph, nothing between graphs (as XGBoost's CLI).
  const std::string file = DumpModel(testing::SmallModel(), DumpFormat::kDot, false);
  EXPECT_EQ(file.rfind("booster[0]:\ndigraph {\n", 0), 0u);
  EXPECT_NE(file.find("}booster[1]:\ndigraph {\n"), std::string::npos);
}

TEST(ModelDump, CategoricalFeatureMapTypeIsRefused) {
  DumpSpec spec{DumpFormat::kText, false, FeatureMap::Parse("0 a q\n1 b q\n2 c c\n", "fm").value()};
  auto dump = DumpModel(testing::SmallModel(), spec);
  ASSERT_FALSE(dump.ok());
  EXPECT_EQ(dump.status().code(), StatusCode::kInvalidInput);
  EXPECT_NE(dump.status().message().find("feature 2 'c' is categorical"), std::string::npos)
      << dump.status().message();
}

}  // namespace
}  // namespace treering::booster
