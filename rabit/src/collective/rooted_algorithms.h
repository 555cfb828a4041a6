// The rooted collectives (Reduce, Gather, Scatter and their V forms) as binomial trees over
// point-to-point messages, as MPICH and Open MPI's tuned module run them for small worlds.
// Ranks are renumbered relative to the root (v = (rank - root) mod world); rank v's subtree is
// v and the next lowbit(v) - 1 relative ranks (all of them for the root), so every step halves
// or doubles what is in flight and the root is ceil(log2 world) messages deep.
//
// Messages use negative tags of their own (user tags are >= 0) and, as every collective, must
// be called by all ranks in the same order: per (source, tag) messages are never overtaken, so
// consecutive calls cannot mix.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "collective/reducer.h"
#include "collective/scratch.h"
#include "rabit/point_to_point.h"

namespace rabit::collective {

constexpr int kReduceTag = -1;
constexpr int kGatherTag = -2;
constexpr int kScatterTag = -3;

// On root, buf[i] = op over ranks of buf[i]; elsewhere buf is left as it was. Each rank reduces
// its children's partial results into a copy of its own (the lower relative rank on the left).
treering::Status BinomialReduce(PointToPoint& p2p, std::uint8_t* buf, std::size_t count,
                                DataType type, ReduceFn reduce, int root, ScratchArena& scratch);
// slice_bytes[r] is rank r's part; root's recv receives them in rank order. Each rank forwards
// its whole subtree's parts to its parent in one message.
treering::Status BinomialGather(PointToPoint& p2p, const std::uint8_t* send, std::uint8_t* recv,
                                const std::vector<std::size_t>& slice_bytes, int root,
                                ScratchArena& scratch);
// The reverse of BinomialGather: root's send holds the parts in rank order; each rank receives
// its subtree's parts from its parent and passes the children's on.
treering::Status BinomialScatter(PointToPoint& p2p, const std::uint8_t* send, std::uint8_t* recv,
                                 const std::vector<std::size_t>& slice_bytes, int root,
                                 ScratchArena& scratch);

// Checks a root and a per-rank size vector for a world: kInvalidInput naming the call.
treering::Status CheckRooted(const char* call, int root, int world,
                             const std::vector<std::size_t>* slice_bytes);

}  // namespace rabit::collective
