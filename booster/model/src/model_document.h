// The one checked path from a parsed model document to a GBTreeModel, shared by every format:
// JSON parses into this document directly; UBJSON and XGBoost's legacy binary are decoded into
// the same document (docs/model-format.md), so all three get the same checks and messages.
#pragma once

#include <map>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "base/status.h"
#include "booster/tree_model.h"

namespace treering::booster {

// `doc` is {"learner": {...}, "version": [...]} as XGBoost 1.7 writes it; errors name `source`
// and the JSON path of the bad field.
Result<GBTreeModel> ModelFromDocument(const nlohmann::json& doc, const std::string& source);

// True when `s` is well-formed UTF-8: strings read from UBJSON or binary files must be, or
// the model could not be saved as JSON and loaded back.
bool IsValidUtf8(std::string_view s);

// What every writer checks first (kInvalidInput): one tree_info entry per tree, a finite
// base_score, and trees whose node arrays agree in length and hold finite numbers.
Status CheckModelForSave(const GBTreeModel& model);

// The learner's "learner_model_param" strings, as XGBoost writes them in JSON and UBJSON alike:
// one list, so the two writers cannot drift apart.
std::map<std::string, std::string> LearnerModelParams(const GBTreeModel& model);

// The learner's "objective" object as compact JSON text, as XGBoost's Json::Dump writes it;
// the legacy binary format stores this text as the "objective" attribute.
std::string ObjectiveJson(const GBTreeModel& model);

}  // namespace treering::booster
