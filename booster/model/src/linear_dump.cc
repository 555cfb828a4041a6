// gblinear's dump (XGBoost 1.7's GBLinearModel::DumpModel): one string with the biases, then
// the weights feature-major, numbers as a default std::ostream writes a float (%g, 6 digits).
// A feature map changes nothing there, and the dot format falls back to the text one.
#include <cstdio>
#include <string>

#include "tree_dump.h"

namespace treering::booster::dump {
namespace {

std::string StreamFloat(float v) {
  char buf[32];
  std::snprintf(buf, sizeof(buf), "%g", static_cast<double>(v));
  return buf;
}

}  // namespace

std::string LinearDump(const GBTreeModel& model, bool json) {
  const std::size_t groups = static_cast<std::size_t>(model.NumGroups());
  const std::size_t features = model.num_feature;
  const std::vector<float>& w = model.linear_weights;
  auto weight = [&](std::size_t f, std::size_t g) {
    return f * groups + g < w.size() ? w[f * groups + g] : 0.0f;
  };
  std::string out;
  if (json) {
    out = "  { \"bias\": [\n";
    for (std::size_t g = 0; g < groups; ++g) {
      out += (g != 0 ? ",\n" : "") + std::string("      ") + StreamFloat(weight(features, g));
    }
    out += "\n    ],\n    \"weight\": [\n";
    for (std::size_t f = 0; f < features; ++f) {
      for (std::size_t g = 0; g < groups; ++g) {
        out += (f != 0 || g != 0 ? ",\n" : "") + std::string("      ") + StreamFloat(weight(f, g));
      }
    }
    return out + "\n    ]\n  }";
  }
  out = "bias:\n";
  for (std::size_t g = 0; g < groups; ++g) out += StreamFloat(weight(features, g)) + "\n";
  out += "weight:\n";
  for (std::size_t f = 0; f < features; ++f) {
    for (std::size_t g = 0; g < groups; ++g) out += StreamFloat(weight(f, g)) + "\n";
  }
  return out;
}

}  // namespace treering::booster::dump
