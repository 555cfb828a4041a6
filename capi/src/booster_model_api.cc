// XGBoost's C API, models and configuration: load / save (files and buffers, JSON, UBJSON and
// the legacy binary format), pickling's serialize / unserialize, JSON configs and rabit
// checkpoints.
#include <cstring>
#include <fstream>
#include <iterator>
#include <map>
#include <memory>
#include <set>
#include <sstream>
#include <string>

#include <nlohmann/json.hpp>

#include "api_error.h"
#include "base/context.h"
#include "booster/atomic_file.h"
#include "booster/model_formats.h"
#include "booster/model_io.h"
#include "booster_config.h"
#include "booster_object.h"
#include "learner_factory.h"  // booster/cli: which keys each booster takes
#include "rabit/rabit.h"
#include "treering/c_api.h"

using treering::capi::ApiCall;
using treering::capi::ApiError;
using treering::capi::BoosterObject;
using treering::capi::GetHandle;
using treering::capi::NotNull;

namespace {

std::shared_ptr<BoosterObject> Booster(BoosterHandle handle) {
  return GetHandle<BoosterObject>(handle, "handle");
}

std::string ReadWholeFile(const char* path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw ApiError(std::string("fname: cannot open '") + path + "'");
  std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (in.bad()) throw ApiError(std::string("fname: cannot read '") + path + "'");
  return bytes;
}

// Hands `bytes` out through the booster's per-thread slot.
void ReturnBytes(BoosterObject* b, std::string bytes, bst_ulong* out_len, const char** out) {
  treering::capi::ReturnSlot& slot = b->returns.ForThisThread();
  slot.text = std::move(bytes);
  *out_len = slot.text.size();
  *out = slot.text.data();
}

// Keys a config written by XGBoost may set here: the Context's and the booster's.
bool KnownKey(const std::string& key, const std::string& booster) {
  if (treering::Context::Table().Find(key) != nullptr) return true;
  for (const auto& d : treering::cli::LearnerParamDocs(booster)) {
    if (d.key == key) return true;
  }
  return false;
}

void LoadConfigLocked(BoosterObject* b, std::string_view json, const char* what) {
  // The booster is chosen first so the other keys are checked against its table.
  std::string booster = "gbtree";
  const auto doc = nlohmann::json::parse(json, nullptr, false);
  if (!doc.is_discarded()) {
    const auto name =
        doc.value(nlohmann::json::json_pointer("/learner/gradient_booster/name"), std::string());
    if (name == "gbtree" || name == "dart" || name == "gblinear" || name == "mlp") booster = name;
  }
  b->params = treering::capi::ParamsFromConfig(
      json, what, [&](const std::string& key) { return KnownKey(key, booster); });
  b->needs_configure = true;
}

// A snapshot's config and model: on failure the booster keeps its params and model.
void LoadSnapshotLocked(BoosterObject* b, std::string_view config, std::string_view model) {
  const auto saved_params = b->params;
  const bool saved_configure = b->needs_configure;
  try {
    LoadConfigLocked(b, config, "buf: Config");
    b->LoadModelLocked(model, "buf: Model");
  } catch (...) {
    b->params = saved_params;
    b->needs_configure = saved_configure;
    throw;
  }
}

// XGBoost 1.7's pickle layout, {"Config": ..., "Model": ...} in UBJSON: the model part is
// the UBJSON model file (float32 values, exact), the config nlohmann's UBJSON of the JSON.
std::string UbjsonKey(std::string_view key) {
  std::string out(1, 'L');
  for (int shift = 56; shift >= 0; shift -= 8) {
    out.push_back(static_cast<char>((std::uint64_t{key.size()} >> shift) & 0xff));
  }
  out.append(key);
  return out;
}

// XGBoost's reader takes every length as 'L' (int64), so the config is encoded here rather
// than by nlohmann::json::to_ubjson (which picks the smallest integer type).
void AppendUbjson(const nlohmann::json& j, std::string* out) {
  if (j.is_object()) {
    out->push_back('{');
    for (const auto& [key, value] : j.items()) {
      out->append(UbjsonKey(key));
      AppendUbjson(value, out);
    }
    out->push_back('}');
  } else if (j.is_array()) {
    out->push_back('[');
    for (const auto& value : j) AppendUbjson(value, out);
    out->push_back(']');
  } else if (j.is_string()) {
    out->push_back('S');
    out->append(UbjsonKey(j.get<std::string>()));
  } else if (j.is_boolean()) {
    out->push_back(j.get<bool>() ? 'T' : 'F');
  } else if (j.is_number_integer()) {
    out->append(UbjsonKey(""));  // 'L' + the value as int64, big-endian
    const auto v = static_cast<std::uint64_t>(j.get<std::int64_t>());
    for (int i = 0; i < 8; ++i) (*out)[out->size() - 8 + i] = static_cast<char>(v >> (56 - 8 * i));
  } else {
    out->push_back('Z');  // the config holds no floats
  }
}

std::string UbjsonSnapshot(const std::string& config_json, const std::string& model_ubj) {
  std::string out("{");  // appends only: GCC 12 warns falsely on "literal" + string
  out.append(UbjsonKey("Config"));
  AppendUbjson(nlohmann::json::parse(config_json), &out);
  out += UbjsonKey("Model");
  out += model_ubj;
  out.push_back('}');
  return out;
}

// XGBoost 1.7's pickles are UBJSON objects: '{' then a key's length type.
bool IsUbjsonObject(std::string_view bytes) {
  return bytes.size() > 2 && bytes[0] == '{' &&
         std::string_view("iUIlL").find(bytes[1]) != std::string_view::npos;
}

}  // namespace

