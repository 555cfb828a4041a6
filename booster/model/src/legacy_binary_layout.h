// XGBoost's legacy binary model format, as 1.7.4 writes it (Learner::SaveModel(dmlc::Stream*),
// GBTreeModel::Save, RegTree::Save). All numbers little-endian; strings are a uint64 length
// and the bytes (dmlc::Stream::Write(std::string)).
//
//   "binf"
//   LearnerModelParamLegacy, 136 bytes: f32 base_score (the user-facing value), u32
//     num_feature, i32 num_class, i32 contain_extra_attrs (1), i32 contain_eval_metrics (0),
//     u32 major_version, u32 minor_version, u32 num_target, i32 boost_from_average,
//     i32 reserved[25]
//   string objective name, string booster name ("gbtree")
//   GBTreeModelParam, 160 bytes: i32 num_trees, i32 num_parallel_tree, i32 (deprecated)
//     num_feature, i32 pad, i64 num_pbuffer, i32 num_output_group, i32 size_leaf_vector,
//     i32 reserved[32]
//   num_trees times:
//     TreeParam, 148 bytes: i32 num_roots (1), i32 num_nodes, i32 num_deleted, i32 max_depth,
//       u32 num_feature, i32 size_leaf_vector, i32 reserved[31]
//     num_nodes x Node, 20 bytes: i32 parent (-1 for the root; bit 31 set for a left child),
//       i32 left, i32 right (-1 in a leaf), u32 split index (bit 31: missing goes left;
//       0xFFFFFFFF: a deleted node), f32 split condition or leaf value
//     num_nodes x RTreeNodeStat, 16 bytes: f32 loss_chg, f32 sum_hess, f32 base_weight,
//       i32 leaf_child_cnt
//   num_trees x i32 tree_info
//   if contain_extra_attrs: uint64 n, then n (key, value) string pairs sorted by key: the
//     attributes plus "objective" = the objective's JSON config ({"name":...,"<block>":{...}}).
#pragma once

#include <cstddef>
#include <cstdint>

namespace treering::booster::legacy_binary {

constexpr char kMagic[] = "binf";
constexpr std::size_t kLearnerParamBytes = 136;
constexpr std::size_t kLearnerReservedInts = 25;
constexpr std::size_t kGBTreeParamBytes = 160;
constexpr std::size_t kGBTreeReservedInts = 32;
// gblinear's DeprecatedGBLinearModelParam: num_feature, num_output_group, 32 reserved.
constexpr int kLinearParamInts = 34;
constexpr std::size_t kTreeParamBytes = 148;
constexpr std::size_t kTreeReservedInts = 31;
constexpr std::size_t kNodeBytes = 20;
constexpr std::size_t kStatBytes = 16;

constexpr std::uint32_t kLeftChildBit = 1u << 31;    // in Node::parent
constexpr std::uint32_t kDefaultLeftBit = 1u << 31;  // in Node::split index
constexpr std::uint32_t kIndexMask = (1u << 31) - 1;
constexpr std::uint32_t kWrittenMajor = 1, kWrittenMinor = 7;  // the version we write

}  // namespace treering::booster::legacy_binary
