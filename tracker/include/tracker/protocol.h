// The tracker <-> worker wire protocol (native, version 4). This header is the contract between
// tracker/ (server) and rabit/ (client); docs/protocol.md describes the same bytes.
//
// Framing: every message is   u32 magic | u16 version | u16 kind | u64 payload_bytes | payload
// All integers are fixed-width little-endian; a string is u32 length + bytes (no terminator),
// at most kMaxString bytes; a list is u32 count + items. Payloads are at most kMaxPayload.
//
// Session (one persistent TCP connection per worker, so the tracker notices a dead worker):
//   worker  -> Hello            (nonce, task id, command, advertised host:port, attempt)
//   tracker -> Challenge; worker -> Proof; tracker -> Proof | Reject   (auth.h: the token
//                                itself never crosses the wire)
//   tracker -> Assign | Reject  (after every worker of the batch said Hello)
//   worker  -> Print*           (any time)
//   worker  -> Report*          (any time: progress for the status page and hang reports;
//                                the tracker only displays it, docs/status.md)
//   worker  -> Error            (fatal: the tracker aborts the job; names the ranks it blames)
//   worker  -> Hello(recover)   (after a link failure: relink; the tracker answers with a new
//                                Assign of the next epoch once every rank asked, see below)
//   tracker -> Abort            (any time: the worker must stop its collectives and exit)
//   worker  -> Shutdown         (done; the tracker exits when every rank has said it)
// Peer links: the worker with the higher rank dials the lower one (Assign::connect_to); the
// acceptor sends Challenge, the dialler PeerHello (rank, epoch, nonce, proof), the acceptor its
// Proof. A wrong proof, rank or epoch closes that link; the acceptor keeps waiting for its real
// peers (rabit/src/bootstrap/peer_handshake.h).
// Recovery epochs (fault tolerance): when restarts are allowed a dead worker does not fail the
// job; every rank sends Hello{command=recover} (survivors on their open connection, a restarted
// worker on a new one with rank -1 and its task id) and, once all N did, each gets an Assign
// with epoch+1 and the links are rebuilt exactly as at bootstrap.
// A first u32 equal to kLegacyMagic (0xff99) selects the legacy dmlc/rabit protocol instead
// (native-endian int32 fields, see docs/protocol.md), for XGBoost 1.7's own workers.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "base/status.h"
#include "tracker/auth.h"

