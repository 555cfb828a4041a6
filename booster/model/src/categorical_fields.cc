#include "categorical_fields.h"

#include <algorithm>
#include <string>

namespace treering::booster {
namespace {

constexpr std::int64_t kMaxCategory = 16777215;  // XGBoost's OutOfRangeCat() - 1

// An optional integer array member; absent reads as empty.
Result<std::vector<std::int64_t>> OptionalInts(const JsonCursor& tree, const char* key,
                                               std::int64_t lo, std::int64_t hi) {
  if (!tree.Has(key)) return std::vector<std::int64_t>{};
  auto field = tree.Member(key);
  if (!field.ok()) return field.status();
  return field->IntArray(lo, hi);
}

}  // namespace

CategoricalFields FlattenCategories(const RegTree& tree) {
  CategoricalFields out;
  out.split_type.assign(tree.left.size(), 0);
  for (const auto& [node, set] : tree.categories) {
    out.split_type[node] = 1;
    out.categories_nodes.push_back(node);
    out.categories_segments.push_back(static_cast<std::int64_t>(out.categories.size()));
    out.categories_sizes.push_back(static_cast<std::int64_t>(set.size()));
    out.categories.insert(out.categories.end(), set.begin(), set.end());
  }
  return out;
}

Status CheckCategories(const RegTree& tree) {
  for (const auto& [node, set] : tree.categories) {
    const std::string at = "node " + std::to_string(node) + ": ";
    if (node < 0 || node >= tree.NumNodes() || tree.IsLeaf(node)) {
      return Status::InvalidInput(at + "a categorical split on a node that is no split");
    }
    if (set.empty()) return Status::InvalidInput(at + "a categorical split with no categories");
    if (!std::is_sorted(set.begin(), set.end()) ||
        std::adjacent_find(set.begin(), set.end()) != set.end() || set.front() < 0 ||
        set.back() > kMaxCategory) {
      return Status::InvalidInput(at + "categories must be distinct, ascending, in [0, 2^24)");
    }
  }
  return Status::Ok();
}

Status ReadCategories(const JsonCursor& tree, std::size_t n, RegTree* t) {
  auto types = OptionalInts(tree, "split_type", 0, 1);
  if (!types.ok()) return types.status();
  if (!types->empty() && types->size() != n) {
    return tree.Member("split_type")
        ->Error("has " + std::to_string(types->size()) + " entries, num_nodes is " +
                std::to_string(n));
  }
  const auto last = static_cast<std::int64_t>(n) - 1;
  auto nodes = OptionalInts(tree, "categories_nodes", 0, last);
  if (!nodes.ok()) return nodes.status();
  auto segments = OptionalInts(tree, "categories_segments", 0, INT64_MAX);
  if (!segments.ok()) return segments.status();
  auto sizes = OptionalInts(tree, "categories_sizes", 1, kMaxCategory + 1);
  if (!sizes.ok()) return sizes.status();
  auto cats = OptionalInts(tree, "categories", 0, kMaxCategory);
  if (!cats.ok()) return cats.status();
  if (segments->size() != nodes->size() || sizes->size() != nodes->size()) {
    return tree.Error(
        "categories_nodes, categories_segments and categories_sizes differ in "
        "length");
  }
  t->categories.clear();
  for (std::size_t i = 0; i < nodes->size(); ++i) {
    const std::int64_t node = nodes.value()[i];
    const std::int64_t begin = segments.value()[i], size = sizes.value()[i];
    if (begin > static_cast<std::int64_t>(cats->size()) ||
        size > static_cast<std::int64_t>(cats->size()) - begin) {
      return tree.Error("categories_segments/sizes of node " + std::to_string(node) +
                        " run past the categories array");
    }
    if (types->empty() || types.value()[node] != 1) {
      return tree.Error("node " + std::to_string(node) +
                        " is in categories_nodes but its split_type is not 1");
    }
    std::vector<std::int32_t> set(cats->begin() + begin, cats->begin() + begin + size);
    std::sort(set.begin(), set.end());
    set.erase(std::unique(set.begin(), set.end()), set.end());
    t->categories[static_cast<int>(node)] = std::move(set);
  }
  for (std::size_t i = 0; i < types->size(); ++i) {
    if (types.value()[i] == 1 && !t->categories.count(static_cast<int>(i))) {
      return tree.Error("node " + std::to_string(i) +
                        " has split_type 1 (categorical) but no categories");
    }
  }
  return Status::Ok();
}

}  // namespace treering::booster
