#include "booster/tree/learner/update_param.h"

#include <sstream>

namespace treering::booster {
namespace {

// XGBoost 1.7's tree updaters and the tree method each grower is (approx and gpu_hist are
// grown as hist here, as tree_method says).
struct UpdaterName {
  const char* name;
  const char* grows;  // tree method, or "" for one that changes existing trees
};
constexpr UpdaterName kUpdaters[] = {
    {"grow_colmaker", "exact"},
    {"grow_histmaker", "approx"},
    {"grow_quantile_histmaker", "hist"},
    {"grow_gpu_hist", "gpu_hist"},
    {"refresh", ""},
    {"prune", ""},
    {"sync", ""},
};

const UpdaterName* Find(const std::string& name) {
  for (const UpdaterName& u : kUpdaters) {
    if (name == u.name) return &u;
  }
  return nullptr;
}

Status ParseUpdaters(const std::string& text, std::vector<std::string>* out) {
  std::vector<std::string> names;
  std::stringstream items(text);
  for (std::string item; std::getline(items, item, ',');) {
    const std::size_t b = item.find_first_not_of(" \t"), e = item.find_last_not_of(" \t");
    const std::string name = b == std::string::npos ? "" : item.substr(b, e - b + 1);
    if (Find(name) == nullptr) {
      return Status::InvalidInput(
          "a comma-separated list of grow_colmaker, grow_histmaker, grow_quantile_histmaker, "
          "grow_gpu_hist, refresh, prune, sync");
    }
    names.push_back(name);
  }
  if (names.empty()) return Status::InvalidInput("a comma-separated list of updaters");
  *out = std::move(names);
  return Status::Ok();
}

}  // namespace

const ParamTable<UpdateParam>& UpdateParam::Table() {
  using P = UpdateParam;
  static const ParamTable<P> kTable({
      ParamField<P>{"process_type", "", "default",
                    "default: grow new trees; update: change the loaded model's trees round by "
                    "round with updater=refresh and/or prune (num_round at most the model's)",
                    [](P* p, const std::string& v) {
                      if (v != "default" && v != "update") {
                        return Status::InvalidInput("one of default, update");
                      }
                      p->update = v == "update";
                      return Status::Ok();
                    }},
      ParamField<P>{"updater", "", "",
                    "XGBoost's updater sequence: with process_type=update refresh (new "
                    "statistics, leaves with refresh_leaf) and prune (gamma, max_depth); "
                    "otherwise one grower, which sets the tree method (grow_colmaker: exact, "
                    "grow_quantile_histmaker: hist), optionally followed by prune",
                    [](P* p, const std::string& v) { return ParseUpdaters(v, &p->updaters); }},
      BoolField("refresh_leaf", &P::refresh_leaf,
                "updater=refresh: 1: leaves take the refreshed weights; 0: only the node "
                "statistics (cover, gain) change"),
  });
  return kTable;
}

Result<std::string> UpdateParam::Validate() const {
  std::string method;
  for (std::size_t i = 0; i < updaters.size(); ++i) {
    const UpdaterName& u = *Find(updaters[i]);
    const bool grows = *u.grows != '\0';
    if (update && grows) {
      return Status::InvalidKey("updater", "parameter updater: " + updaters[i] +
                                               " can not be used to modify existing trees; set "
                                               "process_type=default to build new trees");
    }
    if (!update && i == 0 && !grows) {
      return Status::InvalidKey("updater", "parameter updater: " + updaters[i] +
                                               " can not be used to create new trees; set "
                                               "process_type=update to update existing trees");
    }
    if (!update && i > 0 && updaters[i] != "prune" && updaters[i] != "sync") {
      return Status::InvalidKey("updater", "parameter updater: " + updaters[i] +
                                               " after a grower is not supported in treering "
                                               "(only prune and sync may follow it)");
    }
    if (grows) method = u.grows;
  }
  if (update && !Uses("refresh") && !Uses("prune")) {
    return Status::InvalidKey("updater",
                              "parameter updater: process_type=update needs updater=refresh "
                              "and/or prune (XGBoost's tree method growers cannot update trees)");
  }
  return method;
}

}  // namespace treering::booster
