// debug_synchronize (XGBoost's name for the same check): after each round every rank checks
// that it holds rank 0's model (Learner::CheckRanksAgree), and at the end every rank reports a
// digest of its model file's bytes (docs/distributed.md).
#pragma once

#include <string>

namespace treering::cli {

// FNV-1a, 64 bit: the digest of a model file's bytes, as 16 hex digits.
std::string Fnv1a64Hex(const std::string& bytes);

// Prints "debug_synchronize: model fnv1a64=<hex> bytes=<n>" through the tracker from every rank
// (the tracker prefixes other ranks' lines with "[rank i] ").
void ReportModelDigest(const std::string& model_bytes);

}  // namespace treering::cli