XGB_DLL int XGBoosterLoadModel(BoosterHandle handle, const char* fname) {
  return ApiCall("XGBoosterLoadModel", [&] {
    const auto b = Booster(handle);
    NotNull(fname, "fname");
    const std::string bytes = ReadWholeFile(fname);
    std::unique_lock lock(b->mutex);
    b->LoadModelLocked(bytes, fname);
  });
}

XGB_DLL int XGBoosterSaveModel(BoosterHandle handle, const char* fname) {
  return ApiCall("XGBoosterSaveModel", [&] {
    const auto b = Booster(handle);
    NotNull(fname, "fname");
    std::unique_lock lock(b->mutex);
    const std::string bytes = b->SaveModelLocked(fname);
    treering::capi::ThrowIfError(treering::booster::WriteFileAtomic(fname, bytes));
  });
}

XGB_DLL int XGBoosterLoadModelFromBuffer(BoosterHandle handle, const void* buf, bst_ulong len) {
  return ApiCall("XGBoosterLoadModelFromBuffer", [&] {
    const auto b = Booster(handle);
    NotNull(buf, "buf");
    std::unique_lock lock(b->mutex);
    b->LoadModelLocked(std::string_view(static_cast<const char*>(buf), len), "buf");
  });
}

XGB_DLL int XGBoosterSaveModelToBuffer(BoosterHandle handle, char const* config, bst_ulong* out_len,
                                       char const** out_dptr) {
  return ApiCall("XGBoosterSaveModelToBuffer", [&] {
    const auto b = Booster(handle);
    NotNull(config, "config");
    NotNull(out_len, "out_len");
    NotNull(out_dptr, "out_dptr");
    const auto doc = nlohmann::json::parse(config, nullptr, false);
    if (doc.is_discarded() || !doc.is_object() || !doc.contains("format") ||
        !doc["format"].is_string()) {
      throw ApiError("config: expected {\"format\": \"json\" | \"ubj\" | \"deprecated\"}");
    }
    const std::string format = doc["format"];
    const char* path = format == "json"         ? "model.json"
                       : format == "ubj"        ? "model.ubj"
                       : format == "deprecated" ? "model.deprecated"
                                                : nullptr;
    if (path == nullptr) {
      throw ApiError("config: format '" + format + "' is not json, ubj or deprecated");
    }
    std::unique_lock lock(b->mutex);
    ReturnBytes(b.get(), b->SaveModelLocked(path), out_len, out_dptr);
  });
}

XGB_DLL int XGBoosterGetModelRaw(BoosterHandle handle, bst_ulong* out_len, const char** out_dptr) {
  return ApiCall("XGBoosterGetModelRaw", [&] {
    const auto b = Booster(handle);
    NotNull(out_len, "out_len");
    NotNull(out_dptr, "out_dptr");
    std::unique_lock lock(b->mutex);
    ReturnBytes(b.get(), b->SaveModelLocked("model.deprecated"), out_len, out_dptr);
  });
}

XGB_DLL int XGBoosterSerializeToBuffer(BoosterHandle handle, bst_ulong* out_len,
                                       const char** out_dptr) {
  return ApiCall("XGBoosterSerializeToBuffer", [&] {
    const auto b = Booster(handle);
    NotNull(out_len, "out_len");
    NotNull(out_dptr, "out_dptr");
    std::unique_lock lock(b->mutex);
    const std::string config = b->ConfigJsonLocked();
    ReturnBytes(b.get(), UbjsonSnapshot(config, b->SaveModelLocked("model.ubj")), out_len,
                out_dptr);
  });
}

XGB_DLL int XGBoosterUnserializeFromBuffer(BoosterHandle handle, const void* buf, bst_ulong len) {
  return ApiCall("XGBoosterUnserializeFromBuffer", [&] {
    const auto b = Booster(handle);
    NotNull(buf, "buf");
    const std::string_view bytes(static_cast<const char*>(buf), len);
    std::string_view config, model;
    std::unique_lock lock(b->mutex);
    if (!treering::capi::SplitSnapshot(bytes, &config, &model)) {
      if (IsUbjsonObject(bytes)) {
        std::string xgb_config;
        std::string_view ubj_model;
        if (treering::booster::SplitUbjsonSnapshot(bytes, "buf", &xgb_config, &ubj_model).ok()) {
          LoadSnapshotLocked(b.get(), xgb_config, ubj_model);
          return;
        }
      }
      // Not a snapshot: a bare model in any format (older pickles held the model alone).
      b->LoadModelLocked(bytes, "buf");
      return;
    }
    LoadSnapshotLocked(b.get(), config, model);
  });
}

