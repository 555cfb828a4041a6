// The number spellings XGBoost 1.7 uses in model files and dumps.
#pragma once

#include <string>
#include <vector>

namespace treering::booster {

// JSON number for a float32, XGBoost's to_chars form: shortest digits that read back to the
// same float, one digit before the point, 'E' exponent without '+' or leading zeros:
// 0.5 -> "5E-1", 10 -> "1E1", 0 -> "0E0", -0.0317971408 -> "-3.179714E-2". Always has an
// exponent, so XGBoost's reader types it as a float. Non-finite values give "NaN"/"Infinity".
std::string FloatToXgbJson(float value);

// Parameter values and dump numbers: %.9g (std::setprecision(max_digits10) of a float),
// e.g. 0.1f -> "0.100000001", 1 -> "1", 6290.0215 -> "6290.02148".
std::string FloatToG9(float value);

// A prediction file's text: one FloatToG9 value per line (task=pred of both boosters).
std::string PredictionLines(const std::vector<float>& values);

}  // namespace treering::booster
