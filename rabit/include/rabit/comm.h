// Comm: the typed handle library code takes (both learners, the metrics, the sketches): the
// calls of rabit.h as templates over one engine (rabit/engine.h), so the same code runs on the
// process's engine (rabit::DefaultComm(), what rabit.h's free functions use), on a world of one
// (rabit::MakeWorldOfOne()) or on N ranks as threads of one process in a test.
//
// Comm is thin on purpose: each call is one virtual call into the engine, a CommStats count and
// a throw of rabit::Error when the engine returns a failed Status. Contract (the engine's):
// blocking; called by every rank in the same order with the same counts; a collective that
// cannot complete throws rabit::Error naming the op and peer. An engine without messages
// (Engine::Messages) makes Send/Recv throw saying why; its rooted collectives (Reduce, Gather,
// Scatter and their V forms) run on Allreduce/Allgather/Broadcast (docs/collectives.md).
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "rabit/data_type.h"
#include "rabit/engine.h"
#include "rabit/point_to_point.h"

namespace rabit {

class Error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// rabit_elastic (docs/fault-tolerance.md, "Elastic jobs"): a lost worker did not come back and
// the tracker renumbered the survivors into a smaller world. Thrown by the collective that was
// running; GetRank/GetWorldSize already give the new values and the next LoadCheckPoint returns
// the last committed checkpoint, so the program redoes its setup for the new rank and world.
class WorldChanged : public Error {
 public:
  using Error::Error;
};
namespace detail {
// Throws for a failed engine status of `op`: rabit::WorldChanged when its code is
// StatusCode::kWorldChanged (whatever the message says), rabit::Error otherwise.
[[noreturn]] void ThrowFor(const treering::Status& status, const char* op);
}  // namespace detail

// Time and payload spent inside a handle's collectives since it was made. `seconds` is wall
// time inside the calls, so it includes waiting for slower ranks; `payload_bytes` is the size
// of the buffers handed in (an Allreduce of n doubles counts 8n, a Broadcast its bytes, an
// Allgather the whole gathered buffer), not what an algorithm puts on the wire. A caller takes
// the difference of two snapshots to time a phase (docs/distributed.md: the timing report).
struct CommStats {
  double seconds = 0;
  std::uint64_t payload_bytes = 0;
  std::uint64_t calls = 0;
  // The part of payload_bytes counted by ReduceScatter (this rank's slices): on the wire a
  // slice costs (N-1) times its size, an allreduced byte 2(N-1)/N (the timing report's model).
  std::uint64_t scattered_bytes = 0;
};

class Comm;
namespace detail {
struct ProcessEngine;
}  // namespace detail

// A non-blocking Isend or Irecv in flight (MPI_Request). Its buffer must stay untouched (send)
// or unread (receive) until Wait returns or Test returns true. Move-only; destroying one that
// is not complete waits for it (errors are then lost: Wait explicitly).
class Request {
 public:
  Request() = default;
  Request(Request&& other) noexcept { *this = std::move(other); }
  Request& operator=(Request&& other) noexcept;
  Request(const Request&) = delete;
  Request& operator=(const Request&) = delete;
  ~Request();

  // Blocks until the message has moved; returns the peer: the source rank of a receive (useful
  // with kAnySource), the destination of a send. Throws rabit::Error naming both ranks.
  int Wait();
  // True once complete (Wait then returns at once). Moves bytes that are ready; never blocks.
  bool Test();

 private:
  friend class Comm;
  Request(Comm* comm, Ticket ticket) : comm_(comm), ticket_(ticket) {}
  Comm* comm_ = nullptr;  // null: complete (or empty)
  Ticket ticket_ = 0;
  int peer_ = -1;
};

class Comm {
 public:
  // A handle on `engine`, which must outlive it.
  explicit Comm(Engine& engine) : engine_(&engine) {}
  // A handle that owns its engine.
  explicit Comm(std::unique_ptr<Engine> engine)
      : engine_(engine.get()), owned_(std::move(engine)) {}
  Comm(const Comm&) = delete;
  Comm& operator=(const Comm&) = delete;

  int Rank() const { return engine_->Rank(); }
  int WorldSize() const { return engine_->WorldSize(); }
  bool IsDistributed() const { return WorldSize() > 1; }

  // In place: buf[i] = Op over ranks of buf[i], for i in [0, count). BitOR is for integers.
  template <typename Op, typename T>
  void Allreduce(T* buf, std::size_t count, const PrepareFn& prepare = nullptr) {
    static_assert(Op::kKind != OpKind::kBitOR || std::is_integral_v<T>, "BitOR needs integers");
    AllreduceBytes(buf, count, detail::TypeOf<T>(), Op::kKind, prepare);
  }

