// The float XGBoost 1.7 reads from a LibSVM number: dmlc-core's fast strtof, which is not
// correctly rounded (one ulp off on a few percent of values). Used only with the URI option
// float_parsing=xgboost, for bit-identical inputs when comparing results with XGBoost.
#pragma once

namespace treering::data::detail {

// [begin, end) must already be a valid finite number in the loader's syntax (checked by
// ParseFiniteFloat): [+-]digits[.digits][(e|E)[+-]digits].
float XGBoostFloat(const char* begin, const char* end);

}  // namespace treering::data::detail
