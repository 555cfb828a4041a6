#include "transport/wire_format.h"

#include <algorithm>
#include <cstring>

namespace rabit::transport {

using treering::Result;
using treering::Status;

namespace {

// A decoder's first check: exactly one message's bytes (the callers always have a whole slot).
Status CheckSize(WireBytes in, std::size_t want, const char* what) {
  if (in.size() == want) return Status::Ok();
  return Status::Protocol(std::string(what) + ": " + std::to_string(in.size()) +
                          " bytes, expected " + std::to_string(want));
}

std::int32_t GetI32(const std::uint8_t* in) {
  return static_cast<std::int32_t>(static_cast<std::uint32_t>(GetLe(in, 4)));
}

}  // namespace

void PutLe(std::uint8_t* out, std::uint64_t value, std::size_t bytes) {
  for (std::size_t i = 0; i < bytes; ++i) out[i] = static_cast<std::uint8_t>(value >> (8 * i));
}

std::uint64_t GetLe(const std::uint8_t* in, std::size_t bytes) {
  std::uint64_t value = 0;
  for (std::size_t i = 0; i < bytes; ++i) value |= std::uint64_t{in[i]} << (8 * i);
  return value;
}

void PutLeWords(std::uint8_t* out, std::initializer_list<std::uint64_t> values) {
  for (std::uint64_t v : values) {
    PutLe(out, v, 8);
    out += 8;
  }
}

std::array<std::uint8_t, RankPlacement::kBytes> RankPlacement::Encode() const {
  std::array<std::uint8_t, kBytes> out{};
  PutLe(&out[0], static_cast<std::uint32_t>(parent), 4);
  PutLe(&out[4], static_cast<std::uint32_t>(cores), 4);
  PutLe(&out[8], machine, 8);
  return out;
}

Result<RankPlacement> RankPlacement::Decode(WireBytes in) {
  if (Status st = CheckSize(in, kBytes, "rank placement"); !st.ok()) return st;
  RankPlacement p;
  p.parent = GetI32(&in[0]);
  p.cores = GetI32(&in[4]);
  p.machine = GetLe(&in[8], 8);
  if (p.parent < -1 || p.cores < 1) {
    return Status::Protocol("rank placement: tree parent " + std::to_string(p.parent) + " and " +
                            std::to_string(p.cores) + " cores");
  }
  return p;
}

std::array<std::uint8_t, AddressSlot::kBytes> AddressSlot::Encode() const {
  std::array<std::uint8_t, kBytes> out{};
  std::memcpy(out.data(), host.data(), std::min(host.size(), kHostBytes - 1));
  PutLe(&out[kHostBytes], port, 2);
  return out;
}

Result<AddressSlot> AddressSlot::Decode(WireBytes in) {
  if (Status st = CheckSize(in, kBytes, "peer address"); !st.ok()) return st;
  AddressSlot a;
  const auto* host = reinterpret_cast<const char*>(in.data());
  a.host.assign(host, strnlen(host, kHostBytes - 1));
  a.port = static_cast<std::uint16_t>(GetLe(&in[kHostBytes], 2));
  return a;
}

std::array<std::uint8_t, LocalPairAnnounce::kBytes> LocalPairAnnounce::Encode() const {
  std::array<std::uint8_t, kBytes> out{};
  PutLeWords(out.data(), {pid, buffer, probe_address, probe_value, sink_address});
  return out;
}

Result<LocalPairAnnounce> LocalPairAnnounce::Decode(WireBytes in) {
  if (Status st = CheckSize(in, kBytes, "local-pair announce"); !st.ok()) return st;
  const auto f = GetLeWords<5>(in.data());
  return LocalPairAnnounce{f[0], f[1], f[2], f[3], f[4]};
}

std::array<std::uint8_t, RankState::kBytes> RankState::Encode() const {
  std::array<std::uint8_t, kBytes> out{};
  PutLe(&out[0], static_cast<std::uint32_t>(phase), 4);
  PutLe(&out[4], version, 4);
  PutLe(&out[8], seq, 8);
  PutLe(&out[16], bootstrap_done, 8);
  PutLe(&out[24], local_replicas, 4);
  PutLe(&out[28], has_local, 4);
  return out;
}

Result<RankState> RankState::Decode(WireBytes in) {
  if (Status st = CheckSize(in, kBytes, "rank state"); !st.ok()) return st;
  const std::uint64_t phase = GetLe(&in[0], 4);
  if (phase > static_cast<std::uint32_t>(Phase::kCommit)) {
    return Status::Protocol("rank state: unknown phase " + std::to_string(phase));
  }
  RankState s;
  s.phase = static_cast<Phase>(phase);
  s.version = static_cast<std::uint32_t>(GetLe(&in[4], 4));
  s.seq = GetLe(&in[8], 8);
  s.bootstrap_done = GetLe(&in[16], 8);
  s.local_replicas = static_cast<std::uint32_t>(GetLe(&in[24], 4));
  s.has_local = static_cast<std::uint32_t>(GetLe(&in[28], 4));
  if (s.has_local > 1) {
    return Status::Protocol("rank state: has_local " + std::to_string(s.has_local) +
                            ", expected 0 or 1");
  }
  return s;
}

std::array<std::uint8_t, RecoveryMeta::kBytes> RecoveryMeta::Encode() const {
  std::array<std::uint8_t, kBytes> out{};
  const auto header = signature.Encode();
  std::copy(header.begin(), header.end(), out.begin());
  PutLe(&out[OpHeader::kBytes], bytes, 8);
  return out;
}

Result<RecoveryMeta> RecoveryMeta::Decode(WireBytes in) {
  if (Status st = CheckSize(in, kBytes, "recovery header"); !st.ok()) return st;
  const auto signature = OpHeader::Decode(in.data());
  if (!signature) return Status::Protocol("recovery header: not an op header (wrong magic)");
  RecoveryMeta m;
  m.signature = *signature;
  m.bytes = GetLe(&in[OpHeader::kBytes], 8);
  return m;
}

}  // namespace rabit::transport
