// Shared fixtures for the model tests: the XGBoost 1.7.4 sample model and a small hand-built
// model whose every field is known.
#pragma once

#include <fstream>
#include <sstream>
#include <string>

#include "booster/tree_model.h"

namespace treering::booster::testing {

inline std::string SampleModelText() {
  std::ifstream in(TREERING_SAMPLE_MODEL, std::ios::binary);
  std::ostringstream buf;
  buf << in.rdbuf();
  return buf.str();
}

// Root splits f2 < 0.5 (missing -> left), left child splits f0 < -1.25 (missing -> right).
inline RegTree SmallTree(float scale) {
  RegTree t;
  t.AddNode(-1, 0.0f, 0.1f * scale, 10.0f);
  t.AddNode(0, 0.0f, -0.2f * scale, 6.0f);
  t.AddNode(0, 0.3f * scale, 0.6f * scale, 4.0f);
  t.AddNode(1, -0.05f * scale, -0.1f * scale, 2.5f);
  t.AddNode(1, 0.0125f * scale, 0.025f * scale, 3.5f);
  t.left = {1, 3, -1, -1, -1};
  t.right = {2, 4, -1, -1, -1};
  t.split_index = {2, 0, 0, 0, 0};
  t.split_cond = {0.5f, -1.25f, 0.3f * scale, -0.05f * scale, 0.0125f * scale};
  t.default_left = {1, 0, 0, 0, 0};
  t.loss_change = {12.5f, 3.25f, 0.0f, 0.0f, 0.0f};
  return t;
}

inline GBTreeModel SmallModel() {
  GBTreeModel m;
  m.objective = "binary:logistic";
  m.base_score = 0.3f;
  m.num_feature = 3;
  m.scale_pos_weight = 2.5f;
  m.trees = {SmallTree(1.0f), SmallTree(-0.5f)};
  m.tree_info = {0, 0};
  m.attributes = {{"best_iteration", "1"}, {"best_score", "0.25"}, {"note", "a \"quoted\"\tvalue"}};
  return m;
}

}  // namespace treering::booster::testing
