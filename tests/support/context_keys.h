// Tests write a learner's keys as one list, as XGBoost's Python API takes them (nthread beside
// max_depth). The learners take the job's Context apart from their own keys (base/context.h), so
// CreateWithKeys hands the Context's keys to Context::Table(), the parser the CLI uses, and the
// rest to the learner's Create.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "base/context.h"
#include "rabit/comm.h"

namespace treering::test {

using KeyList = std::vector<std::pair<std::string, std::string>>;

struct SplitKeys {
  Context ctx;
  KeyList rest;                  // the learner's keys, in order
  Status status = Status::Ok();  // a bad Context value (the first)
};

inline SplitKeys SplitContextKeys(const KeyList& params) {
  SplitKeys out;
  for (const auto& [key, value] : params) {
    if (Context::Table().Find(key) == nullptr) {
      out.rest.emplace_back(key, value);
    } else if (Status st = Context::Table().Set(&out.ctx, key, value);
               !st.ok() && out.status.ok()) {
      out.status = st;
    }
  }
  return out;
}

// L::Create(learner keys, Context from the Context keys, comm); a bad Context value is returned
// as the error, as the CLI would report it.
template <typename L>
auto CreateWithKeys(const KeyList& params, rabit::Comm* comm) -> decltype(L::Create({}, {}, comm)) {
  SplitKeys keys = SplitContextKeys(params);
  if (!keys.status.ok()) return keys.status;
  return L::Create(keys.rest, keys.ctx, comm);
}

}  // namespace treering::test
