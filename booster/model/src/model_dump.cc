// Text and JSON dumps with XGBoost 1.7's templates (src/tree/tree_model.cc TextGenerator /
// JsonGenerator), reproduced from its observed output: recursion left child first, tabs (text)
// or two spaces per depth plus one (JSON) of indentation, numbers as %.9g.
#include "booster/model_dump.h"

#include "booster/number_format.h"

namespace treering::booster {
namespace {

int MissingChild(const RegTree& tree, int node) {
  return tree.default_left[node] ? tree.left[node] : tree.right[node];
}

void TextNode(const RegTree& tree, int node, int depth, bool stats, std::string* out) {
  out->append(static_cast<std::size_t>(depth), '\t');
  out->append(std::to_string(node));
  if (tree.IsLeaf(node)) {
    out->append(":leaf=" + FloatToG9(tree.split_cond[node]));
    if (stats) out->append(",cover=" + FloatToG9(tree.sum_hess[node]));
    out->push_back('\n');
    return;
  }
  out->append(":[f" + std::to_string(tree.split_index[node]) + "<" +
              FloatToG9(tree.split_cond[node]) + "] yes=" + std::to_string(tree.left[node]) +
              ",no=" + std::to_string(tree.right[node]) +
              ",missing=" + std::to_string(MissingChild(tree, node)));
  if (stats) {
    out->append(",gain=" + FloatToG9(tree.loss_change[node]) +
                ",cover=" + FloatToG9(tree.sum_hess[node]));
  }
  out->push_back('\n');
  TextNode(tree, tree.left[node], depth + 1, stats, out);
  TextNode(tree, tree.right[node], depth + 1, stats, out);
}

std::string JsonIndent(int depth) { return std::string(2 * (depth + 1), ' '); }

void JsonNode(const RegTree& tree, int node, int depth, bool stats, std::string* out) {
  if (depth != 0) out->push_back('\n');
  out->append(JsonIndent(depth));
  const std::string id = std::to_string(node);
  if (tree.IsLeaf(node)) {
    out->append("{ \"nodeid\": " + id + ", \"leaf\": " + FloatToG9(tree.split_cond[node]) + " ");
    if (stats) out->append(", \"cover\": " + FloatToG9(tree.sum_hess[node]) + " ");
    out->push_back('}');
    return;
  }
  out->append("{ \"nodeid\": " + id + ", \"depth\": " + std::to_string(depth) + ", \"split\": \"" +
              std::to_string(tree.split_index[node]) + "\", \"split_condition\": " +
              FloatToG9(tree.split_cond[node]) + ", \"yes\": " + std::to_string(tree.left[node]) +
              ", \"no\": " + std::to_string(tree.right[node]) +
              ", \"missing\": " + std::to_string(MissingChild(tree, node)) + " ");
  if (stats) {
    out->append(", \"gain\": " + FloatToG9(tree.loss_change[node]) +
                ", \"cover\": " + FloatToG9(tree.sum_hess[node]));
  }
  out->append(", \"children\": [");
  JsonNode(tree, tree.left[node], depth + 1, stats, out);
  out->append(", ");
  JsonNode(tree, tree.right[node], depth + 1, stats, out);
  out->append("\n" + JsonIndent(depth) + "]}");
}

}  // namespace

std::vector<std::string> DumpTrees(const GBTreeModel& model, DumpFormat format, bool with_stats) {
  std::vector<std::string> dumps;
  dumps.reserve(model.trees.size());
  for (const RegTree& tree : model.trees) {
    std::string text;
    if (tree.NumNodes() > 0) {
      if (format == DumpFormat::kText) {
        TextNode(tree, 0, 0, with_stats, &text);
      } else {
        JsonNode(tree, 0, 0, with_stats, &text);
      }
    }
    dumps.push_back(std::move(text));
  }
  return dumps;
}

std::string DumpModel(const GBTreeModel& model, DumpFormat format, bool with_stats) {
  const std::vector<std::string> trees = DumpTrees(model, format, with_stats);
  std::string out;
  if (format == DumpFormat::kText) {
    for (std::size_t i = 0; i < trees.size(); ++i) {
      out.append("booster[" + std::to_string(i) + "]:\n" + trees[i]);
    }
    return out;
  }
  out = "[\n";
  for (std::size_t i = 0; i < trees.size(); ++i) {
    if (i != 0) out.append(",\n");
    out.append(trees[i]);
  }
  out.append("\n]\n");
  return out;
}

}  // namespace treering::booster
