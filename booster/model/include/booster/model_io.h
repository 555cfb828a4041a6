// XGBoost 1.7 JSON model files for GBTreeModel (format: docs/model-format.md).
//
// Writing produces the bytes XGBoost 1.7.4 itself writes: compact JSON, object keys sorted,
// parameters as strings, floats in XGBoost's shortest float32 form ("5E-1", "1.7611573E0"),
// integers without '.'/exponent (XGBoost's loader rejects a float where it wants an integer).
// Loading accepts what XGBoost 1.7 writes and checks the structure; every error is one line
// naming the file and the JSON path of the bad field, e.g.
//   "m.json: /learner/gradient_booster/model/trees/3/left_children/5: 99 is not a node id (0..14)"
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "base/status.h"
#include "booster/tree_model.h"

namespace treering::booster {

// The JSON text of `model` (no trailing newline, as XGBoost). Fails (kInvalidInput) only for
// a model that XGBoost could not load back: non-finite numbers or inconsistent node arrays.
Result<std::string> ModelToJson(const GBTreeModel& model);

// ModelToJson's bytes for a model that only grows, formatting each tree once: boosting appends
// trees and never edits one, so the per-round rabit checkpoint (GBTreeLearner::SaveCheckpoint)
// formats one round's trees instead of the whole model (whose cost grows with every round).
// A tree is formatted again when its node count or the model's
// feature count changed; call Reset() after replacing the model by another.
class IncrementalModelJson {
 public:
  // Appends the JSON text to *out; fails as ModelToJson (then *out is unchanged).
  Status AppendTo(const GBTreeModel& model, std::string* out);
  void Reset() { trees_.clear(); }

 private:
  struct Formatted {
    std::size_t nodes;
    std::string text;
  };
  std::vector<Formatted> trees_;
  std::uint64_t num_feature_ = 0;
};

// Parses JSON text; `source` names the origin (a path) in error messages.
Result<GBTreeModel> ModelFromJson(std::string_view text, const std::string& source);

// Atomic save (temp file in the same directory + fsync + rename): readers see the old file
// or the complete new one, never a half-written one.
Status SaveModelJson(const GBTreeModel& model, const std::string& path);
// A missing or unreadable file, or bad content, is kInvalidInput (a user error).
Result<GBTreeModel> LoadModelJson(const std::string& path);

}  // namespace treering::booster
