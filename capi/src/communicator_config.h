// XGCommunicatorInit's JSON config -> rabit::Init's key=value parameters.
//
// XGBoost 1.7's Python passes the tracker's worker environment as JSON with upper-case names
// and numbers ({"DMLC_TRACKER_URI": "10.0.0.1", "DMLC_TRACKER_PORT": 9091, ...}); XGBoost 2's
// uses lower-case names ({"dmlc_tracker_uri": ..., "dmlc_communicator": "rabit"}). Both reach
// rabit as its environment names (dmlc_x -> DMLC_X), with every value as text. rabit reads the
// DMLC_* environment first and these parameters override it.
//
// XGBoost's rabit keys that treering's engines have no use for (rabit_hadoop_mode, rabit_debug,
// rabit_reduce_buffer, ...) and XGBoost's boolean rabit_timeout are dropped with a note;
// federated learning is refused; any other key not addressed to rabit is an error naming it.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace treering::capi {

struct CommunicatorParams {
  std::vector<std::pair<std::string, std::string>> rabit;  // for rabit::Init
  std::vector<std::string> notes;                          // keys dropped, and why (info log)
};

// `json` may be empty (null config): the environment alone decides. Throws ApiError naming
// the key at fault ("config: federated_server_address: ...").
CommunicatorParams ReadCommunicatorConfig(std::string_view json);

}  // namespace treering::capi
