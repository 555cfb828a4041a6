#include "communicator_config.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>

#include <nlohmann/json.hpp>

#include "api_error.h"
#include "rabit/params.h"

namespace treering::capi {
namespace {

using Json = nlohmann::json;

// XGBoost 1.7's documented rabit keys that tune its own engine; treering's engines pick the
// algorithm from a link model instead, so these do nothing and are dropped.
constexpr const char* kXgboostOnlyKeys[] = {
    "rabit_hadoop_mode",
    "rabit_tree_reduce_minsize",
    "rabit_reduce_buffer",
    "rabit_bootstrap_cache",
    "rabit_debug",
    "rabit_enable_tcp_no_delay",
    "rabit_reduce_ring_mincount",  // elements in XGBoost, bytes in treering: not passed on
};

std::string ValueText(const std::string& key, const Json& v) {
  if (v.is_string()) return v.get<std::string>();
  if (v.is_boolean()) return v.get<bool>() ? "1" : "0";
  if (v.is_number_unsigned()) return std::to_string(v.get<unsigned long long>());
  if (v.is_number_integer()) return std::to_string(v.get<long long>());
  if (v.is_number_float()) {
    const double x = v.get<double>();
    Json tmp = x;  // shortest text that round-trips
    return tmp.dump();
  }
  throw ApiError("config: " + key + ": expected a string, number or boolean, got " + v.dump());
}

std::string Upper(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(),
                 [](unsigned char c) { return static_cast<char>(std::toupper(c)); });
  return s;
}

bool StartsWith(const std::string& s, const char* prefix) { return s.rfind(prefix, 0) == 0; }

// xgboost_communicator / dmlc_communicator / $XGBOOST_COMMUNICATOR: rabit (default) or mpi.
void ApplyCommunicatorType(const std::string& key, const std::string& value,
                           CommunicatorParams* out) {
  std::string v = value;
  std::transform(v.begin(), v.end(), v.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  if (v == "rabit" || v.empty()) return;
  if (v == "mpi") {
    out->rabit.emplace_back("rabit_engine", "mpi");
    return;
  }
  if (v == "federated") {
    throw ApiError("config: " + key +
                   ": federated learning is not supported by treering (use rabit)");
  }
  throw ApiError("config: " + key + ": unknown communicator '" + value +
                 "' (expected rabit or mpi)");
}

}  // namespace

CommunicatorParams ReadCommunicatorConfig(std::string_view json) {
  CommunicatorParams out;
  if (const char* env = std::getenv("XGBOOST_COMMUNICATOR")) {
    ApplyCommunicatorType("environment variable XGBOOST_COMMUNICATOR", env, &out);
  }
  if (json.empty()) return out;
  Json parsed;
  try {
    parsed = Json::parse(json);
  } catch (const Json::parse_error& e) {
    throw ApiError(std::string("config: not valid JSON: ") + e.what());
  }
  if (parsed.is_null()) return out;
  if (!parsed.is_object()) throw ApiError("config: expected a JSON object, got " + parsed.dump());
  for (const auto& [key, value] : parsed.items()) {
    if (value.is_null()) continue;  // Python's None: not given
    const std::string text = ValueText(key, value);
    if (key == "xgboost_communicator" || key == "dmlc_communicator") {
      ApplyCommunicatorType(key, text, &out);
      continue;
    }
    if (StartsWith(key, "federated_") || StartsWith(key, "FEDERATED_")) {
      throw ApiError("config: " + key + ": federated learning is not supported by treering");
    }
    if (std::find_if(std::begin(kXgboostOnlyKeys), std::end(kXgboostOnlyKeys),
                     [&](auto* k) { return key == k; }) != std::end(kXgboostOnlyKeys)) {
      out.notes.push_back(key + " ignored (an XGBoost engine setting treering has no use for)");
      continue;
    }
    // XGBoost 1.7's rabit_timeout_sec and XGBoost 2's dmlc_timeout are seconds a collective
    // may wait: treering's rabit_timeout.
    const bool timeout_seconds =
        key == "rabit_timeout_sec" || key == "dmlc_timeout" || key == "DMLC_TIMEOUT";
    // XGBoost's rabit_timeout is a switch; treering always has a timeout (rabit_timeout_sec or
    // its default). A value other than a boolean is treering's seconds.
    if (key == "rabit_timeout" &&
        (value.is_boolean() || text == "0" || text == "1" || text == "true" || text == "false")) {
      out.notes.push_back("rabit_timeout=" + text +
                          " ignored (treering always times out; set rabit_timeout_sec)");
      continue;
    }
    std::string rabit_key = timeout_seconds ? "rabit_timeout" : key;
    if (StartsWith(rabit_key, "dmlc_")) rabit_key = Upper(key);  // rabit's environment names
    if (!StartsWith(rabit_key, "DMLC_") && !StartsWith(rabit_key, "rabit_") &&
        !StartsWith(rabit_key, "TREERING_") && rabit_key != "mock") {
      throw ApiError("config: unknown key '" + key +
                     "' (expected DMLC_* / dmlc_* / rabit_* keys, xgboost_communicator)");
    }
    // A bad value or a misspelt rabit_* key fails here, naming the key, before any connection.
    const Status checked = rabit::CheckParam(rabit_key, text);
    if (!checked.ok()) {
      throw ApiError("config: " + (rabit_key == key ? "" : key + " (as " + rabit_key + "): ") +
                     checked.message());
    }
    out.rabit.emplace_back(rabit_key, text);
  }
  return out;
}

}  // namespace treering::capi
