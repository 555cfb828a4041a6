// Training memory (docs/data.md, "Memory"): a dense matrix loaded without its feature ids and
// freed once binned grows the same trees as the ordinary matrix.
#include "booster/tree/learner/train_memory.h"

#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <random>

#include <gtest/gtest.h>

#include "booster/tree/learner/gbtree_learner.h"
#include "context_keys.h"
#include "data/load.h"

namespace treering::booster {
namespace {

using Params = std::vector<std::pair<std::string, std::string>>;

// Half of the entries left out at random: a CSR matrix (as Fashion-MNIST's zeros).
std::string WriteSparse(int rows, int features) {
  const std::string path = (std::filesystem::temp_directory_path() /
                            ("train_memory_sparse_" + std::to_string(::getpid()) + ".libsvm"))
                               .string();
  std::ofstream out(path);
  std::mt19937 rng(5);
  std::normal_distribution<float> n(0.0f, 1.0f);
  std::bernoulli_distribution present(0.5);
  char buf[32];
  for (int r = 0; r < rows; ++r) {
    std::string line;
    float sum = 0;
    for (int f = 0; f < features; ++f) {
      if (!present(rng)) continue;
      const float v = n(rng);
      sum += f % 3 == 0 ? v : 0.0f;
      std::snprintf(buf, sizeof buf, " %d:%.4f", f, v);
      line += buf;
    }
    out << (sum + 0.5f * n(rng) > 0 ? 1 : 0) << line << '\n';
  }
  return path;
}

std::string WriteDense(int rows, int features) {
  const std::string path = (std::filesystem::temp_directory_path() /
                            ("train_memory_" + std::to_string(::getpid()) + ".libsvm"))
                               .string();
  std::ofstream out(path);
  std::mt19937 rng(3);
  std::normal_distribution<float> n(0.0f, 1.0f);
  char buf[32];
  for (int r = 0; r < rows; ++r) {
    std::string line;
    float sum = 0;
    for (int f = 0; f < features; ++f) {
      const float v = n(rng);
      sum += f % 3 == 0 ? v : 0.0f;
      std::snprintf(buf, sizeof buf, " %d:%.4f", f, v);
      line += buf;
    }
    out << (sum + 0.5f * n(rng) > 0 ? 1 : 0) << line << '\n';
  }
  return path;
}

data::DMatrix Load(const std::string& path, bool omit) {
  data::LoadOptions options;
  options.omit_dense_index = omit;
  auto m = data::Load(path, options, Context{.nthread = 2});
  EXPECT_TRUE(m.ok()) << m.status().message();
  return std::move(m).value();
}

std::string TrainedModel(data::DMatrix* dm, bool allow_drop, const Params& extra = {}) {
  Params params{{"tree_method", "hist"},
                {"objective", "binary:logistic"},
                {"max_depth", "5"},
                {"max_bin", "64"},
                {"nthread", "2"}};
  params.insert(params.end(), extra.begin(), extra.end());
  auto learner = test::CreateWithKeys<GBTreeLearner>(params, &rabit::DefaultComm());
  EXPECT_TRUE(learner.ok()) << learner.status().message();
  (*learner)->AllowTrainValueDrop(allow_drop);
  EXPECT_TRUE((*learner)->SetTrainData(dm).ok());
  for (int i = 0; i < 8; ++i) EXPECT_TRUE((*learner)->UpdateOneIter(i).ok());
  auto bytes = (*learner)->SerializeModel();
  EXPECT_TRUE(bytes.ok());
  return bytes.ok() ? *bytes : "";
}

// The streamed load (docs/data.md, "Streamed load") only where the values are dropped after
// binning and the per-column sketch serves.
TEST(TrainMemory, StreamedLoadOnlyWhereValuesAreUnread) {
  const TreeParam param;
  TrainMemoryInputs in;
  in.allow_drop = true;
  in.method = "hist";
  EXPECT_TRUE(StreamableTrain(param, in));
  in.method = "approx";
  EXPECT_TRUE(StreamableTrain(param, in));
  for (const char* method : {"auto", "exact"}) {  // auto may be exact: known after the load
    in.method = method;
    EXPECT_FALSE(StreamableTrain(param, in)) << method;
  }
  in.method = "hist";
  // Each of these alone keeps the whole load.
  using Change = void (*)(TrainMemoryInputs&);
  const std::pair<const char*, Change> offs[] = {
      {"values kept (eval on the training file, distributed, resume)",
       [](TrainMemoryInputs& i) { i.allow_drop = false; }},
      {"dart", [](TrainMemoryInputs& i) { i.dart = true; }},
      {"a forest", [](TrainMemoryInputs& i) { i.num_parallel_tree = 2; }},
      {"a model to continue", [](TrainMemoryInputs& i) { i.has_trees = true; }},
      {"process_type=update", [](TrainMemoryInputs& i) { i.update = true; }},
      {"num_feature given", [](TrainMemoryInputs& i) { i.num_feature = 30; }},
  };
  for (const auto& [why, change] : offs) {
    TrainMemoryInputs off = in;
    change(off);
    EXPECT_FALSE(StreamableTrain(param, off)) << why;
  }
}

TEST(TrainMemory, DroppedValuesGrowTheSameModel) {
  const std::string path = WriteDense(6000, 9);
  data::DMatrix plain = Load(path, false);
  data::DMatrix lean = Load(path, true);
  ASSERT_TRUE(lean.implicit_index);
  const std::string expected = TrainedModel(&plain, false);
  EXPECT_EQ(TrainedModel(&lean, true), expected);
  EXPECT_TRUE(lean.value.empty()) << "values kept after binning";
  EXPECT_EQ(lean.label.size(), 6000u);

  // Needing the ids (a weighted sketch) restores them; the model is still the same.
  data::DMatrix weighted_plain = Load(path, false), weighted_lean = Load(path, true);
  weighted_plain.weight.assign(6000, 2.0f);
  weighted_lean.weight.assign(6000, 2.0f);
  EXPECT_EQ(TrainedModel(&weighted_lean, true), TrainedModel(&weighted_plain, false));
  EXPECT_FALSE(weighted_lean.implicit_index);
  EXPECT_EQ(weighted_lean.index, weighted_plain.index);

  // A hist forest's margins come from its row partitions, as a single tree's: values go.
  const Params forest_keys{{"num_parallel_tree", "2"}, {"subsample", "0.8"}};
  data::DMatrix forest = Load(path, true);
  data::DMatrix forest_plain = Load(path, false);
  EXPECT_EQ(TrainedModel(&forest, true, forest_keys),
            TrainedModel(&forest_plain, false, forest_keys));
  EXPECT_TRUE(forest.value.empty()) << "a hist forest kept its values";
  // A forest refreshed by leaf quantiles walks the round's trees over the values: they stay.
  const Params quantile_forest{
      {"num_parallel_tree", "2"}, {"objective", "reg:absoluteerror"}, {"subsample", "0.8"}};
  data::DMatrix qforest = Load(path, true);
  data::DMatrix qforest_plain = Load(path, false);
  EXPECT_EQ(TrainedModel(&qforest, true, quantile_forest),
            TrainedModel(&qforest_plain, false, quantile_forest));
  EXPECT_FALSE(qforest.value.empty());
  std::filesystem::remove(path);
}

// A CSR matrix frees its values and its feature ids once binned (the bins carry the feature:
// BinnedMatrix::LocalBin searches them), growing the same model with 1 and 2 threads.
TEST(TrainMemory, SparseMatrixDropsValuesAndIds) {
  const std::string path = WriteSparse(6000, 12);
  for (const char* nthread : {"1", "2"}) {
    SCOPED_TRACE(std::string("nthread ") + nthread);
    data::DMatrix plain = Load(path, true);
    data::DMatrix lean = Load(path, true);
    ASSERT_FALSE(lean.implicit_index);
    const Params params{{"nthread", nthread}, {"max_depth", "6"}};
    const std::string expected = TrainedModel(&plain, false, params);
    EXPECT_FALSE(plain.value.empty());
    EXPECT_EQ(TrainedModel(&lean, true, params), expected);
    EXPECT_TRUE(lean.value.empty()) << "values kept after binning";
    EXPECT_TRUE(lean.index.empty()) << "feature ids kept after binning";
    EXPECT_EQ(lean.NumRows(), 6000u);
    // The exact grower reads the entries every round: they stay.
    data::DMatrix exact = Load(path, true);
    data::DMatrix exact_plain = Load(path, true);
    EXPECT_EQ(TrainedModel(&exact, true, {{"tree_method", "exact"}, {"nthread", nthread}}),
              TrainedModel(&exact_plain, false, {{"tree_method", "exact"}, {"nthread", nthread}}));
    EXPECT_FALSE(exact.value.empty());
    EXPECT_FALSE(exact.index.empty());
  }
  std::filesystem::remove(path);
}

}  // namespace
}  // namespace treering::booster
