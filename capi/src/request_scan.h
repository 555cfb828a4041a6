// The fast path for the strings every serving request carries: the prediction config and a
// dense array interface are flat JSON objects of a few scalars and short arrays of numbers.
// A full parse (json_reader.h) builds a tree of strings and vectors; scanning them in place
// halves the fixed cost of a one-row prediction (docs/c-api/predict.md). Anything unusual
// (escapes, nesting, an unknown element type, a bad value) makes the scan give up, and the
// caller parses the string fully, which also words the error: the scan never decides an error.
#pragma once

#include <cstdint>
#include <string_view>

#include "array_interface.h"
#include "predict_request.h"

namespace treering::capi {

// A valid prediction config as ParsePredictConfig reads it, or false.
bool ScanPredictConfig(std::string_view text, bool inplace, PredictRequest* out);

// A C-contiguous float32 / float64 array interface (strides null or absent, no mask) as
// ParseArrayInterface reads it, or false.
bool ScanDenseInterface(std::string_view text, ArrayInterface* out);

}  // namespace treering::capi
