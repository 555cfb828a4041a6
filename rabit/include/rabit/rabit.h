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
#include <string>
#include <utility>
#include <vector>

#include "rabit/comm.h"  // Comm, Error, CommStats; Engine, PrepareFn, Serializable; DataType

namespace rabit {

// --- lifecycle -----------------------------------------------------------------------------
// argv tokens of the form key=value (rabit_*, dmlc_*, DMLC_*, mock=...) configure the engine;
// other tokens are ignored, so a program may pass its whole command line. An unknown rabit_* key
// (a typo: `rabit_timout=5`) or a bad value throws rabit::Error naming the key; DMLC_* / dmlc_*
// keys rabit does not read are left to the components they are for (rabit/params.h).
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
// Progress for the tracker's status page and hang reports (docs/status.md): what this rank
// does now (a string literal; returns the previous phase), the round it trains, and each
// finished round's metrics and compute / sync seconds. Cheap, never throws.
const char* SetPhase(const char* phase);
void SetRound(int round);
void ReportRound(const RoundReport& round);

// --- collectives: the same calls as on rabit::DefaultComm() ---------------------------------
template <typename Op, typename T>
void Allreduce(T* buf, std::size_t count, const PrepareFn& prepare = nullptr) {
  DefaultComm().Allreduce<Op>(buf, count, prepare);
}
inline void Broadcast(void* buf, std::size_t bytes, int root) {
  DefaultComm().Broadcast(buf, bytes, root);
}
inline void Broadcast(std::string* data, int root) { DefaultComm().Broadcast(data, root); }
template <typename T>
void Broadcast(std::vector<T>* data, int root) {
  DefaultComm().Broadcast(data, root);
}
inline void Allgather(void* buf, const std::vector<std::size_t>& slice_bytes) {
  DefaultComm().Allgather(buf, slice_bytes);
}
template <typename T>
std::vector<T> AllgatherV(const std::vector<T>& mine, std::vector<std::size_t>* counts = nullptr) {
  return DefaultComm().AllgatherV(mine, counts);
}

// Rooted collectives (every rank calls them, in the same order as the others): see comm.h.
template <typename Op, typename T>
void Reduce(T* buf, std::size_t count, int root) {
  DefaultComm().Reduce<Op>(buf, count, root);
}
template <typename T>
void Gather(const T* send, std::size_t count, T* recv, int root) {
  DefaultComm().Gather(send, count, recv, root);
}
template <typename T>
void GatherV(const T* send, const std::vector<std::size_t>& counts, T* recv, int root) {
  DefaultComm().GatherV(send, counts, recv, root);
}
template <typename T>
void Scatter(const T* send, std::size_t count, T* recv, int root) {
  DefaultComm().Scatter(send, count, recv, root);
}
template <typename T>
void ScatterV(const T* send, const std::vector<std::size_t>& counts, T* recv, int root) {
  DefaultComm().ScatterV(send, counts, recv, root);
}
inline void Barrier() { DefaultComm().Barrier(); }
// Each rank gets Op over ranks of its own slice (counts[r] elements for rank r): see comm.h.
template <typename Op, typename T>
void ReduceScatter(T* buf, const std::vector<std::size_t>& counts) {
  DefaultComm().ReduceScatter<Op>(buf, counts);
}

// --- point-to-point (MPI semantics; buffering and engines in docs/collectives.md) -----------
// Send returns once the message is on its way (the receiver need not be in Recv yet); Recv
// returns the source rank (src may be kAnySource). Messages from one rank with one tag arrive
// in order; a Recv of another type or count than the matching Send fails naming both ranks.
// The robust engine (restarts on) refuses them with rabit::Error.
template <typename T>
void Send(const T* buf, std::size_t count, int dest, int tag) {
  DefaultComm().Send(buf, count, dest, tag);
}
template <typename T>
int Recv(T* buf, std::size_t count, int src, int tag) {
  return DefaultComm().Recv(buf, count, src, tag);
}
template <typename T>
Request Isend(const T* buf, std::size_t count, int dest, int tag) {
  return DefaultComm().Isend(buf, count, dest, tag);
}
template <typename T>
Request Irecv(T* buf, std::size_t count, int src, int tag) {
  return DefaultComm().Irecv(buf, count, src, tag);
}

// What the collectives above have cost since the process started (DefaultComm().Stats()).
CommStats GetCommStats();

// --- checkpoints (fault tolerance; see docs/fault-tolerance.md) ------------------------------
// Returns the version of the checkpoint loaded (0 = none: a fresh start, models untouched).
int LoadCheckPoint(Serializable* global, Serializable* local = nullptr);
// Saves global (identical on every rank) and optional per-rank local state; version += 1.
void CheckPoint(const Serializable* global, const Serializable* local = nullptr);
int VersionNumber();

}  // namespace rabit
