// libFuzzer targets for the UBJSON and legacy binary model readers (built only with
// -DTREERING_FUZZ=ON and clang; see docs/model-format.md). TREERING_FUZZ_UBJSON picks the
// reader. A crash, a sanitizer report, an error other than one kInvalidInput line starting with
// the source name, or a loaded model that does not save and load back in every format is a
// finding.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include "booster/model_formats.h"

namespace {

using treering::booster::GBTreeModel;
using treering::booster::ModelFormat;

void Require(bool condition, const char* what) {
  if (!condition) {
    std::fprintf(stderr, "fuzz finding: %s\n", what);
    std::abort();
  }
}

void CheckSavesBack(const GBTreeModel& model) {
  for (const ModelFormat f :
       {ModelFormat::kJson, ModelFormat::kUbjson, ModelFormat::kLegacyBinary}) {
    auto bytes = treering::booster::SerializeModelAs(model, f);
    Require(bytes.ok(), "a loaded model saves");
    auto back = treering::booster::ParseModel(bytes.value(), "again");
    Require(back.ok() && back->trees.size() == model.trees.size(), "a saved model loads back");
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
#ifdef TREERING_FUZZ_UBJSON
  const std::string source = "fuzz.ubj";
  auto model = treering::booster::ModelFromUbjson(bytes, source);
#else
  const std::string source = "fuzz.model";
  auto model = treering::booster::ModelFromLegacyBinary(bytes, source);
#endif
  if (model.ok()) {
    CheckSavesBack(model.value());
    return 0;
  }
  const std::string& m = model.status().message();
  Require(model.status().code() == treering::StatusCode::kInvalidInput, "error code");
  Require(m.rfind(source + ": ", 0) == 0, "the message starts with the source");
  return 0;
}
