#include "api_error.h"

namespace treering::capi {
namespace {
// One message per thread, as XGBoost's XGBAPIThreadLocalEntry::last_error.
thread_local std::string last_error;
}  // namespace

void SetLastError(std::string message) { last_error = std::move(message); }
const char* LastError() { return last_error.c_str(); }

}  // namespace treering::capi
