// Comm: a handle on one group of ranks and the collectives over it. Library code (both
// learners, the metrics, the sketches) takes a Comm& instead of calling the process-wide API,
// so the same code runs on the process's engine (rabit::DefaultComm(), what rabit.h's free
// functions use) or on N ranks as threads of one process in a test.
//
// The typed calls are templates over three untyped entry points (AllreduceBytes, Broadcast,
// Allgather), as in rabit.h: a new backend implements three functions, not one per type.
// Contract (every implementation): blocking; called by every rank in the same order with the
// same counts; a collective that cannot complete throws rabit::Error naming the op and peer.
// Point-to-point messages (Send/Recv/Isend/Irecv) and the rooted collectives (Reduce, Gather,
// Scatter and their V forms) are typed the same way over untyped entry points with defaults:
// a Comm without messages throws rabit::Error from Send/Recv, and its rooted collectives fall
// back to Allreduce/Allgather/Broadcast (docs/collectives.md, "Point-to-point messages").
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace rabit {

class Error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

enum class DataType : std::uint8_t {
  kInt8,
  kUInt8,
  kInt16,
  kUInt16,
  kInt32,
  kUInt32,
  kInt64,
  kUInt64,
  kFloat,
  kDouble
};
enum class OpKind : std::uint8_t { kSum, kMax, kMin, kBitOR };

namespace op {
struct Sum {
  static constexpr OpKind kKind = OpKind::kSum;
};
struct Max {
  static constexpr OpKind kKind = OpKind::kMax;
};
struct Min {
  static constexpr OpKind kKind = OpKind::kMin;
};
struct BitOR {
  static constexpr OpKind kKind = OpKind::kBitOR;
};
}  // namespace op

// Fills the buffer just before the collective runs. It is called only when the result is not
// already known, so a recovering worker skips the work (Rabit's lazy prepare).
using PrepareFn = std::function<void()>;

std::size_t DataTypeSize(DataType type);

namespace detail {
template <typename T>
constexpr DataType TypeOf() {
  if constexpr (std::is_same_v<T, float>)
    return DataType::kFloat;
  else if constexpr (std::is_same_v<T, double>)
    return DataType::kDouble;
  else if constexpr (std::is_integral_v<T> && std::is_signed_v<T> && sizeof(T) == 1)
    return DataType::kInt8;
  else if constexpr (std::is_integral_v<T> && !std::is_signed_v<T> && sizeof(T) == 1)
    return DataType::kUInt8;
  else if constexpr (std::is_integral_v<T> && std::is_signed_v<T> && sizeof(T) == 2)
    return DataType::kInt16;
  else if constexpr (std::is_integral_v<T> && !std::is_signed_v<T> && sizeof(T) == 2)
    return DataType::kUInt16;
  else if constexpr (std::is_integral_v<T> && std::is_signed_v<T> && sizeof(T) == 4)
    return DataType::kInt32;
  else if constexpr (std::is_integral_v<T> && !std::is_signed_v<T> && sizeof(T) == 4)
    return DataType::kUInt32;
  else if constexpr (std::is_integral_v<T> && std::is_signed_v<T> && sizeof(T) == 8)
    return DataType::kInt64;
  else if constexpr (std::is_integral_v<T> && !std::is_signed_v<T> && sizeof(T) == 8)
    return DataType::kUInt64;
  else
    static_assert(sizeof(T) == 0, "rabit: unsupported element type");
}
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

// Receive from whichever rank's message matches first (MPI_ANY_SOURCE).
inline constexpr int kAnySource = -1;

class Comm;

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
  Request(Comm* comm, std::uint64_t ticket) : comm_(comm), ticket_(ticket) {}
  Comm* comm_ = nullptr;  // null: complete (or empty)
  std::uint64_t ticket_ = 0;
  int peer_ = -1;
};

class Comm {
 public:
  virtual ~Comm() = default;

  virtual int Rank() const = 0;
  virtual int WorldSize() const = 0;
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
    std::uint64_t n = data->size();
    BroadcastBytes(&n, sizeof(n), root);
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
  virtual void Barrier();

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
  virtual void TrackerPrint(const std::string& msg) = 0;
  // What this handle's collectives have cost so far (zero where nobody counts).
  virtual CommStats Stats() const { return {}; }

  // The untyped entry points every call above goes through.
  virtual void AllreduceBytes(void* buf, std::size_t count, DataType type, OpKind op,
                              const PrepareFn& prepare) = 0;
  virtual void BroadcastBytes(void* buf, std::size_t bytes, int root) = 0;
  virtual void AllgatherBytes(void* buf, const std::vector<std::size_t>& slice_bytes) = 0;

  // Point-to-point entry points; a ticket names one request of this Comm. The defaults throw
  // rabit::Error (this Comm has no messages); Send/Recv default to Isend/Irecv + Wait.
  virtual std::uint64_t IsendBytes(const void* buf, std::size_t count, DataType type, int dest,
                                   int tag);
  virtual std::uint64_t IrecvBytes(void* buf, std::size_t count, DataType type, int source,
                                   int tag);
  // Returns the peer (as Request::Wait); TestRequest returns -1 while pending.
  virtual int WaitRequest(std::uint64_t ticket);
  virtual int TestRequest(std::uint64_t ticket);
  virtual void SendBytes(const void* buf, std::size_t count, DataType type, int dest, int tag);
  virtual int RecvBytes(void* buf, std::size_t count, DataType type, int source, int tag);
  // Rooted collectives; slice_bytes[r] is rank r's part (the same vector on every rank). The
  // defaults run Allreduce / Allgather / Broadcast on copies (correct, not cheap).
  virtual void ReduceBytes(void* buf, std::size_t count, DataType type, OpKind op, int root);
  virtual void GatherBytes(const void* send, void* recv,
                           const std::vector<std::size_t>& slice_bytes, int root);
  virtual void ScatterBytes(const void* send, void* recv,
                            const std::vector<std::size_t>& slice_bytes, int root);
  // counts[r]: rank r's elements. The default runs an Allreduce of the whole buffer (correct,
  // twice the traffic).
  virtual void ReduceScatterBytes(void* buf, const std::vector<std::size_t>& counts, DataType type,
                                  OpKind op);

 private:
  static void CheckTag(int tag);
  template <typename T>
  static std::vector<std::size_t> BytesOf(const std::vector<std::size_t>& counts) {
    std::vector<std::size_t> bytes(counts.size());
    for (std::size_t r = 0; r < counts.size(); ++r) bytes[r] = counts[r] * sizeof(T);
    return bytes;
  }
};

// The handle on the process's engine (chosen by rabit::Init; a world of one before Init and
// after Finalize). It counts every collective for CommStats.
Comm& DefaultComm();

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