  // Copies `bytes` bytes from root's buf into every other rank's buf.
  void Broadcast(void* buf, std::size_t bytes, int root) { BroadcastBytes(buf, bytes, root); }
  // Resizes the receivers' string/vector to root's size, then broadcasts the contents.
  void Broadcast(std::string* data, int root);
  template <typename T>
  void Broadcast(std::vector<T>* data, int root) {
    static_assert(std::is_trivially_copyable_v<T>, "Broadcast needs trivially copyable T");
    const std::uint64_t n = BroadcastSize(data->size(), root);
    data->resize(n);
    if (n != 0) BroadcastBytes(data->data(), n * sizeof(T), root);
  }

  // buf holds the slices of all ranks back to back in rank order; slice_bytes[r] is rank r's
  // size (the same vector on every rank). On entry this rank's slice is filled; on return all.
  void Allgather(void* buf, const std::vector<std::size_t>& slice_bytes) {
    AllgatherBytes(buf, slice_bytes);
  }
  // Every rank contributes `mine` (sizes may differ); returns all ranks' elements in rank
  // order. If counts != nullptr it receives each rank's element count.
  template <typename T>
  std::vector<T> AllgatherV(const std::vector<T>& mine, std::vector<std::size_t>* counts = nullptr);

  // In place: buf holds every rank's slice back to back in rank order (counts[r] elements for
  // rank r, the same vector on every rank, zeros allowed). On return this rank's slice holds
  // Op over ranks of that slice; the other slices hold unspecified values. Moves half of what
  // an Allreduce of the whole buffer moves (MPI_Reduce_scatter).
  template <typename Op, typename T>
  void ReduceScatter(T* buf, const std::vector<std::size_t>& counts) {
    static_assert(Op::kKind != OpKind::kBitOR || std::is_integral_v<T>, "BitOR needs integers");
    ReduceScatterBytes(buf, counts, detail::TypeOf<T>(), Op::kKind);
  }

  // --- point-to-point (MPI semantics; buffering rule in docs/collectives.md) ---------------
  // Messages from one rank with one tag arrive in the order they were sent (non-overtaking).
  // A receive matches a message of the same element type and count only: anything else is an
  // error naming both ranks. Tags are >= 0 (negative tags are the rooted collectives' own).
  // Send returns once the message is on its way: the receiver need not have called Recv.
  template <typename T>
  void Send(const T* buf, std::size_t count, int dest, int tag) {
    CheckTag(tag);
    SendBytes(buf, count, detail::TypeOf<T>(), dest, tag);
  }
  // Blocks until a message from `source` (or kAnySource) with `tag` has arrived in buf;
  // returns its source rank.
  template <typename T>
  int Recv(T* buf, std::size_t count, int source, int tag) {
    CheckTag(tag);
    return RecvBytes(buf, count, detail::TypeOf<T>(), source, tag);
  }
  template <typename T>
  Request Isend(const T* buf, std::size_t count, int dest, int tag) {
    CheckTag(tag);
    return Request(this, IsendBytes(buf, count, detail::TypeOf<T>(), dest, tag));
  }
  template <typename T>
  Request Irecv(T* buf, std::size_t count, int source, int tag) {
    CheckTag(tag);
    return Request(this, IrecvBytes(buf, count, detail::TypeOf<T>(), source, tag));
  }
  // Returns once every rank has called it.
  void Barrier();

  // --- rooted collectives (every rank calls them in the same order, like the others) -------
  // On root: buf[i] = Op over ranks of buf[i]. Other ranks' buf is left as it was.
  template <typename Op, typename T>
  void Reduce(T* buf, std::size_t count, int root) {
    static_assert(Op::kKind != OpKind::kBitOR || std::is_integral_v<T>, "BitOR needs integers");
    ReduceBytes(buf, count, detail::TypeOf<T>(), Op::kKind, root);
  }
  // root's recv gets every rank's `count` elements of send, in rank order (world * count);
  // recv is only used on root (may be null elsewhere).
  template <typename T>
  void Gather(const T* send, std::size_t count, T* recv, int root) {
    GatherBytes(send, recv, std::vector<std::size_t>(WorldSize(), count * sizeof(T)), root);
  }
  // Rank r sends counts[r] elements (the same counts on every rank); root's recv gets them in
  // rank order.
  template <typename T>
  void GatherV(const T* send, const std::vector<std::size_t>& counts, T* recv, int root) {
    GatherBytes(send, recv, BytesOf<T>(counts), root);
  }
  // Rank r's recv gets elements [r * count, (r + 1) * count) of root's send.
  template <typename T>
  void Scatter(const T* send, std::size_t count, T* recv, int root) {
    ScatterBytes(send, recv, std::vector<std::size_t>(WorldSize(), count * sizeof(T)), root);
  }
  // Rank r's recv gets counts[r] elements of root's send, slices in rank order.
  template <typename T>
  void ScatterV(const T* send, const std::vector<std::size_t>& counts, T* recv, int root) {
    ScatterBytes(send, recv, BytesOf<T>(counts), root);
  }

