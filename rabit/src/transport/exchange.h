// Exchange: the progress engine of one collective. It moves bytes on every link the algorithm
// uses from a single poll() loop over non-blocking sockets, so sends and receives on all links
// overlap (pipelining) without threads.
//
// Model: on every link the op uses, both sides first send their op header (OpHeader) and check
// the one they receive, so neighbours that called different collectives fail at once with both
// calls named. A header rides with the first data bytes on its link when those are ready before
// the exchange would block (saves a packet and a wake-up); it is never held while blocking.
// Then each direction carries one Flow per phase: `total` data bytes read from / written to a
// buffer at circular offsets.
// The algorithm owns the dependencies: between I/O rounds Run() calls its `advance` step, which
// reduces what arrived and raises each Flow's `limit` (bytes that may move now). Run() returns
// when every flow and header has moved, or fails with a Status naming op, sequence and peer:
//   * no byte moved for `timeout` (a frozen or dead peer),
//   * a peer closed its link or the socket failed,
//   * a peer's header differs from ours (it called another collective),
//   * the abort watch (tracker connection) reported an abort.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <vector>

#include "transport/link_set.h"
#include "transport/link_traffic.h"
#include "transport/op_header.h"

namespace rabit::transport {

// One direction of data on one link within one phase.
struct Flow {
  std::uint8_t* base = nullptr;
  std::size_t ring = 0;   // positions wrap modulo `ring` (0: no wrap-around)
  std::size_t begin = 0;  // offset in base of stream position 0
  std::size_t total = 0;  // bytes this flow moves
  std::size_t limit = 0;  // bytes that may have moved by now (raised by the algorithm)
  std::size_t done = 0;   // bytes moved so far
};

// A link's part in one collective: header state both ways plus the current flows.
struct Channel {
  Link* link = nullptr;
  Flow send;
  Flow recv;
  std::array<std::uint8_t, OpHeader::kBytes> header_out{};
  std::array<std::uint8_t, OpHeader::kBytes> header_in{};
  std::size_t header_sent = 0;
  std::size_t header_received = 0;
  bool flush_header = false;  // send our header even without data (we are about to block)
  // Since when each direction has waited on this peer without a byte moving (timed apart:
  // a frozen peer's kernel still accepts our bytes for a while, but sends nothing).
  Clock::time_point send_quiet_since;
  Clock::time_point recv_quiet_since;
  LinkTraffic* traffic = nullptr;  // this link's counters (null: not counted)
  bool counted_waiting = false;    // holds one of traffic->waiting

  int peer() const { return link->peer; }
  bool HeaderArrived() const { return header_received == OpHeader::kBytes; }
  bool SendPending() const;
  bool RecvPending() const;
  bool CanSend() const;  // something may be sent right now
  bool CanRecv() const;  // something may be received right now
};

// The tracker connection (or any other source of "stop now"), watched while waiting.
class AbortWatch {
 public:
  virtual ~AbortWatch() = default;
  virtual int fd() const = 0;
  // Called when fd() is readable; a non-OK status aborts the running collective.
  virtual treering::Status OnReadable() = 0;
};

struct ExchangeOptions {
  int rank = 0;
  double timeout_seconds = 300;  // longest wait without any byte moving
  AbortWatch* abort_watch = nullptr;
  int spin_microseconds = 50;  // busy-retry this long after the last progress before poll()
  LinkTrafficTable* traffic = nullptr;  // per-peer byte counters (link_traffic.h); null: none
};

class Exchange {
 public:
  Exchange(const OpHeader& header, const ExchangeOptions& options, LinkSet* links);
  ~Exchange();
  Exchange(const Exchange&) = delete;
  Exchange& operator=(const Exchange&) = delete;

  // The channel to `peer` (created on first use: the op header is exchanged on it). Returns
  // nullptr when no link to `peer` exists.
  Channel* To(int peer);
  void SetSend(Channel* ch, const Flow& flow);
  void SetRecv(Channel* ch, const Flow& flow);

  // Drives I/O until every flow completes; `advance` runs before each I/O round.
  treering::Status Run(const std::function<void()>& advance);
  // Prefix for every error of this op: "Allreduce(sum, float, 8 B) op #3 on rank 1".
  std::string OpName() const;

 private:
  bool AnyPending() const;
  // Lets every deferred header go out; false when none was waiting.
  bool FlushHeaders();
  treering::Result<bool> PumpAll();
  treering::Result<bool> PumpSend(Channel* ch);
  treering::Result<bool> PumpRecv(Channel* ch);
  treering::Status CheckHeader(const Channel& ch) const;
  treering::Status WaitForIo();
  treering::Status TimeoutError(Clock::time_point now) const;
  Clock::duration RecvPatience(const Channel& ch) const;
  treering::Status LinkError(const Channel& ch, const std::string& what) const;
  // Counts `bytes` moved on `ch` and stops counting it as waited on once it has nothing left.
  static void CountTraffic(Channel* ch, std::size_t sent, std::size_t received);

  OpHeader header_;
  std::array<std::uint8_t, OpHeader::kBytes> header_bytes_{};
  ExchangeOptions options_;
  LinkSet* links_;
  std::vector<Channel> channels_;
};

}  // namespace rabit::transport
