// DumpTrees / DumpModel: one generator per format (text_dump.cc, json_dump.cc, dot_dump.cc)
// and the file layout of XGBoost 1.7's CLI (src/cli_main.cc CLIDumpModel).
#include "booster/model_dump.h"

#include <cmath>

#include "tree_dump.h"

namespace treering::booster {
namespace dump {

Result<SplitKind> KindOf(const RegTree& tree, int node, const FeatureMap& fmap) {
  const std::uint32_t feature = tree.split_index[node];
  if (tree.IsCategorical(node)) {
    if (feature >= fmap.Size() || fmap.TypeOf(feature) == FeatureMap::Type::kCategorical) {
      return SplitKind::kCategorical;
    }
    return Status::InvalidInput("fmap: feature " + std::to_string(feature) + " '" +
                                fmap.Name(feature) +
                                "' is numerical in the feature map but the trees split on it "
                                "by category (give it type c)");
  }
  if (feature >= fmap.Size()) return SplitKind::kPlain;
  switch (fmap.TypeOf(feature)) {
    case FeatureMap::Type::kIndicator:
      return SplitKind::kIndicator;
    case FeatureMap::Type::kInteger:
      return SplitKind::kInteger;
    case FeatureMap::Type::kQuantitative:
    case FeatureMap::Type::kFloat:
      return SplitKind::kQuantitative;
    case FeatureMap::Type::kCategorical:
      break;
  }
  return Status::InvalidInput("fmap: feature " + std::to_string(feature) + " '" +
                              fmap.Name(feature) +
                              "' is categorical (c) in the feature map but the trees split on "
                              "it numerically");
}

std::string CategorySet(const RegTree& tree, int node, const char* open, const char* separator,
                        const char* close) {
  std::string out = open;
  const std::vector<std::int32_t>& set = tree.categories.at(node);
  for (std::size_t i = 0; i < set.size(); ++i) {
    if (i != 0) out += separator;
    out += std::to_string(set[i]);
  }
  return out + close;
}

std::string IntegerThreshold(float cond) {
  const float floored = std::floor(cond);
  const int threshold = static_cast<int>(floored) + (floored == cond ? 0 : 1);
  return std::to_string(threshold);
}

}  // namespace dump

Result<std::vector<std::string>> DumpTrees(const GBTreeModel& model, const DumpSpec& spec) {
  if (model.linear)
    return std::vector<std::string>{dump::LinearDump(model, spec.format == DumpFormat::kJson)};
  std::vector<std::string> dumps;
  dumps.reserve(model.trees.size());
  for (const RegTree& tree : model.trees) {
    std::string text;
    if (tree.NumNodes() > 0) {
      Status st = Status::Ok();
      switch (spec.format) {
        case DumpFormat::kText:
          st = dump::TextTree(tree, spec.fmap, spec.with_stats, &text);
          break;
        case DumpFormat::kJson:
          st = dump::JsonTree(tree, spec.fmap, spec.with_stats, &text);
          break;
        case DumpFormat::kDot:
          dump::DotTree(tree, spec.fmap, &text);
          break;
      }
      if (!st.ok()) return st;
    }
    dumps.push_back(std::move(text));
  }
  return dumps;
}

Result<std::string> DumpModel(const GBTreeModel& model, const DumpSpec& spec) {
  auto trees = DumpTrees(model, spec);
  if (!trees.ok()) return trees.status();
  std::string out;
  if (spec.format != DumpFormat::kJson) {
    for (std::size_t i = 0; i < trees->size(); ++i) {
      out.append("booster[" + std::to_string(i) + "]:\n" + (*trees)[i]);
    }
    return out;
  }
  out = "[\n";
  for (std::size_t i = 0; i < trees->size(); ++i) {
    if (i != 0) out.append(",\n");
    out.append((*trees)[i]);
  }
  out.append("\n]\n");
  return out;
}

std::vector<std::string> DumpTrees(const GBTreeModel& model, DumpFormat format, bool with_stats) {
  return DumpTrees(model, DumpSpec{format, with_stats, {}}).value();
}

std::string DumpModel(const GBTreeModel& model, DumpFormat format, bool with_stats) {
  return DumpModel(model, DumpSpec{format, with_stats, {}}).value();
}

}  // namespace treering::booster
