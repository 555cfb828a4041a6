#include "predict_request.h"

#include <cmath>
#include <cstring>
#include <string>

#include "api_error.h"
#include "json_reader.h"
#include "request_scan.h"

namespace treering::capi {

namespace {

const JsonValue& Required(const JsonValue& object, const char* key) {
  const JsonValue* member = object.Find(key);
  if (member == nullptr) throw ApiError(std::string("config: '") + key + "' is required");
  return *member;
}

int RequiredInt(const JsonValue& object, const char* key, std::int64_t low, std::int64_t high) {
  const JsonValue& member = Required(object, key);
  std::int64_t value = 0;
  ThrowIfError(ReadInt(object, key, "config", &value));
  (void)member;
  if (value < low || value > high) {
    throw ApiError(std::string("config: ") + key + " = " + std::to_string(value) +
                   ", allowed: " + std::to_string(low) + " .. " + std::to_string(high));
  }
  return static_cast<int>(value);
}

bool RequiredBool(const JsonValue& object, const char* key) {
  Required(object, key);
  bool value = false;
  ThrowIfError(ReadBool(object, key, "config", &value));
  return value;
}

}  // namespace

booster::PredictOptions PredictRequest::Options() const {
  booster::PredictOptions options;
  options.iteration_begin = iteration_begin;
  options.iteration_end = iteration_end;
  switch (type) {
    case PredictType::kValue:
      break;
    case PredictType::kMargin:
      options.output_margin = true;
      break;
    case PredictType::kContribs:
    case PredictType::kApproxContribs:
      options.output = booster::PredictOutput::kContribs;
      break;
    case PredictType::kInteractions:
    case PredictType::kApproxInteractions:
      options.output = booster::PredictOutput::kInteractions;
      break;
    case PredictType::kLeaf:
      options.output = booster::PredictOutput::kLeaf;
      break;
  }
  options.approx_contribs =
      type == PredictType::kApproxContribs || type == PredictType::kApproxInteractions;
  return options;
}

PredictRequest ParsePredictConfig(const char* config, bool inplace) {
  NotNull(config, "config");
  PredictRequest scanned;
  if (ScanPredictConfig(config, inplace, &scanned)) return scanned;
  const JsonValue root = ValueOrThrow(ParseJson(config, "config"));
  if (root.kind() != JsonValue::Kind::kObject) throw ApiError("config: not a JSON object");
  PredictRequest request;
  const int type = RequiredInt(root, "type", 0, 6);
  request.type = static_cast<PredictType>(type);
  request.iteration_begin = RequiredInt(root, "iteration_begin", 0, 1 << 30);
  request.iteration_end = RequiredInt(root, "iteration_end", 0, 1 << 30);
  request.strict_shape = RequiredBool(root, "strict_shape");
  if (!inplace) {
    request.training = RequiredBool(root, "training");
    // The deprecated ntree_limit: trees per class (rounds x num_parallel_tree).
    const JsonValue* limit = root.Find("ntree_limit");
    if (limit != nullptr && !limit->IsNull()) {
      const int rounds = RequiredInt(root, "ntree_limit", 0, 1 << 30);
      if (rounds != 0) {
        if (request.iteration_end != 0) {
          throw ApiError("config: only one of ntree_limit and iteration_end may be set");
        }
        request.ntree_limit = rounds;
      }
    }
    return request;
  }
  if (request.type != PredictType::kValue && request.type != PredictType::kMargin) {
    throw ApiError("config: type = " + std::to_string(type) +
                   ": inplace prediction gives values (0) or margins (1) only, as XGBoost");
  }
  const JsonValue* cache_id = root.Find("cache_id");
  if (cache_id != nullptr && !cache_id->IsNull()) {
    std::int64_t id = 0;
    ThrowIfError(ReadInt(root, "cache_id", "config", &id));
    if (id != 0) throw ApiError("config: cache_id = " + std::to_string(id) + ": only 0 exists");
  }
  const JsonValue& missing = Required(root, "missing");
  if (!missing.IsNumber()) throw ApiError("config: missing: not a number");
  request.missing = static_cast<float>(missing.Number());
  request.has_missing = true;
  return request;
}

PredictRequest RequestFromOptionMask(int option_mask, unsigned ntree_limit, bool training) {
  PredictRequest request;
  request.training = training;
  request.ntree_limit = static_cast<int>(ntree_limit);
  if (ntree_limit > (1u << 30)) throw ApiError("ntree_limit: " + std::to_string(ntree_limit));
  // XGBoost's Learner::Predict: one kind at a time; contributions, interactions, leaf, else
  // values (margins with flag 1).
  const bool leaf = (option_mask & 2) != 0;
  const bool contribs = (option_mask & 4) != 0;
  const bool approx = (option_mask & 8) != 0;
  const bool interactions = (option_mask & 16) != 0;
  if (int(leaf) + int(contribs) + int(interactions) > 1) {
    throw ApiError("option_mask = " + std::to_string(option_mask) +
                   ": one of leaf (2), contribs (4) and interactions (16) at a time");
  }
  if (contribs) {
    request.type = approx ? PredictType::kApproxContribs : PredictType::kContribs;
  } else if (interactions) {
    request.type = approx ? PredictType::kApproxInteractions : PredictType::kInteractions;
  } else if (leaf) {
    request.type = PredictType::kLeaf;
  } else if ((option_mask & 1) != 0) {
    request.type = PredictType::kMargin;
  }
  return request;
}

std::vector<std::uint64_t> PredictShape(const PredictRequest& request, const PredictDims& dims) {
  const std::uint64_t rows = dims.rows;
  const std::uint64_t groups = dims.groups;
  const std::uint64_t chunk = rows == 0 ? 0 : dims.values / rows;
  std::vector<std::uint64_t> shape;
  // Features per explanation: the model's (the values tell) unless there are no rows.
  auto contrib_width = [&](bool square) -> std::uint64_t {
    if (rows == 0 || groups == 0) return dims.cols + 1;
    const std::uint64_t per_group = chunk / groups;
    if (!square) return per_group;
    return static_cast<std::uint64_t>(std::llround(std::sqrt(double(per_group))));
  };
  const bool grouped = groups != 1 || request.strict_shape;
  switch (request.type) {
    case PredictType::kValue:
    case PredictType::kMargin:
      if (chunk == 1 && !request.strict_shape) {
        shape = {rows};
      } else {
        shape = {rows, std::min(groups, chunk)};
      }
      break;
    case PredictType::kContribs:
    case PredictType::kApproxContribs:
      if (!grouped) {
        shape = {rows, contrib_width(false)};
      } else {
        shape = {rows, groups, contrib_width(false)};
      }
      break;
    case PredictType::kInteractions:
    case PredictType::kApproxInteractions: {
      const std::uint64_t width = contrib_width(true);
      if (!grouped) {
        shape = {rows, width, width};
      } else {
        shape = {rows, groups, width, width};
      }
      break;
    }
    case PredictType::kLeaf:
      if (request.strict_shape) {
        const std::uint64_t per_forest = dims.rounds * groups;
        const std::uint64_t forest =
            per_forest == 0 ? 1 : std::max<std::uint64_t>(1, chunk / per_forest);
        shape = {rows, dims.rounds, groups, forest};
      } else if (chunk == 1) {
        shape = {rows};
      } else {
        shape = {rows, chunk};
      }
      break;
  }
  std::uint64_t product = 1;
  for (std::uint64_t extent : shape) product *= extent;
  if (product != dims.values) {
    throw ApiError("prediction of " + std::to_string(dims.values) + " values does not fill its " +
                   std::to_string(shape.size()) + "-d shape");
  }
  return shape;
}

}  // namespace treering::capi
