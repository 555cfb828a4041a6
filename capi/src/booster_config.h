// The booster's configuration as XGBoost 1.7's save_config writes it ({"learner": {...},
// "version": [1, 7, 4]}), as far as treering's parameters go, and back. Each parameter the user
// set sits in the section XGBoost keeps it in (generic_param, learner_train_param,
// gradient_booster's train_param, metrics, objective); "treering_params" repeats them in
// SetParam order so that a config saved here loads back exactly (eval_metric order matters).
// A config written by XGBoost loads too: its parameters that treering knows are taken, the
// rest ignored (XGBoost's own LoadConfig ignores unknown keys as well).
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace treering::capi {

using ParamList = std::vector<std::pair<std::string, std::string>>;

// model_json: the booster's model as JSON (its trees may be left out), whose objective block
// and learner_model_param the config repeats (XGBoost's LoadConfig reads them there);
// num_trees: the model's tree count, or -1 to take the one model_json states.
std::string ConfigJson(const ParamList& params, std::string_view model_json,
                       std::int64_t num_trees = -1);
// The parameters of a config (ApiError naming `what` when it is not such JSON). Of a config
// XGBoost wrote, only the keys `known` accepts are taken.
ParamList ParamsFromConfig(std::string_view json, const char* what,
                           const std::function<bool(const std::string&)>& known);

// A pickling snapshot as JSON text, {"Config": ..., "Model": ...} (older XGBoost wrote these;
// 1.7 and treering write UBJSON): Split finds the two members' texts without re-parsing the
// model's numbers (floats stay exact); false when `bytes` is not such an object.
bool SplitSnapshot(std::string_view bytes, std::string_view* config, std::string_view* model);

}  // namespace treering::capi
