// base/param_table.h: typed fields take their default from the struct and their range text from
// the numbers they check; the table words errors, attaches the key as written, and documents
// aliases as rows of their own.
#include "base/param_table.h"

#include <cstdlib>

#include <gtest/gtest.h>

namespace treering {
namespace {

enum class Color { kRed, kBlue };

struct Toy {
  int depth = 6;
  float eta = 0.3f;
  double seconds = 1e-8;
  bool fast = true;
  bool eta_set = false;
  std::string name = "toy";
  Color color = Color::kBlue;
  std::vector<std::string> metrics;
};

const ParamTable<Toy>& ToyTable() {
  static const ParamTable<Toy> kTable({
      IntField("depth", &Toy::depth, 0, 64, "tree depth"),
      RealField("eta", &Toy::eta, {.lo = 0}, "step").Alias("learning_rate").MarkSet(&Toy::eta_set),
      RealField("seconds", &Toy::seconds, {.lo = 0, .hi = 1, .lo_open = true}, ""),
      BoolField("fast", &Toy::fast, "go fast"),
      StringField("name", &Toy::name, "a name"),
      EnumField("color", &Toy::color, {{"red", Color::kRed}, {"blue", Color::kBlue}}, "paint"),
      ListField("metric", &Toy::metrics, "(none)", "repeatable"),
  });
  return kTable;
}

TEST(ParamTable, DefaultsComeFromTheStructRangesFromTheChecks) {
  const std::vector<ParamDoc> docs = ToyTable().Docs();
  ASSERT_EQ(docs.size(), 8u);
  EXPECT_EQ(docs[0].default_value, "6");
  EXPECT_EQ(docs[0].description, "tree depth, [0, 64]");
  EXPECT_EQ(docs[1].default_value, "0.3");
  EXPECT_EQ(docs[1].description, "step, [0, inf)");
  EXPECT_EQ(docs[2].key, "learning_rate");  // the alias row, right after its key
  EXPECT_EQ(docs[2].alias_of, "eta");
  EXPECT_EQ(docs[2].description, "alias of eta");
  EXPECT_EQ(docs[3].default_value, "1e-08");
  EXPECT_EQ(docs[3].description, "(0, 1]");
  EXPECT_EQ(docs[4].default_value, "1");
  EXPECT_EQ(docs[5].default_value, "toy");
  EXPECT_EQ(docs[6].default_value, "blue");
  EXPECT_EQ(docs[6].description, "red | blue: paint");
  EXPECT_EQ(docs[7].default_value, "(none)");
  EXPECT_EQ(ToyTable().Keys(), (std::vector<std::string>{"depth", "eta", "learning_rate", "seconds",
                                                         "fast", "name", "color", "metric"}));
}

TEST(ParamTable, SetsTypedValues) {
  Toy t;
  for (const auto& [k, v] :
       std::vector<std::pair<std::string, std::string>>{{"depth", "3"},
                                                        {"learning_rate", "0.1"},
                                                        {"fast", "false"},
                                                        {"name", "x y"},
                                                        {"color", "red"},
                                                        {"metric", "auc"},
                                                        {"metric", "rmse"},
                                                        {"seconds", "0.5"}}) {
    ASSERT_TRUE(ToyTable().Set(&t, k, v).ok()) << k;
  }
  EXPECT_EQ(t.depth, 3);
  EXPECT_EQ(t.eta, static_cast<float>(std::strtod("0.1", nullptr)));  // parsed as double, rounded
  EXPECT_TRUE(t.eta_set);
  EXPECT_FALSE(t.fast);
  EXPECT_EQ(t.name, "x y");
  EXPECT_EQ(t.color, Color::kRed);
  EXPECT_EQ(t.metrics, (std::vector<std::string>{"auc", "rmse"}));
  for (const char* b : {"0", "1", "true", "false"}) EXPECT_TRUE(ToyTable().Set(&t, "fast", b).ok());
}

TEST(ParamTable, BadValuesAreWordedByTheTableAndCarryTheKeyAsWritten) {
  Toy t;
  Status s = ToyTable().Set(&t, "learning_rate", "-1");
  EXPECT_EQ(s.code(), StatusCode::kInvalidInput);
  EXPECT_EQ(s.key(), "learning_rate");
  EXPECT_EQ(s.message(), "parameter learning_rate: bad value '-1', allowed: a number in [0, inf)");
  for (const char* bad : {"inf", "nan", "0.1x", "", "1e999"}) {
    EXPECT_FALSE(ToyTable().Set(&t, "eta", bad).ok()) << bad;
  }
  EXPECT_EQ(ToyTable().Set(&t, "depth", "65").message(),
            "parameter depth: bad value '65', allowed: an integer in [0, 64]");
  EXPECT_EQ(ToyTable().Set(&t, "seconds", "0").message(),
            "parameter seconds: bad value '0', allowed: a number in (0, 1]");
  EXPECT_EQ(ToyTable().Set(&t, "color", "green").message(),
            "parameter color: bad value 'green', allowed: one of red, blue");
  EXPECT_EQ(ToyTable().Set(&t, "fast", "yes").message(),
            "parameter fast: bad value 'yes', allowed: 0 or 1 (or false/true)");
  s = ToyTable().Set(&t, "dpeth", "3");
  EXPECT_EQ(s.key(), "dpeth");
  EXPECT_EQ(s.message(), "unknown parameter 'dpeth'");
  EXPECT_EQ(t.depth, 6);  // nothing was applied
}

TEST(ParamTable, EachTableMayWordItsErrors) {
  const ParamTable<Toy> table(
      {IntField("depth", &Toy::depth, 0, 64, "")},
      [](const std::string& key, const std::string& value, const std::string& allowed) {
        return key + ": expected " + allowed + ", got '" + value + "'";
      });
  Toy t;
  EXPECT_EQ(table.Set(&t, "depth", "x").message(),
            "depth: expected an integer in [0, 64], got 'x'");
}

TEST(Status, KeySurvivesContext) {
  const Status s = Status::InvalidKey("eta", "bad").WithContext("t.conf:3");
  EXPECT_EQ(s.message(), "t.conf:3: bad");
  EXPECT_EQ(s.key(), "eta");
  EXPECT_EQ(Status::Ok().WithKey("eta").key(), "");
  EXPECT_EQ(Status::IoError("x").key(), "");
}

}  // namespace
}  // namespace treering
