// The reduce-scatter lap of the ring, shared by RingReduceScatter (the whole collective) and
// RingAllreduce (its first lap, the allgather lap following in the same outgoing stream).
// Data flows from ring_next to ring_prev (Topology contract: ring_prev == rank-1), so slice j
// starts as rank j-1's raw value, gains one rank's contribution per hop (on the left of the sum)
// and ends fully reduced on rank j.
//
// Rank r's outgoing stream is the circular byte range of buf starting at slice r+1 and ending
// where its own slice r begins: slice r+1 goes out raw, every later slice once the partial sum
// from ring_next has been reduced into it. The incoming stream (slices r+2 .. r, into scratch
// with buf's layout) is reduced into buf as it arrives.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "collective/algorithms.h"

namespace rabit::collective {

struct RingScatterLap {
  std::uint8_t* buf = nullptr;
  std::uint8_t* incoming = nullptr;  // scratch slot 0, with the same layout as buf
  std::size_t bytes = 0;
  std::size_t send_begin = 0;   // circular offset of outgoing stream position 0 (slice r+1)
  std::size_t first_slice = 0;  // len(r+1): sent before anything is reduced
  std::size_t own_slice = 0;    // len(r): reduced last, never sent on this lap
  std::size_t send_total = 0;   // bytes - len(r)
  std::size_t recv_total = 0;   // bytes - len(r+1)
  std::size_t recv_begin = 0;   // circular offset of incoming stream position 0 (slice r+2)
  // Incoming positions where a slice ends: reduction reaches each without waiting for a whole
  // chunk, since the sender's next slice only comes once we forwarded this one (tiny slices
  // would otherwise deadlock the ring).
  std::vector<std::size_t> slice_ends;
  std::size_t reduced = 0;  // incoming bytes reduced into buf

  // offsets has world+1 byte entries: slice j is [offsets[j], offsets[j+1]).
  static RingScatterLap Plan(const transport::Topology& topo, std::uint8_t* buf,
                             const std::vector<std::size_t>& offsets, ScratchArena& scratch);
  // The receive Flow of the lap (from ring_next).
  transport::Flow RecvFlow() const {
    return transport::Flow{incoming, bytes, recv_begin, recv_total, recv_total, 0};
  }
  // Reduces what has arrived of the incoming stream (`arrived` bytes) into buf.
  void ReduceArrived(std::size_t arrived, const ReduceSpec& spec);
  bool Done() const { return reduced == recv_total; }
  // Outgoing bytes of this lap that may have gone: each is an incoming one, position for
  // position, once reduced.
  std::size_t SendLimit() const { return std::min(send_total, first_slice + reduced); }
};

}  // namespace rabit::collective