namespace treering::proto {

inline constexpr std::uint32_t kMagic = 0x314B5254;  // the bytes "TRK1" on the wire
// 2: challenge-response instead of the token; 3: Error carries the ranks it is about;
// 4: Report (a rank's progress).
inline constexpr std::uint16_t kVersion = 4;
inline constexpr std::uint32_t kLegacyMagic = 0xff99;
inline constexpr std::size_t kHeaderBytes = 16;
inline constexpr std::uint64_t kMaxPayload = 1u << 20;
inline constexpr std::uint32_t kMaxString = 64u * 1024u;

enum class Kind : std::uint16_t {
  kHello = 1,
  kAssign = 2,
  kPrint = 3,
  kError = 4,
  kShutdown = 5,
  kAbort = 6,
  kReject = 7,
  kPeerHello = 8,
  kChallenge = 9,
  kProof = 10,
  kReport = 11,
  // tracker -> ranked worker of an elastic job: a worker asks to join; relink at the next
  // round boundary (docs/fault-tolerance.md, "Elastic jobs"). Empty payload.
  kResizePending = 12,
};

enum class Command : std::uint8_t { kStart = 0, kRecover = 1 };

struct FrameHeader {
  std::uint32_t magic = kMagic;
  std::uint16_t version = kVersion;
  Kind kind = Kind::kHello;
  std::uint64_t payload_bytes = 0;
};

struct Hello {
  Nonce nonce{};        // the worker's fresh nonce: the tracker's Proof answers it
  std::string task_id;  // DMLC_TASK_ID; "" when none (then ranks follow arrival order)
  Command command = Command::kStart;
  std::int32_t rank = -1;  // a known rank (recover), else -1
  std::int32_t world_size = -1;
  std::uint32_t attempt = 0;  // DMLC_NUM_ATTEMPT: how many times this task was restarted
  std::string host;           // address peers should dial: the worker's own choice (NAT-safe)
  std::uint16_t port = 0;     // the worker's listening port for peer links
};

struct PeerAddress {
  std::int32_t rank = -1;
  std::string host;
  std::uint16_t port = 0;
};

struct Assign {
  std::int32_t rank = -1;
  std::int32_t world_size = 0;
  std::int32_t parent = -1;                   // -1 for the tree root (rank 0)
  std::vector<std::int32_t> tree_neighbours;  // parent first (if any), then children
  std::int32_t ring_prev = -1;                // -1 when world_size == 1
  std::int32_t ring_next = -1;
  std::vector<PeerAddress> connect_to;  // neighbours with a lower rank: dial these
  std::uint32_t num_accept = 0;         // neighbours with a higher rank dial us
  std::uint32_t epoch = 0;              // 0 at bootstrap, e after the e-th recovery
};

struct Print {
  std::string message;
};
struct ErrorReport {
  std::string message;
  // The other ranks the error is about ("rank 2 never started this op"), so the tracker can
  // name their hosts without reading the text; empty when it blames none.
  std::vector<std::int32_t> ranks;
};
struct Shutdown {};
struct ResizePending {};
struct Abort {
  std::string reason;
};
struct Reject {
  std::string reason;
};
// The dialler's answer to the acceptor's Challenge.
struct PeerHello {
  std::int32_t rank = -1;
  std::uint32_t epoch = 0;  // the Assign's epoch: a dial left over from an older one is refused
  Nonce nonce{};            // the dialler's nonce: the acceptor's Proof answers it
  Mac proof{};              // PeerProof(kDialler, ...)
};
// A fresh nonce the other side must prove the token over (tracker -> worker, acceptor ->
// dialler).
struct Challenge {
  Nonce nonce{};
};
struct Proof {
  Mac mac{};
};
// A rank's progress (worker -> tracker): sent at the end of each round and by a heartbeat
// thread. The tracker only shows it (status page, hang reports): nothing in it changes the job.
enum class OpKind : std::uint8_t {
  kNone = 0,
  kAllreduce = 1,
  kBroadcast = 2,
  kAllgather = 3,
  kReduceScatter = 4
};
struct RoundMetric {
  std::string name;  // "eval-rmse", as the metric line prints it
  double value = 0;
};
// One of the rank's links to a peer, as its collectives used it (the hang watch's "its link to
// rank 3 has carried no bytes for 40 s").
struct LinkReport {
  std::int32_t peer = -1;
  std::uint64_t sent = 0;      // collective bytes sent to `peer` so far
  std::uint64_t received = 0;  // ... and received from it
  double idle_s = 0;           // seconds since the link last carried a byte either way
  bool waiting = false;        // the collective running now still waits on this link
};
struct Report {
  std::uint32_t pid = 0;
  std::int32_t round = -1;         // the round being trained, -1 before the first
  std::string phase;               // what the rank does now ("loading data", "histogram sync")
  OpKind op = OpKind::kNone;       // the kind of collective `entered` is
  std::uint64_t entered = 0;       // sequence number of the last collective entered
  std::uint64_t finished = 0;      // ... and of the last one finished
  std::uint64_t bytes = 0;         // payload bytes handed to collectives so far
  std::int32_t done_round = -1;    // the finished round the fields below describe, -1: none
  std::int32_t total_rounds = -1;  // rounds the job runs in all (for the ETA), -1: unknown
  double comp_s = 0;               // that round's time outside collectives
  double sync_s = 0;               // ... and inside them
  std::vector<RoundMetric> metrics;
  // The optional trailer (still version 4: a Report that ends after the metrics decodes with
  // these defaults, so a worker of an earlier 4 reaches a newer tracker unchanged).
  double hang_report_s = -1;  // the worker's rabit_hang_report, -1: not set
  std::vector<LinkReport> links;
};

// Encoders return one whole frame (header + payload).
std::vector<std::uint8_t> Encode(const Hello& m);
std::vector<std::uint8_t> Encode(const Assign& m);
std::vector<std::uint8_t> Encode(const Print& m);
std::vector<std::uint8_t> Encode(const ErrorReport& m);
std::vector<std::uint8_t> Encode(const Shutdown& m);
std::vector<std::uint8_t> Encode(const ResizePending& m);
std::vector<std::uint8_t> Encode(const Abort& m);
std::vector<std::uint8_t> Encode(const Reject& m);
std::vector<std::uint8_t> Encode(const PeerHello& m);
std::vector<std::uint8_t> Encode(const Challenge& m);
std::vector<std::uint8_t> Encode(const Proof& m);
std::vector<std::uint8_t> Encode(const Report& m);

// Decoders do no I/O: they read exactly kHeaderBytes / payload_bytes given by the caller and
// return kProtocol errors (wrong magic, unsupported version, unknown kind, oversized payload,
// truncated or trailing bytes, overlong strings) instead of throwing or asserting.
Result<FrameHeader> DecodeHeader(std::span<const std::uint8_t> bytes);
Result<Hello> DecodeHello(std::span<const std::uint8_t> payload);
Result<Assign> DecodeAssign(std::span<const std::uint8_t> payload);
Result<Print> DecodePrint(std::span<const std::uint8_t> payload);
Result<ErrorReport> DecodeErrorReport(std::span<const std::uint8_t> payload);
Result<Abort> DecodeAbort(std::span<const std::uint8_t> payload);
Result<Reject> DecodeReject(std::span<const std::uint8_t> payload);
Result<PeerHello> DecodePeerHello(std::span<const std::uint8_t> payload);
Result<Challenge> DecodeChallenge(std::span<const std::uint8_t> payload);
Result<Proof> DecodeProof(std::span<const std::uint8_t> payload);
Result<Report> DecodeReport(std::span<const std::uint8_t> payload);
// Shutdown has an empty payload; any byte in it is a protocol error.
Result<Shutdown> DecodeShutdown(std::span<const std::uint8_t> payload);
Result<ResizePending> DecodeResizePending(std::span<const std::uint8_t> payload);

// "Hello", "Assign", ...: for log lines and error messages.
std::string KindName(Kind kind);
// "Allreduce", "Broadcast", ...; "collective" for kNone.
std::string OpName(OpKind op);

}  // namespace treering::proto