  // Prints msg on the tracker's console; without a tracker, on stdout.
  void TrackerPrint(const std::string& msg);
  // Progress for the tracker's status page (Engine::SetPhase; docs/status.md); never throws.
  const char* SetPhase(const char* phase) { return engine_->SetPhase(phase); }
  void SetRound(int round) { engine_->SetRound(round); }
  void ReportRound(const RoundReport& round) { engine_->ReportRound(round); }
  // What this handle's collectives have cost so far (messages and prints are not counted).
  CommStats Stats() const { return stats_; }

  // The untyped entry points every call above goes through: one engine call each, counted.
  void AllreduceBytes(void* buf, std::size_t count, DataType type, OpKind op,
                      const PrepareFn& prepare);
  void BroadcastBytes(void* buf, std::size_t bytes, int root);
  void AllgatherBytes(void* buf, const std::vector<std::size_t>& slice_bytes);
  // counts[r]: rank r's elements.
  void ReduceScatterBytes(void* buf, const std::vector<std::size_t>& counts, DataType type,
                          OpKind op);
  // Rooted collectives; slice_bytes[r] is rank r's part (the same vector on every rank).
  void ReduceBytes(void* buf, std::size_t count, DataType type, OpKind op, int root);
  void GatherBytes(const void* send, void* recv, const std::vector<std::size_t>& slice_bytes,
                   int root);
  void ScatterBytes(const void* send, void* recv, const std::vector<std::size_t>& slice_bytes,
                    int root);
  // Point-to-point; a ticket names one request of this Comm's engine.
  Ticket IsendBytes(const void* buf, std::size_t count, DataType type, int dest, int tag);
  Ticket IrecvBytes(void* buf, std::size_t count, DataType type, int source, int tag);
  void SendBytes(const void* buf, std::size_t count, DataType type, int dest, int tag);
  int RecvBytes(void* buf, std::size_t count, DataType type, int source, int tag);
  // Returns the peer (as Request::Wait); TestRequest returns -1 while pending.
  int WaitRequest(Ticket ticket);
  int TestRequest(Ticket ticket);

 private:
  // Root's `n` on every rank, sent as 8 little-endian bytes (the length prefix of the string
  // and vector broadcasts: a rank-to-rank format, docs/protocol.md).
  std::uint64_t BroadcastSize(std::uint64_t n, int root);
  friend struct detail::ProcessEngine;  // rabit.cc: Init/Finalize swap DefaultComm's engine

  static void CheckTag(int tag);
  template <typename T>
  static std::vector<std::size_t> BytesOf(const std::vector<std::size_t>& counts) {
    std::vector<std::size_t> bytes(counts.size());
    for (std::size_t r = 0; r < counts.size(); ++r) bytes[r] = counts[r] * sizeof(T);
    return bytes;
  }
  PointToPoint& Messages(const char* call);

  Engine* engine_;
  std::unique_ptr<Engine> owned_;  // null when the engine belongs to someone else
  CommStats stats_;
};

// Names what the collectives in a scope are for ("histogram sync"), for hang reports; the
// previous phase comes back at the end of the scope.
class PhaseScope {
 public:
  PhaseScope(Comm& comm, const char* phase) : comm_(comm), previous_(comm.SetPhase(phase)) {}
  ~PhaseScope() { comm_.SetPhase(previous_); }
  PhaseScope(const PhaseScope&) = delete;
  PhaseScope& operator=(const PhaseScope&) = delete;

 private:
  Comm& comm_;
  const char* previous_;
};

// The handle on the process's engine (chosen by rabit::Init; a world of one before Init and
// after Finalize). Its CommStats run across Init and Finalize.
Comm& DefaultComm();

// A fresh world of one (rank 0 of 1; collectives only call `prepare`, messages go to self):
// for code that runs a distributed algorithm on one rank's data alone.
std::unique_ptr<Comm> MakeWorldOfOne();

template <typename T>
std::vector<T> Comm::AllgatherV(const std::vector<T>& mine, std::vector<std::size_t>* counts) {
  static_assert(std::is_trivially_copyable_v<T>, "AllgatherV needs trivially copyable T");
  const int world = WorldSize();
  const int rank = Rank();
  std::vector<std::uint64_t> sizes(world, 0);
  sizes[rank] = mine.size();
  Allreduce<op::Sum>(sizes.data(), sizes.size());
  std::vector<std::size_t> slice_bytes(world);
  std::size_t offset = 0, total = 0;
  for (int r = 0; r < world; ++r) {
    slice_bytes[r] = sizes[r] * sizeof(T);
    if (r < rank) offset += sizes[r];
    total += sizes[r];
  }
  std::vector<T> all(total);
  std::copy(mine.begin(), mine.end(), all.begin() + offset);
  AllgatherBytes(all.data(), slice_bytes);
  if (counts != nullptr) counts->assign(sizes.begin(), sizes.end());
  return all;
}

}  // namespace rabit
