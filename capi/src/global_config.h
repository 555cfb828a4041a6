// XGBoost's global configuration ({"verbosity": 0..3, "use_rmm": bool}) and where the C API's
// log lines go. As in XGBoost 1.7 the configuration is per thread (Python's config_context sets
// it and restores it on one thread, and a thread started later sees the defaults), while the
// log callback is one for the whole process: lines from any thread reach the binding.
#pragma once

#include <string>
#include <string_view>

namespace treering::capi {

// XGBoost's levels: 0 silent, 1 warning, 2 info, 3 debug.
// kLogConsole is XGBoost's LOG(CONSOLE): shown whatever the verbosity (0 included), through the
// callback; the others print when verbosity is at least their level.
enum LogLevel : int { kLogConsole = 0, kLogWarning = 1, kLogInfo = 2, kLogDebug = 3 };

struct GlobalConfig {
  int verbosity = 1;
  bool use_rmm = false;  // accepted for compatibility; treering never allocates on a GPU
};

// This thread's configuration. The booster takes verbosity as its default.
GlobalConfig& ThisThreadConfig();
inline int GlobalVerbosity() { return ThisThreadConfig().verbosity; }

// Applies a JSON object of known keys (values as JSON numbers, booleans or strings, as
// XGBoost's reader takes them). Throws ApiError naming the key; nothing changes on error.
void UpdateGlobalConfig(std::string_view json);
// This thread's configuration as JSON: {"use_rmm":false,"verbosity":1}.
std::string GlobalConfigJson();

// The callback for log lines, or null for stderr. Thread-safe.
void SetLogCallback(void (*callback)(const char*));
// Emits `line` (no trailing newline) when `level` <= `verbosity`: to the registered callback,
// else to stderr. `verbosity` defaults to this thread's global verbosity.
void Log(int level, std::string_view line);
void Log(int level, std::string_view line, int verbosity);

}  // namespace treering::capi
