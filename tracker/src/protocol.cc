// Encoders and decoders of the native tracker protocol (see protocol.h and docs/protocol.md).
// Pure functions: no I/O, no exceptions, no asserts on the bytes they are given.
#include "tracker/protocol.h"

#include <algorithm>
#include <bit>
#include <cstdio>

#include "byte_codec.h"

namespace treering::proto {
namespace {

using detail::ByteReader;
using detail::ByteWriter;

// Strings longer than kMaxString would make the frame undecodable, so the encoder cuts them;
// only free text (prints, reasons) can realistically be that long.
std::string Capped(const std::string& s) {
  return s.size() <= kMaxString ? s : s.substr(0, kMaxString);
}

// Builds header + payload; the payload is written by `fill` after a placeholder header whose
// size field is patched once the payload length is known.
template <typename Fill>
std::vector<std::uint8_t> Frame(Kind kind, Fill fill) {
  std::vector<std::uint8_t> out;
  out.reserve(kHeaderBytes + 64);
  ByteWriter w(&out);
  w.PutUInt<std::uint32_t>(kMagic);
  w.PutUInt<std::uint16_t>(kVersion);
  w.PutUInt<std::uint16_t>(static_cast<std::uint16_t>(kind));
  w.PutUInt<std::uint64_t>(0);
  fill(w);
  const std::uint64_t payload = out.size() - kHeaderBytes;
  for (std::size_t i = 0; i < 8; ++i) out[8 + i] = static_cast<std::uint8_t>(payload >> (8 * i));
  return out;
}

bool KnownKind(std::uint16_t k) {
  return k >= static_cast<std::uint16_t>(Kind::kHello) &&
         k <= static_cast<std::uint16_t>(Kind::kResizePending);
}

// Every decoder ends here: a short read or trailing bytes become one kProtocol error.
template <typename T>
Result<T> Finish(const ByteReader& r, const char* what, T value) {
  if (!r.ok()) return Status::Protocol(std::string(what) + ": " + r.error());
  if (r.remaining() != 0) {
    return Status::Protocol(std::string(what) + ": " + std::to_string(r.remaining()) +
                            " trailing bytes");
  }
  return value;
}

}  // namespace

namespace detail {

bool ByteReader::Need(std::size_t n, const char* field) {
  if (!ok()) return false;
  if (remaining() < n) {
    Fail(std::string("truncated at field '") + field + "' (need " + std::to_string(n) +
         " bytes, have " + std::to_string(remaining()) + ")");
    return false;
  }
  return true;
}

std::string ByteReader::GetString(const char* field, std::uint32_t max_bytes) {
  const std::uint32_t n = GetUInt<std::uint32_t>(field);
  if (!ok()) return {};
  if (n > max_bytes) {
    Fail(std::string("string '") + field + "' is " + std::to_string(n) + " bytes (max " +
         std::to_string(max_bytes) + ")");
    return {};
  }
  if (!Need(n, field)) return {};
  std::string s(reinterpret_cast<const char*>(bytes_.data() + pos_), n);
  pos_ += n;
  return s;
}

std::uint32_t ByteReader::GetCount(const char* field, std::size_t min_item_bytes) {
  const std::uint32_t n = GetUInt<std::uint32_t>(field);
  if (ok() && static_cast<std::uint64_t>(n) * min_item_bytes > remaining()) {
    Fail(std::string("list '") + field + "' claims " + std::to_string(n) + " items but only " +
         std::to_string(remaining()) + " bytes follow");
    return 0;
  }
  return ok() ? n : 0;
}

}  // namespace detail

std::vector<std::uint8_t> Encode(const Hello& m) {
  return Frame(Kind::kHello, [&](ByteWriter& w) {
    w.PutBytes(m.nonce);
    w.PutString(Capped(m.task_id));
    w.PutUInt<std::uint8_t>(static_cast<std::uint8_t>(m.command));
    w.PutI32(m.rank);
    w.PutI32(m.world_size);
    w.PutUInt<std::uint32_t>(m.attempt);
    w.PutString(Capped(m.host));
    w.PutUInt<std::uint16_t>(m.port);
  });
}

std::vector<std::uint8_t> Encode(const Assign& m) {
  return Frame(Kind::kAssign, [&](ByteWriter& w) {
    w.PutI32(m.rank);
    w.PutI32(m.world_size);
    w.PutI32(m.parent);
    w.PutUInt<std::uint32_t>(static_cast<std::uint32_t>(m.tree_neighbours.size()));
    for (std::int32_t n : m.tree_neighbours) w.PutI32(n);
    w.PutI32(m.ring_prev);
    w.PutI32(m.ring_next);
    w.PutUInt<std::uint32_t>(static_cast<std::uint32_t>(m.connect_to.size()));
    for (const PeerAddress& p : m.connect_to) {
      w.PutI32(p.rank);
      w.PutString(Capped(p.host));
      w.PutUInt<std::uint16_t>(p.port);
    }
    w.PutUInt<std::uint32_t>(m.num_accept);
    w.PutUInt<std::uint32_t>(m.epoch);
  });
}

std::vector<std::uint8_t> Encode(const Print& m) {
  return Frame(Kind::kPrint, [&](ByteWriter& w) { w.PutString(Capped(m.message)); });
}
std::vector<std::uint8_t> Encode(const ErrorReport& m) {
  return Frame(Kind::kError, [&](ByteWriter& w) {
    w.PutString(Capped(m.message));
    w.PutUInt<std::uint32_t>(static_cast<std::uint32_t>(m.ranks.size()));
    for (std::int32_t rank : m.ranks) w.PutI32(rank);
  });
}
std::vector<std::uint8_t> Encode(const Shutdown&) {
  return Frame(Kind::kShutdown, [](ByteWriter&) {});
}

std::vector<std::uint8_t> Encode(const ResizePending&) {
  return Frame(Kind::kResizePending, [](ByteWriter&) {});
}
std::vector<std::uint8_t> Encode(const Abort& m) {
  return Frame(Kind::kAbort, [&](ByteWriter& w) { w.PutString(Capped(m.reason)); });
}
std::vector<std::uint8_t> Encode(const Reject& m) {
  return Frame(Kind::kReject, [&](ByteWriter& w) { w.PutString(Capped(m.reason)); });
}
std::vector<std::uint8_t> Encode(const PeerHello& m) {
  return Frame(Kind::kPeerHello, [&](ByteWriter& w) {
    w.PutI32(m.rank);
    w.PutUInt<std::uint32_t>(m.epoch);
    w.PutBytes(m.nonce);
    w.PutBytes(m.proof);
  });
}
std::vector<std::uint8_t> Encode(const Challenge& m) {
  return Frame(Kind::kChallenge, [&](ByteWriter& w) { w.PutBytes(m.nonce); });
}
std::vector<std::uint8_t> Encode(const Proof& m) {
  return Frame(Kind::kProof, [&](ByteWriter& w) { w.PutBytes(m.mac); });
}

Result<FrameHeader> DecodeHeader(std::span<const std::uint8_t> bytes) {
  if (bytes.size() != kHeaderBytes) {
    return Status::Protocol("frame header must be " + std::to_string(kHeaderBytes) +
                            " bytes, got " + std::to_string(bytes.size()));
  }
  ByteReader r(bytes);
  FrameHeader h;
  h.magic = r.GetUInt<std::uint32_t>("magic");
  h.version = r.GetUInt<std::uint16_t>("version");
  const std::uint16_t kind = r.GetUInt<std::uint16_t>("kind");
  h.payload_bytes = r.GetUInt<std::uint64_t>("payload_bytes");
  if (h.magic != kMagic) {
    char hex[16];
    std::snprintf(hex, sizeof(hex), "0x%08x", h.magic);
    return Status::Protocol(std::string("wrong magic ") + hex + " (expected \"TRK1\")");
  }
  if (h.version != kVersion) {
    return Status::Protocol("unsupported protocol version " + std::to_string(h.version) +
                            " (this tracker speaks " + std::to_string(kVersion) + ")");
  }
  if (!KnownKind(kind)) return Status::Protocol("unknown message kind " + std::to_string(kind));
  if (h.payload_bytes > kMaxPayload) {
    return Status::Protocol("payload of " + std::to_string(h.payload_bytes) +
                            " bytes exceeds the limit of " + std::to_string(kMaxPayload));
  }
  h.kind = static_cast<Kind>(kind);
  return h;
}

Result<Hello> DecodeHello(std::span<const std::uint8_t> payload) {
  ByteReader r(payload);
  Hello m;
  m.nonce = r.GetBytes<kNonceBytes>("nonce");
  m.task_id = r.GetString("task_id", kMaxString);
  const std::uint8_t command = r.GetUInt<std::uint8_t>("command");
  m.rank = r.GetI32("rank");
  m.world_size = r.GetI32("world_size");
  m.attempt = r.GetUInt<std::uint32_t>("attempt");
  m.host = r.GetString("host", kMaxString);
  m.port = r.GetUInt<std::uint16_t>("port");
  if (r.ok() && command > static_cast<std::uint8_t>(Command::kRecover)) {
    return Status::Protocol("Hello: unknown command " + std::to_string(command));
  }
  m.command = static_cast<Command>(command);
  return Finish(r, "Hello", std::move(m));
}

Result<Assign> DecodeAssign(std::span<const std::uint8_t> payload) {
  ByteReader r(payload);
  Assign m;
  m.rank = r.GetI32("rank");
  m.world_size = r.GetI32("world_size");
  m.parent = r.GetI32("parent");
  const std::uint32_t n_tree = r.GetCount("tree_neighbours", 4);
  for (std::uint32_t i = 0; i < n_tree; ++i) m.tree_neighbours.push_back(r.GetI32("neighbour"));
  m.ring_prev = r.GetI32("ring_prev");
  m.ring_next = r.GetI32("ring_next");
  const std::uint32_t n_peers = r.GetCount("connect_to", 4 + 4 + 2);
  for (std::uint32_t i = 0; i < n_peers && r.ok(); ++i) {
    PeerAddress p;
    p.rank = r.GetI32("peer rank");
    p.host = r.GetString("peer host", kMaxString);
    p.port = r.GetUInt<std::uint16_t>("peer port");
    m.connect_to.push_back(std::move(p));
  }
  m.num_accept = r.GetUInt<std::uint32_t>("num_accept");
  m.epoch = r.GetUInt<std::uint32_t>("epoch");
  return Finish(r, "Assign", std::move(m));
}

namespace {
// The three messages that carry one string share this decoder.
template <typename T, std::string T::*field>
Result<T> DecodeText(std::span<const std::uint8_t> payload, const char* what, const char* name) {
  ByteReader r(payload);
  T m;
  m.*field = r.GetString(name, kMaxString);
  return Finish(r, what, std::move(m));
}
}  // namespace

Result<Print> DecodePrint(std::span<const std::uint8_t> payload) {
  return DecodeText<Print, &Print::message>(payload, "Print", "message");
}
Result<ErrorReport> DecodeErrorReport(std::span<const std::uint8_t> payload) {
  ByteReader r(payload);
  ErrorReport m;
  m.message = r.GetString("message", kMaxString);
  const std::uint32_t n = r.GetCount("ranks", 4);
  for (std::uint32_t i = 0; i < n && r.ok(); ++i) m.ranks.push_back(r.GetI32("rank"));
  return Finish(r, "Error", std::move(m));
}
Result<Abort> DecodeAbort(std::span<const std::uint8_t> payload) {
  return DecodeText<Abort, &Abort::reason>(payload, "Abort", "reason");
}
Result<Reject> DecodeReject(std::span<const std::uint8_t> payload) {
  return DecodeText<Reject, &Reject::reason>(payload, "Reject", "reason");
}

Result<Shutdown> DecodeShutdown(std::span<const std::uint8_t> payload) {
  ByteReader r(payload);
  return Finish(r, "Shutdown", Shutdown{});
}

Result<ResizePending> DecodeResizePending(std::span<const std::uint8_t> payload) {
  ByteReader r(payload);
  return Finish(r, "ResizePending", ResizePending{});
}

Result<PeerHello> DecodePeerHello(std::span<const std::uint8_t> payload) {
  ByteReader r(payload);
  PeerHello m;
  m.rank = r.GetI32("rank");
  m.epoch = r.GetUInt<std::uint32_t>("epoch");
  m.nonce = r.GetBytes<kNonceBytes>("nonce");
  m.proof = r.GetBytes<kMacBytes>("proof");
  return Finish(r, "PeerHello", std::move(m));
}

Result<Challenge> DecodeChallenge(std::span<const std::uint8_t> payload) {
  ByteReader r(payload);
  Challenge m;
  m.nonce = r.GetBytes<kNonceBytes>("nonce");
  return Finish(r, "Challenge", std::move(m));
}

Result<Proof> DecodeProof(std::span<const std::uint8_t> payload) {
  ByteReader r(payload);
  Proof m;
  m.mac = r.GetBytes<kMacBytes>("mac");
  return Finish(r, "Proof", std::move(m));
}

std::vector<std::uint8_t> Encode(const Report& m) {
  return Frame(Kind::kReport, [&](ByteWriter& w) {
    w.PutUInt<std::uint32_t>(m.pid);
    w.PutI32(m.round);
    w.PutString(Capped(m.phase));
    w.PutUInt<std::uint8_t>(static_cast<std::uint8_t>(m.op));
    w.PutUInt<std::uint64_t>(m.entered);
    w.PutUInt<std::uint64_t>(m.finished);
    w.PutUInt<std::uint64_t>(m.bytes);
    w.PutI32(m.done_round);
    w.PutI32(m.total_rounds);
    w.PutUInt<std::uint64_t>(std::bit_cast<std::uint64_t>(m.comp_s));
    w.PutUInt<std::uint64_t>(std::bit_cast<std::uint64_t>(m.sync_s));
    w.PutUInt<std::uint32_t>(static_cast<std::uint32_t>(m.metrics.size()));
    for (const RoundMetric& metric : m.metrics) {
      w.PutString(Capped(metric.name));
      w.PutUInt<std::uint64_t>(std::bit_cast<std::uint64_t>(metric.value));
    }
    w.PutUInt<std::uint64_t>(std::bit_cast<std::uint64_t>(m.hang_report_s));
    w.PutUInt<std::uint32_t>(static_cast<std::uint32_t>(m.links.size()));
    for (const LinkReport& link : m.links) {
      w.PutI32(link.peer);
      w.PutUInt<std::uint64_t>(link.sent);
      w.PutUInt<std::uint64_t>(link.received);
      w.PutUInt<std::uint64_t>(std::bit_cast<std::uint64_t>(link.idle_s));
      w.PutUInt<std::uint8_t>(link.waiting ? 1 : 0);
    }
  });
}

// Doubles travel as their IEEE-754 bits (u64 LE), so every value, NaN included, re-encodes to
// the same bytes.
Result<Report> DecodeReport(std::span<const std::uint8_t> payload) {
  ByteReader r(payload);
  Report m;
  m.pid = r.GetUInt<std::uint32_t>("pid");
  m.round = r.GetI32("round");
  m.phase = r.GetString("phase", kMaxString);
  const auto op = r.GetUInt<std::uint8_t>("op");
  if (r.ok() && op > static_cast<std::uint8_t>(OpKind::kReduceScatter)) {
    r.Fail("op " + std::to_string(op) + " is not a collective kind (0-4)");
  }
  m.op = static_cast<OpKind>(op);
  m.entered = r.GetUInt<std::uint64_t>("entered");
  m.finished = r.GetUInt<std::uint64_t>("finished");
  m.bytes = r.GetUInt<std::uint64_t>("bytes");
  m.done_round = r.GetI32("done_round");
  m.total_rounds = r.GetI32("total_rounds");
  m.comp_s = std::bit_cast<double>(r.GetUInt<std::uint64_t>("comp_s"));
  m.sync_s = std::bit_cast<double>(r.GetUInt<std::uint64_t>("sync_s"));
  const std::uint32_t n = r.GetCount("metrics", 12);
  for (std::uint32_t i = 0; i < n && r.ok(); ++i) {
    RoundMetric metric;
    metric.name = r.GetString("metric name", kMaxString);
    metric.value = std::bit_cast<double>(r.GetUInt<std::uint64_t>("metric value"));
    m.metrics.push_back(std::move(metric));
  }
  if (r.ok() && r.remaining() > 0) {  // the trailer (protocol.h: optional within version 4)
    m.hang_report_s = std::bit_cast<double>(r.GetUInt<std::uint64_t>("hang_report_s"));
    const std::uint32_t n_links = r.GetCount("links", 4 + 8 + 8 + 8 + 1);
    for (std::uint32_t i = 0; i < n_links && r.ok(); ++i) {
      LinkReport link;
      link.peer = r.GetI32("link peer");
      link.sent = r.GetUInt<std::uint64_t>("link sent");
      link.received = r.GetUInt<std::uint64_t>("link received");
      link.idle_s = std::bit_cast<double>(r.GetUInt<std::uint64_t>("link idle_s"));
      const auto waiting = r.GetUInt<std::uint8_t>("link waiting");
      if (r.ok() && waiting > 1) r.Fail("link waiting " + std::to_string(waiting) + " is not 0/1");
      link.waiting = waiting == 1;
      m.links.push_back(link);
    }
  }
  return Finish(r, "Report", std::move(m));
}

std::string OpName(OpKind op) {
  switch (op) {
    case OpKind::kAllreduce:
      return "Allreduce";
    case OpKind::kBroadcast:
      return "Broadcast";
    case OpKind::kAllgather:
      return "Allgather";
    case OpKind::kReduceScatter:
      return "ReduceScatter";
    case OpKind::kNone:
      break;
  }
  return "collective";
}

std::string KindName(Kind kind) {
  switch (kind) {
    case Kind::kHello:
      return "Hello";
    case Kind::kAssign:
      return "Assign";
    case Kind::kPrint:
      return "Print";
    case Kind::kError:
      return "Error";
    case Kind::kShutdown:
      return "Shutdown";
    case Kind::kAbort:
      return "Abort";
    case Kind::kReject:
      return "Reject";
    case Kind::kPeerHello:
      return "PeerHello";
    case Kind::kChallenge:
      return "Challenge";
    case Kind::kProof:
      return "Proof";
    case Kind::kReport:
      return "Report";
    case Kind::kResizePending:
      return "ResizePending";
  }
  return "kind " + std::to_string(static_cast<int>(kind));
}

}  // namespace treering::proto
