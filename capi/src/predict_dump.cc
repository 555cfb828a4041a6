// Model dumps: XGBoosterDumpModel(Ex)(WithFeatures), one string per tree in XGBoost 1.7's text,
// JSON or dot format (booster/model_dump.h writes them byte for byte as Booster.get_dump).
#include <cstring>
#include <string>
#include <vector>

#include "api_error.h"
#include "booster/model_dump.h"
#include "booster/tree_model.h"
#include "booster_object.h"
#include "feature_naming.h"
#include "predict_run.h"
#include "treering/c_api.h"

namespace treering::capi {
namespace {

booster::DumpFormat ParseFormat(const char* format) {
  NotNull(format, "format");
  if (std::strcmp(format, "text") == 0) return booster::DumpFormat::kText;
  if (std::strcmp(format, "json") == 0) return booster::DumpFormat::kJson;
  if (std::strcmp(format, "dot") == 0) return booster::DumpFormat::kDot;
  throw ApiError(std::string("format: '") + format + "', allowed: text, json, dot");
}

// Dumps every tree with features named by `fmap_path`, else `names`/`types` (from the call),
// else the booster's.
void Dump(BoosterHandle handle, const std::string& fmap_path, std::vector<std::string> names,
          std::vector<std::string> types, const char* names_arg, int with_stats, const char* format,
          bst_ulong* out_len, const char*** out_dump) {
  NotNull(out_len, "out_len");
  NotNull(out_dump, "out_dump_array");
  booster::DumpSpec spec;
  spec.format = ParseFormat(format);
  spec.with_stats = with_stats != 0;
  std::shared_ptr<BoosterObject> booster = GetHandle<BoosterObject>(handle, "handle");
  BoosterObject::ReadView view = booster->ForPrediction();
  const ModelFacts facts = FactsOf(*view.learner);
  if (facts.trees == nullptr) throw ApiError("handle: the booster has no trees to dump");
  if (names.empty() && types.empty()) {
    names = booster->feature_names;
    types = booster->feature_types.empty() ? facts.trees->feature_types : booster->feature_types;
  }
  spec.fmap = NameFeatures(fmap_path, facts.num_feature, names, types, names_arg);
  ReturnSlot& slot = booster->returns.ForThisThread();
  slot.strings = ValueOrThrow(booster::DumpTrees(*facts.trees, spec));
  *out_dump = slot.PointStrings();
  *out_len = slot.strings.size();
}

// The WithFeatures calls' arrays: fnum names and types (fnum 0: the booster's).
void ReadFeatureArrays(int fnum, const char** fname, const char** ftype,
                       std::vector<std::string>* names, std::vector<std::string>* types) {
  if (fnum < 0) throw ApiError("fnum: " + std::to_string(fnum) + " is negative");
  if (fnum == 0) return;
  NotNull(fname, "fname");
  NotNull(ftype, "ftype");
  for (int i = 0; i < fnum; ++i) {
    names->emplace_back(NotNull(fname[i], "fname[i]"));
    types->emplace_back(NotNull(ftype[i], "ftype[i]"));
  }
}

}  // namespace
}  // namespace treering::capi

using treering::capi::ApiCall;
using treering::capi::NotNull;

XGB_DLL int XGBoosterDumpModel(BoosterHandle handle, const char* fmap, int with_stats,
                               bst_ulong* out_len, const char*** out_dump_array) {
  return ApiCall("XGBoosterDumpModel", [&] {
    treering::capi::Dump(handle, NotNull(fmap, "fmap"), {}, {}, "fmap", with_stats, "text", out_len,
                         out_dump_array);
  });
}

XGB_DLL int XGBoosterDumpModelEx(BoosterHandle handle, const char* fmap, int with_stats,
                                 const char* format, bst_ulong* out_len,
                                 const char*** out_dump_array) {
  return ApiCall("XGBoosterDumpModelEx", [&] {
    treering::capi::Dump(handle, NotNull(fmap, "fmap"), {}, {}, "fmap", with_stats, format, out_len,
                         out_dump_array);
  });
}

XGB_DLL int XGBoosterDumpModelWithFeatures(BoosterHandle handle, int fnum, const char** fname,
                                           const char** ftype, int with_stats, bst_ulong* out_len,
                                           const char*** out_models) {
  return ApiCall("XGBoosterDumpModelWithFeatures", [&] {
    std::vector<std::string> names, types;
    treering::capi::ReadFeatureArrays(fnum, fname, ftype, &names, &types);
    treering::capi::Dump(handle, "", names, types, "fname", with_stats, "text", out_len,
                         out_models);
  });
}

XGB_DLL int XGBoosterDumpModelExWithFeatures(BoosterHandle handle, int fnum, const char** fname,
                                             const char** ftype, int with_stats, const char* format,
                                             bst_ulong* out_len, const char*** out_models) {
  return ApiCall("XGBoosterDumpModelExWithFeatures", [&] {
    std::vector<std::string> names, types;
    treering::capi::ReadFeatureArrays(fnum, fname, ftype, &names, &types);
    treering::capi::Dump(handle, "", names, types, "fname", with_stats, format, out_len,
                         out_models);
  });
}
