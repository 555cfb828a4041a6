// The collective algorithms as functions over an Exchange (links + progress loop). They know
// the topology and the data layout; they do no socket calls themselves.
//
//   TreeAllreduce  latency-bound sizes: reduce up the tree, result down, both streamed in chunks
//   RingAllreduce  bandwidth-bound sizes: ring reduce-scatter, then ring allgather
//   RecursiveDoublingAllreduce  latency: lg p pairwise swaps of the whole vector, any world
//   HalvingDoublingAllreduce  bandwidth in few steps: Rabenseifner's recursive halving
//                  reduce-scatter + recursive doubling allgather, any world (fold for the rest)
//   TreeBroadcast  any root: along the tree away from the root, streamed
//   RingAllgather  per-rank slices of any size (zero included) around the ring
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "collective/reducer.h"
#include "collective/scratch.h"
#include "transport/exchange.h"

namespace rabit::collective {

// The pairwise steps (recursive doubling, halving-doubling) stage incoming bytes in a small
// circular window, reduced while still in cache. A step's send may run up to
// ReduceSpec::send_ahead_bytes beyond what has arrived of its receive: by default 4 MiB, the
// ceiling of Linux's autotuned TCP send buffer (tcp_wmem), so a step of up to 4 MiB goes out at
// once, as Open MPI sends it, and only larger ones are paced (unpaced, a rank could push tens of
// MiB into the kernel before its partner reduces anything). The old 128 KiB made a 512 KiB
// step run in lock-step over ~4 round trips (docs/benchmarks.md, "Measurements behind code
// comments").
constexpr std::size_t kExchangeWindowBytes = 256 * 1024;
constexpr std::size_t kSendAheadBytes = 4 * 1024 * 1024;

struct ReduceSpec {
  std::size_t element_bytes = 1;
  ReduceFn reduce = nullptr;  // op(dst, src): our value on the left
  // op(src, dst), for the pairwise steps where the partner's value is the left operand (its
  // ranks are the lower ones); unused by the tree and the ring.
  ReduceFn reduce_peer_first = nullptr;
  std::size_t chunk_bytes = 64 * 1024;  // reduce granularity: the pipelining unit
  // How far a pairwise step's send may run ahead of its receive (PacedSendLimit).
  std::size_t send_ahead_bytes = kSendAheadBytes;
};

treering::Status TreeAllreduce(transport::Exchange& ex, const transport::Topology& topo,
                               std::uint8_t* buf, std::size_t bytes, const ReduceSpec& spec,
                               ScratchArena& scratch);
treering::Status RingAllreduce(transport::Exchange& ex, const transport::Topology& topo,
                               std::uint8_t* buf, std::size_t bytes, const ReduceSpec& spec,
                               ScratchArena& scratch);
// Any world; every rank needs links to RecursivePartners (recursive_layout.h).
treering::Status RecursiveDoublingAllreduce(transport::Exchange& ex,
                                            const transport::Topology& topo, std::uint8_t* buf,
                                            std::size_t bytes, const ReduceSpec& spec,
                                            ScratchArena& scratch);
treering::Status HalvingDoublingAllreduce(transport::Exchange& ex, const transport::Topology& topo,
                                          std::uint8_t* buf, std::size_t bytes,
                                          const ReduceSpec& spec, ScratchArena& scratch);

// One step of a pairwise schedule: send buf[send_begin, +send_bytes) to `peer` while receiving
// its bytes for buf[recv_begin, +recv_bytes), reduced into place or copied. The two ranges are
// disjoint or (recursive doubling) the same. peer_on_left: the partner's value is the left
// operand, so both partners (and every algorithm) compute op(lower ranks, higher ranks).
struct PairwiseStep {
  int peer = -1;
  std::size_t send_begin = 0;
  std::size_t send_bytes = 0;
  std::size_t recv_begin = 0;
  std::size_t recv_bytes = 0;
  bool reduce = false;
  bool peer_on_left = false;
};
// Runs the steps in order (pairwise_steps.cc); spec needs both reducers.
treering::Status RunPairwiseSteps(transport::Exchange& ex, std::uint8_t* buf,
                                  const std::vector<PairwiseStep>& steps, const ReduceSpec& spec,
                                  ScratchArena& scratch);
// parent_of[r] is rank r's tree parent (-1 for the root): the whole tree, see LearnTree.
treering::Status TreeBroadcast(transport::Exchange& ex, const transport::Topology& topo,
                               const std::vector<int>& parent_of, std::uint8_t* buf,
                               std::size_t bytes, int root);
// The tree neighbour of this rank on the path to `root`.
int NeighbourTowards(const transport::Topology& topo, const std::vector<int>& parent_of, int root);
// offsets has world+1 entries: rank r's slice is [offsets[r], offsets[r+1]) of buf.
treering::Status RingAllgather(transport::Exchange& ex, const transport::Topology& topo,
                               std::uint8_t* buf, const std::vector<std::size_t>& offsets);
// offsets has world+1 byte entries: on return rank r's slice [offsets[r], offsets[r+1]) of buf
// holds the reduction over ranks; the other slices hold partial sums (ring_reduce_scatter.cc).
treering::Status RingReduceScatter(transport::Exchange& ex, const transport::Topology& topo,
                                   std::uint8_t* buf, const std::vector<std::size_t>& offsets,
                                   const ReduceSpec& spec, ScratchArena& scratch);
// Two ranks on one machine (local_pair_reduction.cc): each reads its slice of the other's
// buffer through process_vm_readv instead of the socket. The first call probes whether both
// can (and want: `enabled`, rabit_local_read); `state` keeps the answer, the same on both
// ranks, and the partner's process id, which later calls must announce again. Returns Ok with
// state->mode == kOff when they cannot, without reducing anything: the caller then runs
// RingReduceScatter (or its allreduce).
struct LocalReadState {
  enum class Mode { kUntried, kOn, kOff };
  Mode mode = Mode::kUntried;
  bool enabled = true;
  std::int64_t partner_pid = 0;
};
// Below this many bytes in all, the ring: the reads cost two more round trips (addresses, done;
// three on the first call). The size is the tree learner's in-place node threshold, not a
// measured crossover: smaller reduce-scatters were not timed.
constexpr std::size_t kLocalReadMinBytes = 256 * 1024;
// The allreduce's crossover with the socket algorithms (measured: bench/comm/allreduce_bench.sh
// at np=2, rabit_local_read=true|false; docs/collectives.md).
constexpr std::size_t kLocalAllreduceMinBytes = 128 * 1024;
treering::Status LocalPairReduceScatter(transport::Exchange& ex, const transport::Topology& topo,
                                        std::uint8_t* buf, const std::vector<std::size_t>& offsets,
                                        const ReduceSpec& spec, ScratchArena& scratch,
                                        LocalReadState* state);
// The same pair's allreduce of `bytes`: each rank reduces one half (rank 0 the first), then
// reads the other's reduced half into its own buffer. Every element is reduced by one rank
// and copied to the other, so both hold the same bits.
treering::Status LocalPairAllreduce(transport::Exchange& ex, const transport::Topology& topo,
                                    std::uint8_t* buf, std::size_t bytes, const ReduceSpec& spec,
                                    ScratchArena& scratch, LocalReadState* state);

// An incoming stream of `total` bytes staged in a circular window of scratch (slot 0) and
// reduced into dst (stream position p into dst[p]) as it arrives.
struct WindowedReduction {
  std::uint8_t* dst = nullptr;
  std::uint8_t* window = nullptr;
  std::size_t window_bytes = 0;  // >= two reduce chunks, whole elements, <= total, never 0
  std::size_t total = 0;
  std::size_t reduced = 0;  // stream prefix reduced into dst

  static WindowedReduction Start(std::uint8_t* dst, std::size_t total, const ReduceSpec& spec,
                                 ScratchArena& scratch);
  // The receive Flow of the stream; Advance raises its limit.
  transport::Flow RecvFlow() const { return transport::Flow{window, window_bytes, 0, total, 0, 0}; }
  // Reduces what `recv` has brought (not beyond stream position `allowed`), then lets it take
  // up to a window beyond. True once the whole stream is reduced.
  bool Advance(transport::Flow& recv, const ReduceSpec& spec, std::size_t allowed = SIZE_MAX);
};

// How far a paced stream of `send_total` bytes may have gone: `ahead` bytes beyond what has
// arrived of the matching incoming stream, plus what this side sends beyond what it receives
// (so uneven halves or segments cannot stall).
std::size_t PacedSendLimit(std::size_t send_total, std::size_t recv_done, std::size_t recv_total,
                           std::size_t ahead);

// Bytes of a partially arrived stream that may be reduced now: whole elements, and whole chunks
// unless the stream is complete (small reduce calls would cost more than they pipeline).
std::size_t ReducibleBytes(std::size_t arrived, std::size_t total, const ReduceSpec& spec);

}  // namespace rabit::collective
