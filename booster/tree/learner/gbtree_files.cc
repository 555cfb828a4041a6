// GBTreeLearner's files: model_in, the XGBoost 1.7 model files it saves, task=dump, and the bytes
// of the per-round rabit checkpoint.
#include <map>
#include <string>

#include "booster/learner_support.h"
#include "booster/model_dump.h"
#include "booster/model_formats.h"
#include "booster/tree/learner/gbtree_learner.h"

namespace treering::booster {
namespace {

// model_in in any of XGBoost's three formats (booster/model_formats.h).
Result<GBTreeModel> ReadModelIn(const std::string& path) {
  auto model = LoadModelAnyFormat(path);
  if (!model.ok()) return model.status().WithContext("model_in");
  return model;
}

}  // namespace

// Trees fit any params that agree on the objective, so both uses load alike.
Status GBTreeLearner::LoadModelFile(const std::string& path, ModelUse /*use*/) {
  auto model = ReadModelIn(path);
  if (!model.ok()) return model.status();
  return LoadModel(std::move(model.value())).WithContext("model_in = " + path);
}

Result<std::string> GBTreeLearner::SerializeModel() const {
  if (attributes_.empty()) return ModelToJson(model_);
  return ModelToJson(WithAttributes(model_, attributes_));
}

// XGBoost's rule: the extension picks JSON, UBJSON or the legacy binary format.
Result<std::string> GBTreeLearner::SerializeModelFile(const std::string& path) const {
  const ModelFormat format = ModelFormatForPath(path);
  if (attributes_.empty()) return SerializeModelAs(model_, format);
  return SerializeModelAs(WithAttributes(model_, attributes_), format);
}

Result<std::string> GBTreeLearner::DumpModelFile(const std::string& path,
                                                 const DumpSpec& spec) const {
  auto model = ReadModelIn(path);
  if (!model.ok()) return model.status();
  return DumpModel(model.value(), spec);
}

void GBTreeLearner::SetAttributes(const std::map<std::string, std::string>& attributes) {
  attributes_ = attributes;
}

// The model as JSON (which round-trips floats exactly), formatting only the trees added since
// the last checkpoint. Margins are recomputed from the trees (same sums in the same order) and
// the sampling streams are functions of (seed, round), so a restarted rank grows the same trees.
void GBTreeLearner::SaveCheckpoint(std::string* out) const {
  // A model XGBoost could not load cannot come out of training; the model part stays empty
  // then, so RestoreCheckpoint fails loudly instead of resuming from something else.
  (void)checkpoint_json_.AppendTo(model_, out);
}

Status GBTreeLearner::RestoreCheckpoint(std::string_view bytes) {
  checkpoint_json_.Reset();
  auto model = ModelFromJson(bytes, "the checkpoint received from a surviving worker");
  if (!model.ok()) return model.status();
  return LoadModel(std::move(model.value()));
}

}  // namespace treering::booster
