// XGBoost 2's in-process tracker calls over TrackerObject: Create listens, WorkerArgs gives the
// workers' config, Run serves in a background thread, WaitFor blocks until the job ends.
#include <memory>
#include <string>

#include <nlohmann/json.hpp>

#include "api_error.h"
#include "tracker_object.h"
#include "treering/c_api.h"

using treering::capi::ApiCall;
using treering::capi::ApiError;
using treering::capi::GetHandle;
using treering::capi::NotNull;
using treering::capi::TrackerObject;

namespace {

// XGTrackerRun / WaitFor configs: null or a JSON object of the keys given.
nlohmann::json ReadConfig(char const* config, std::initializer_list<const char*> known) {
  if (config == nullptr) return nlohmann::json::object();
  nlohmann::json parsed;
  try {
    parsed = nlohmann::json::parse(config);
  } catch (const nlohmann::json::parse_error& e) {
    throw ApiError(std::string("config: not valid JSON: ") + e.what());
  }
  if (parsed.is_null()) return nlohmann::json::object();
  if (!parsed.is_object()) throw ApiError("config: expected a JSON object, got " + parsed.dump());
  for (const auto& [key, value] : parsed.items()) {
    bool ok = false;
    for (const char* k : known) ok = ok || key == k;
    if (!ok) throw ApiError("config: unknown key '" + key + "'");
  }
  return parsed;
}

}  // namespace

XGB_DLL int XGTrackerCreate(char const* config, TrackerHandle* handle) {
  return ApiCall("XGTrackerCreate", [&] {
    NotNull(handle, "handle");
    auto tracker = std::make_shared<TrackerObject>(NotNull(config, "config"));
    *handle = treering::capi::AddHandle(std::move(tracker));
  });
}

XGB_DLL int XGTrackerWorkerArgs(TrackerHandle handle, char const** args) {
  return ApiCall("XGTrackerWorkerArgs", [&] {
    NotNull(args, "args");
    auto tracker = GetHandle<TrackerObject>(handle, "handle");
    auto& slot = tracker->returns.ForThisThread();
    slot.text = tracker->WorkerArgs();
    *args = slot.text.c_str();
  });
}

XGB_DLL int XGTrackerRun(TrackerHandle handle, char const* config) {
  return ApiCall("XGTrackerRun", [&] {
    auto tracker = GetHandle<TrackerObject>(handle, "handle");
    ReadConfig(config, {});
    tracker->Run();
  });
}

XGB_DLL int XGTrackerWaitFor(TrackerHandle handle, char const* config) {
  return ApiCall("XGTrackerWaitFor", [&] {
    auto tracker = GetHandle<TrackerObject>(handle, "handle");
    const nlohmann::json c = ReadConfig(config, {"timeout"});
    double timeout = 0;
    if (c.contains("timeout")) {
      const auto& t = c["timeout"];
      if (!t.is_number() || !(t.get<double>() >= 0)) {
        throw ApiError("config: timeout: expected seconds >= 0, got " + t.dump());
      }
      timeout = t.get<double>();
    }
    tracker->WaitFor(timeout);
  });
}

XGB_DLL int XGTrackerFree(TrackerHandle handle) {
  return ApiCall("XGTrackerFree", [&] {
    auto tracker = GetHandle<TrackerObject>(handle, "handle");
    tracker->Stop();  // a WaitFor in another thread returns (the job is aborted)
    treering::capi::FreeHandle<TrackerObject>(handle, "handle");
  });
}
