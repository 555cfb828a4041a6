// The library-wide calls: versions, build facts, the last error, the log callback and the
// global configuration (global_config.h).
#include <nlohmann/json.hpp>

#include "api_error.h"
#include "global_config.h"
#include "return_slots.h"
#include "treering/c_api.h"

#ifndef TREERING_VERSION_STRING
#define TREERING_VERSION_STRING "unknown"
#endif

using treering::capi::ApiCall;
using treering::capi::NotNull;

namespace {

// XGBoost's keys (what its Python build_info() shows) plus treering's own.
std::string BuildInfoJson() {
  nlohmann::json info = nlohmann::json::object();
  info["USE_OPENMP"] = true;  // treering always builds with OpenMP (ParallelFor)
  info["USE_CUDA"] = false;
  info["USE_NCCL"] = false;
  info["USE_RMM"] = false;
  info["USE_FEDERATED"] = false;
#if defined(__clang__)
  info["CLANG_VERSION"] = {__clang_major__, __clang_minor__, __clang_patchlevel__};
#elif defined(__GNUC__)
  info["GCC_VERSION"] = {__GNUC__, __GNUC_MINOR__, __GNUC_PATCHLEVEL__};
#endif
#if defined(NDEBUG)
  info["DEBUG"] = false;
#else
  info["DEBUG"] = true;
#endif
#if defined(TREERING_WITH_MPI)
  info["USE_MPI"] = true;
#else
  info["USE_MPI"] = false;
#endif
  info["TREERING_VERSION"] = TREERING_VERSION_STRING;
  info["XGBOOST_API_VERSION"] = {1, 7, 4};
  return info.dump();
}

}  // namespace

XGB_DLL void XGBoostVersion(int* major, int* minor, int* patch) {
  // The API this library implements, which bindings compare with what they were written for.
  if (major != nullptr) *major = 1;
  if (minor != nullptr) *minor = 7;
  if (patch != nullptr) *patch = 4;
}

XGB_DLL int XGBuildInfo(char const** out) {
  return ApiCall("XGBuildInfo", [&] {
    NotNull(out, "out");
    auto& slot = treering::capi::GlobalReturnSlot();
    slot.text = BuildInfoJson();
    *out = slot.text.c_str();
  });
}

XGB_DLL const char* XGBGetLastError(void) { return treering::capi::LastError(); }

XGB_DLL int XGBRegisterLogCallback(void (*callback)(const char*)) {
  return ApiCall("XGBRegisterLogCallback", [&] { treering::capi::SetLogCallback(callback); });
}

XGB_DLL int XGBSetGlobalConfig(char const* config) {
  return ApiCall("XGBSetGlobalConfig",
                 [&] { treering::capi::UpdateGlobalConfig(NotNull(config, "config")); });
}

XGB_DLL int XGBGetGlobalConfig(char const** out_config) {
  return ApiCall("XGBGetGlobalConfig", [&] {
    NotNull(out_config, "out_config");
    auto& slot = treering::capi::GlobalReturnSlot();
    slot.text = treering::capi::GlobalConfigJson();
    *out_config = slot.text.c_str();
  });
}
