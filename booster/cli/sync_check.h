// debug_synchronize (XGBoost's name for the same check): after each round every rank compares
// the trees it grew with rank 0's, broadcast as JSON, and the job fails on the first difference;
// at the end every rank reports a digest of its model (docs/distributed.md).
#pragma once

#include <cstdint>
#include <string>

#include "booster/tree_model.h"
#include "base/status.h"

namespace treering::cli {

// Every rank must call it with its own model after the same round. Compares trees
// [first_tree, end) with rank 0's; on a difference every rank returns the same kInternal error
// naming the round, the first differing tree and the ranks that differ.
Status CheckTreesAgree(const booster::GBTreeModel& model, int first_tree, int round);

// FNV-1a, 64 bit: the digest of a model file's bytes, as 16 hex digits.
std::string Fnv1a64Hex(const std::string& bytes);

// Prints "debug_synchronize: model fnv1a64=<hex> bytes=<n>" through the tracker from every rank
// (the tracker prefixes other ranks' lines with "[rank i] ").
void ReportModelDigest(const std::string& model_json);

}  // namespace treering::cli
