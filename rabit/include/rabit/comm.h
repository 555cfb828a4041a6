// Comm: a handle on one group of ranks and the collectives over it. Library code (both
// learners, the metrics, the sketches) takes a Comm& instead of calling the process-wide API,
// so the same code runs on the process's engine (rabit::DefaultComm(), what rabit.h's free
// functions use) or on N ranks as threads of one process in a test.
//
// The typed calls are templates over three untyped entry points (AllreduceBytes, Broadcast,
// Allgather), as in rabit.h: a new backend implements three functions, not one per type.
// Contract (every implementation): blocking; called by every rank in the same order with the
// same counts; a collective that cannot complete throws rabit::Error naming the op and peer.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <stdexcept>
#include <string>
#include <type_traits>
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

  // Prints msg on the tracker's console; without a tracker, on stdout.
  virtual void TrackerPrint(const std::string& msg) = 0;
  // What this handle's collectives have cost so far (zero where nobody counts).
  virtual CommStats Stats() const { return {}; }

  // The untyped entry points every call above goes through.
  virtual void AllreduceBytes(void* buf, std::size_t count, DataType type, OpKind op,
                              const PrepareFn& prepare) = 0;
  virtual void BroadcastBytes(void* buf, std::size_t bytes, int root) = 0;
  virtual void AllgatherBytes(void* buf, const std::vector<std::size_t>& slice_bytes) = 0;
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
