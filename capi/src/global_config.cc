#include "global_config.h"

#include <atomic>
#include <cmath>
#include <cstdio>
#include <mutex>

#include <nlohmann/json.hpp>

#include "api_error.h"

namespace treering::capi {
namespace {

using Json = nlohmann::json;

std::atomic<void (*)(const char*)> log_callback{nullptr};

// XGBoost converts every value to text and parses it as the field's type, so 2, 2.0 and "2"
// all set verbosity; 2.5 and "two" are refused.
int ReadVerbosity(const Json& v) {
  double x = NAN;
  if (v.is_number()) {
    x = v.get<double>();
  } else if (v.is_string()) {
    const std::string& s = v.get_ref<const std::string&>();
    std::size_t used = 0;
    try {
      x = std::stod(s, &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (used != s.size()) x = NAN;
  }
  if (!(x >= 0 && x <= 3) || x != std::floor(x)) {
    throw ApiError("config: verbosity: expected an integer in [0, 3], got " + v.dump());
  }
  return static_cast<int>(x);
}

bool ReadBool(const Json& v, const char* key) {
  if (v.is_boolean()) return v.get<bool>();
  if (v.is_number_integer() && (v.get<long long>() == 0 || v.get<long long>() == 1)) {
    return v.get<long long>() == 1;
  }
  if (v.is_string()) {
    const std::string& s = v.get_ref<const std::string&>();
    if (s == "true" || s == "1") return true;
    if (s == "false" || s == "0") return false;
  }
  throw ApiError(std::string("config: ") + key + ": expected true or false, got " + v.dump());
}

}  // namespace

GlobalConfig& ThisThreadConfig() {
  thread_local GlobalConfig config;
  return config;
}

void UpdateGlobalConfig(std::string_view json) {
  Json parsed;
  try {
    parsed = Json::parse(json);
  } catch (const Json::parse_error& e) {
    throw ApiError(std::string("config: not valid JSON: ") + e.what());
  }
  if (!parsed.is_object()) throw ApiError("config: expected a JSON object, got " + parsed.dump());
  GlobalConfig next = ThisThreadConfig();
  for (const auto& [key, value] : parsed.items()) {
    if (key == "verbosity") {
      next.verbosity = ReadVerbosity(value);
    } else if (key == "use_rmm") {
      next.use_rmm = ReadBool(value, "use_rmm");
    } else {
      throw ApiError("config: unknown global parameter '" + key + "' (known: verbosity, use_rmm)");
    }
  }
  ThisThreadConfig() = next;
}

std::string GlobalConfigJson() {
  const GlobalConfig& c = ThisThreadConfig();
  Json out = Json::object();
  out["use_rmm"] = c.use_rmm;
  out["verbosity"] = c.verbosity;
  return out.dump();
}

void SetLogCallback(void (*callback)(const char*)) { log_callback.store(callback); }

void Log(int level, std::string_view line) { Log(level, line, GlobalVerbosity()); }

void Log(int level, std::string_view line, int verbosity) {
  if (level > verbosity) return;
  const std::string text(line);
  if (auto* callback = log_callback.load()) {
    callback(text.c_str());
    return;
  }
  // One fprintf per line, so lines from several threads do not interleave mid-line.
  std::fprintf(stderr, "%s\n", text.c_str());
}

}  // namespace treering::capi
