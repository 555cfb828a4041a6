// rabit: the collective API every learner in treering calls (Rabit's API, kept familiar).
//
// Contract
// * One engine per process, chosen by Init() at run time from the environment and key=value
//   arguments: tracker variables (DMLC_TRACKER_URI / rabit_tracker_uri) -> socket engine;
//   Open MPI's environment (OMPI_COMM_WORLD_SIZE) or rabit_engine=mpi -> MPI engine;
//   neither -> single engine (world of one, every collective is a no-op apart from `prepare`).
// * Collectives are blocking and must be called by every rank in the same order with the same
//   counts (a per-op header on the wire turns a mismatch into a clear error).
// * Thread-compatibility: call the API from one thread at a time (the thread that called Init).
// * Failure: a collective that cannot complete (peer lost, deadline `rabit_timeout` passed,
//   job aborted, mismatched op) throws rabit::Error whose message names the op and the peer.
//   Nothing in this API calls abort() or exit().
// * Before Init() and after Finalize() the API behaves as the single engine.
#pragma once

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
  kInt8, kUInt8, kInt16, kUInt16, kInt32, kUInt32, kInt64, kUInt64, kFloat, kDouble
};
enum class OpKind : std::uint8_t { kSum, kMax, kMin, kBitOR };

namespace op {
struct Sum { static constexpr OpKind kKind = OpKind::kSum; };
struct Max { static constexpr OpKind kKind = OpKind::kMax; };
struct Min { static constexpr OpKind kKind = OpKind::kMin; };
struct BitOR { static constexpr OpKind kKind = OpKind::kBitOR; };
}  // namespace op

// Fills the buffer just before the collective runs. It is called only when the result is not
// already known, so a recovering worker skips the work (Rabit's lazy prepare).
using PrepareFn = std::function<void()>;

// State saved by CheckPoint. Save must write the same bytes on every rank for global state.
class Serializable {
 public:
  virtual ~Serializable() = default;
  virtual void Save(std::string* out) const = 0;
  virtual void Load(const std::string& in) = 0;
};

// --- lifecycle -----------------------------------------------------------------------------
// argv tokens of the form key=value (rabit_*, dmlc_*, DMLC_*, mock=...) configure the engine;
// other tokens are ignored, so a program may pass its whole command line.
void Init(int argc, char* argv[]);
void Init(const std::vector<std::pair<std::string, std::string>>& params);
// Tells the tracker this rank is done and closes every link. Safe to call twice.
void Finalize();

int GetRank();
int GetWorldSize();
bool IsDistributed();
std::string GetProcessorName();
// Prints msg on the tracker's console (prefixed with nothing); without a tracker, on stdout.
void TrackerPrint(const std::string& msg);

// --- collectives ---------------------------------------------------------------------------
namespace detail {
// The one untyped entry point every typed Allreduce goes through.
void AllreduceBytes(void* buf, std::size_t count, DataType type, OpKind op,
                    const PrepareFn& prepare);
template <typename T>
constexpr DataType TypeOf() {
  if constexpr (std::is_same_v<T, float>) return DataType::kFloat;
  else if constexpr (std::is_same_v<T, double>) return DataType::kDouble;
  else if constexpr (std::is_integral_v<T> && std::is_signed_v<T> && sizeof(T) == 1) return DataType::kInt8;
  else if constexpr (std::is_integral_v<T> && !std::is_signed_v<T> && sizeof(T) == 1) return DataType::kUInt8;
  else if constexpr (std::is_integral_v<T> && std::is_signed_v<T> && sizeof(T) == 2) return DataType::kInt16;
  else if constexpr (std::is_integral_v<T> && !std::is_signed_v<T> && sizeof(T) == 2) return DataType::kUInt16;
  else if constexpr (std::is_integral_v<T> && std::is_signed_v<T> && sizeof(T) == 4) return DataType::kInt32;
  else if constexpr (std::is_integral_v<T> && !std::is_signed_v<T> && sizeof(T) == 4) return DataType::kUInt32;
  else if constexpr (std::is_integral_v<T> && std::is_signed_v<T> && sizeof(T) == 8) return DataType::kInt64;
  else if constexpr (std::is_integral_v<T> && !std::is_signed_v<T> && sizeof(T) == 8) return DataType::kUInt64;
  else static_assert(sizeof(T) == 0, "rabit: unsupported element type");
}
}  // namespace detail

