// The fast path for the configuration every prediction request carries: a flat JSON object of a
// few scalars. A full parse (json_reader.h) builds a tree of strings and vectors; scanning it in
// place cuts the fixed cost of a one-row prediction (docs/c-api.md, "Predictions"; the array
// interface has its own fast path inside ParseArrayInterface). Anything unusual (escapes, nesting,
// a bad value) makes the scan give up, and the caller parses the string fully, which also words the
// error: the scan never decides an error.
#pragma once

#include <cstdint>
#include <string_view>

#include "predict_request.h"

namespace treering::capi {

// A valid prediction config as ParsePredictConfig reads it, or false.
bool ScanPredictConfig(std::string_view text, bool inplace, PredictRequest* out);

}  // namespace treering::capi