XGB_DLL int XGBoosterSaveJsonConfig(BoosterHandle handle, bst_ulong* out_len,
                                    char const** out_str) {
  return ApiCall("XGBoosterSaveJsonConfig", [&] {
    const auto b = Booster(handle);
    NotNull(out_len, "out_len");
    NotNull(out_str, "out_str");
    std::unique_lock lock(b->mutex);
    ReturnBytes(b.get(), b->ConfigJsonLocked(), out_len, out_str);
  });
}

XGB_DLL int XGBoosterLoadJsonConfig(BoosterHandle handle, char const* config) {
  return ApiCall("XGBoosterLoadJsonConfig", [&] {
    const auto b = Booster(handle);
    NotNull(config, "config");
    std::unique_lock lock(b->mutex);
    LoadConfigLocked(b.get(), config, "config");
  });
}

// XGBoost 1.7's rabit checkpoint of the booster, through rabit's LoadCheckPoint / CheckPoint,
// so a restarted worker of a fault-tolerant job resumes with the survivors' model. Without a
// checkpoint (or a robust engine) the version is 0 and the booster is left as it is.
//
// In a distributed job it works as the CLI's round checkpoint: LoadRabitCheckpoint first
// hands the booster's first cached DMatrix (the training data, as xgboost.train creates the
// booster) to the learner, so every rank runs the data's setup collectives (feature count,
// quantile sketch) before the checkpoint; a restarted rank then restores the trees into that
// learner (GBTree's RestoreCheckpoint: margins recomputed from the trees) and its next round
// issues exactly the survivors' collectives. The bytes are 'T' + attributes JSON length (8
// bytes) + attributes JSON + the learner's checkpoint, or 'M' + the JSON model file when the
// booster is not training (no cached matrix, or not distributed).
namespace {

class ModelCheckpoint : public ::rabit::Serializable {
 public:
  explicit ModelCheckpoint(BoosterObject* b) : b_(b) {}
  void Save(std::string* out) const override {
    if (!b_->TrainingPrepared()) {
      *out = "M" + b_->SaveModelLocked("checkpoint.json");
      return;
    }
    const std::string attributes = nlohmann::json(b_->attributes).dump();
    const std::uint64_t n = attributes.size();
    out->assign("T");
    out->append(reinterpret_cast<const char*>(&n), sizeof(n));
    out->append(attributes);
    b_->learner->SaveCheckpoint(out);
  }
  void Load(const std::string& in) override { loaded_ = in; }

  // Applies the loaded bytes (Load itself cannot fail; this can, naming the problem).
  void Restore() {
    const std::string_view in(loaded_);
    if (in.empty()) return;  // nothing received
    if (in[0] != 'M' && in[0] != 'T') {
      throw ApiError("the rabit checkpoint received is not a booster checkpoint");
    }
    if (in[0] == 'M') {
      b_->LoadModelLocked(in.substr(1), "the rabit checkpoint");
      return;
    }
    std::uint64_t n = 0;
    if (in.size() < 1 + sizeof(n)) throw ApiError("the rabit checkpoint is truncated");
    std::memcpy(&n, in.data() + 1, sizeof(n));
    if (in.size() < 1 + sizeof(n) + n) throw ApiError("the rabit checkpoint is truncated");
    const auto attributes = nlohmann::json::parse(in.substr(1 + sizeof(n), n));
    const std::string_view model = in.substr(1 + sizeof(n) + n);
    if (b_->TrainingPrepared()) {
      const treering::Status st = b_->learner->RestoreCheckpoint(model);
      if (!st.ok()) throw ApiError("the rabit checkpoint: " + st.message());
    } else {
      b_->LoadModelLocked(model, "the rabit checkpoint");
    }
    b_->attributes = attributes.get<std::map<std::string, std::string>>();
  }

 private:
  BoosterObject* b_;
  std::string loaded_;
};

}  // namespace

XGB_DLL int XGBoosterLoadRabitCheckpoint(BoosterHandle handle, int* version) {
  return ApiCall("XGBoosterLoadRabitCheckpoint", [&] {
    const auto b = Booster(handle);
    NotNull(version, "version");
    std::unique_lock lock(b->mutex);
    if (::rabit::IsDistributed() && !b->cache.empty()) {
      b->PrepareTraining(b->cache.front(), "handle (its first cached DMatrix)");
    }
    ModelCheckpoint checkpoint(b.get());
    *version = ::rabit::LoadCheckPoint(&checkpoint);
    // LoadCheckPoint calls Load only when it brings a checkpoint in (a restarted worker).
    // Without it (version 0, or this process's own checkpoint is current) nothing changes.
    if (*version > 0) checkpoint.Restore();
  });
}

XGB_DLL int XGBoosterSaveRabitCheckpoint(BoosterHandle handle) {
  return ApiCall("XGBoosterSaveRabitCheckpoint", [&] {
    const auto b = Booster(handle);
    std::unique_lock lock(b->mutex);
    ModelCheckpoint checkpoint(b.get());
    ::rabit::CheckPoint(&checkpoint);
  });
}