std::size_t DataTypeSize(DataType type);

// In place: buf[i] = Op over ranks of buf[i], for i in [0, count). BitOR is for integers only.
template <typename Op, typename T>
void Allreduce(T* buf, std::size_t count, const PrepareFn& prepare = nullptr) {
  static_assert(Op::kKind != OpKind::kBitOR || std::is_integral_v<T>, "BitOR needs integers");
  detail::AllreduceBytes(buf, count, detail::TypeOf<T>(), Op::kKind, prepare);
}

// Copies `bytes` bytes from root's buf into every other rank's buf.
void Broadcast(void* buf, std::size_t bytes, int root);
// Resizes the receivers' string/vector to root's size, then broadcasts the contents.
void Broadcast(std::string* data, int root);
template <typename T>
void Broadcast(std::vector<T>* data, int root) {
  static_assert(std::is_trivially_copyable_v<T>, "Broadcast needs trivially copyable T");
  std::uint64_t n = data->size();
  Broadcast(&n, sizeof(n), root);
  data->resize(n);
  if (n != 0) Broadcast(data->data(), n * sizeof(T), root);
}

// buf holds the slices of all ranks back to back in rank order; slice_bytes[r] is rank r's
// size (the same vector on every rank). On entry this rank's slice is filled; on return all are.
void Allgather(void* buf, const std::vector<std::size_t>& slice_bytes);
// Convenience: every rank contributes `mine` (sizes may differ); returns all ranks' elements
// in rank order. If counts != nullptr it receives each rank's element count.
template <typename T>
std::vector<T> AllgatherV(const std::vector<T>& mine, std::vector<std::size_t>* counts = nullptr) {
  static_assert(std::is_trivially_copyable_v<T>, "AllgatherV needs trivially copyable T");
  const int world = GetWorldSize();
  std::vector<std::uint64_t> sizes(world, 0);
  sizes[GetRank()] = mine.size();
  Allreduce<op::Sum>(sizes.data(), sizes.size());
  std::vector<std::size_t> slice_bytes(world);
  std::size_t offset = 0, total = 0;
  for (int r = 0; r < world; ++r) {
    slice_bytes[r] = sizes[r] * sizeof(T);
    if (r < GetRank()) offset += sizes[r];
    total += sizes[r];
  }
  std::vector<T> all(total);
  std::copy(mine.begin(), mine.end(), all.begin() + offset);
  Allgather(all.data(), slice_bytes);
  if (counts != nullptr) counts->assign(sizes.begin(), sizes.end());
  return all;
}

// --- accounting ----------------------------------------------------------------------------
// Time and payload spent inside the collectives above (Allreduce, Broadcast, Allgather), counted
// at this API boundary for every engine since the process started. `seconds` is wall time
// inside the calls, so it includes waiting for slower ranks; `payload_bytes` is the size of the
// buffers handed in (an Allreduce of n doubles counts 8n, a Broadcast its bytes, an Allgather
// the whole gathered buffer), not what an algorithm puts on the wire. A caller takes the
// difference of two snapshots to time a phase (docs/distributed.md: the timing report).
struct CommStats {
  double seconds = 0;
  std::uint64_t payload_bytes = 0;
  std::uint64_t calls = 0;
};
CommStats GetCommStats();

// --- checkpoints (fault tolerance; see docs/fault-tolerance.md) ------------------------------
// Returns the version of the checkpoint loaded (0 = none: a fresh start, models untouched).
int LoadCheckPoint(Serializable* global, Serializable* local = nullptr);
// Saves global (identical on every rank) and optional per-rank local state; version += 1.
void CheckPoint(const Serializable* global, const Serializable* local = nullptr);
int VersionNumber();

}  // namespace rabit
