// The rank-to-rank formats of transport/wire_format.h: each encodes to hand-written bytes (so a
// layout change fails here, not between two builds on the wire), the bytes are what the raw
// structs these formats replaced put on a little-endian host, and every decoder turns random,
// truncated and mutated input into an error or a value in range (the suite runs under ASan in CI).
#include "transport/wire_format.h"

#include <bit>
#include <cstring>
#include <random>
#include <vector>

#include <gtest/gtest.h>

#include "transport/message_header.h"

namespace rabit::transport {
namespace {

using Bytes = std::vector<std::uint8_t>;

template <std::size_t N>
Bytes ToBytes(const std::array<std::uint8_t, N>& a) {
  return Bytes(a.begin(), a.end());
}

// On a little-endian host the encoding is the struct's memory: the bytes these messages had when
// they were sent raw (the refactor changed no byte on x86-64).
template <typename T>
Bytes RawStruct(const T& value) {
  Bytes out(sizeof(T));
  std::memcpy(out.data(), &value, sizeof(T));
  return out;
}

TEST(WireFormat, LittleEndianHelpers) {
  std::uint8_t out[8] = {};
  PutLe(out, 0x1122334455667788ull, 8);
  EXPECT_EQ(Bytes(out, out + 8), (Bytes{0x88, 0x77, 0x66, 0x55, 0x44, 0x33, 0x22, 0x11}));
  EXPECT_EQ(GetLe(out, 2), 0x7788u);
  EXPECT_EQ(GetLe(out, 8), 0x1122334455667788ull);
}

TEST(WireFormat, RankPlacementKnownBytes) {
  const RankPlacement p{-1, 8, 0x0102030405060708ull};
  const Bytes want = {0xff, 0xff, 0xff, 0xff, 8, 0, 0, 0, 8, 7, 6, 5, 4, 3, 2, 1};
  EXPECT_EQ(ToBytes(p.Encode()), want);
  if constexpr (std::endian::native == std::endian::little) {
    EXPECT_EQ(RawStruct(p), want);
  }
  auto back = RankPlacement::Decode(want);
  ASSERT_TRUE(back.ok()) << back.status().message();
  EXPECT_EQ(back.value(), p);
  const Bytes zero_cores = {2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
  EXPECT_FALSE(RankPlacement::Decode(zero_cores).ok());
}

TEST(WireFormat, RankStateKnownBytes) {
  RankState s;
  s.phase = Phase::kCommit;
  s.version = 0x0a0b0c0d;
  s.seq = 0x1122;
  s.bootstrap_done = 3;
  s.local_replicas = 2;
  s.has_local = 1;
  const Bytes want = {3, 0, 0, 0, 0x0d, 0x0c, 0x0b, 0x0a, 0x22, 0x11, 0, 0, 0, 0, 0, 0,
                      3, 0, 0, 0, 0,    0,    0,    0,    2,    0,    0, 0, 1, 0, 0, 0};
  EXPECT_EQ(ToBytes(s.Encode()), want);
  if constexpr (std::endian::native == std::endian::little) {
    EXPECT_EQ(RawStruct(s), want);
  }
  auto back = RankState::Decode(want);
  ASSERT_TRUE(back.ok()) << back.status().message();
  EXPECT_EQ(back.value(), s);
  Bytes bad_phase = want;
  bad_phase[0] = 4;
  EXPECT_FALSE(RankState::Decode(bad_phase).ok());
}

TEST(WireFormat, LocalPairAnnounceKnownBytes) {
  const LocalPairAnnounce a{1, 2, 3, 0xfedcba9876543210ull, 0x10};
  Bytes want(40, 0);
  want[0] = 1;
  want[8] = 2;
  want[16] = 3;
  const Bytes value = {0x10, 0x32, 0x54, 0x76, 0x98, 0xba, 0xdc, 0xfe};
  std::copy(value.begin(), value.end(), want.begin() + 24);
  want[32] = 0x10;
  EXPECT_EQ(ToBytes(a.Encode()), want);
  if constexpr (std::endian::native == std::endian::little) {
    EXPECT_EQ(RawStruct(a), want);
  }
  auto back = LocalPairAnnounce::Decode(want);
  ASSERT_TRUE(back.ok());
  EXPECT_EQ(back.value(), a);
}

TEST(WireFormat, AddressSlotKnownBytes) {
  const AddressSlot a{"h1", 0x1f90};  // port 8080
  Bytes want(66, 0);
  want[0] = 'h';
  want[1] = '1';
  want[64] = 0x90;
  want[65] = 0x1f;
  EXPECT_EQ(ToBytes(a.Encode()), want);
  auto back = AddressSlot::Decode(want);
  ASSERT_TRUE(back.ok());
  EXPECT_EQ(back.value(), a);
  // A host filling the slot without a NUL ends after 63 bytes, as the old reader did.
  Bytes full(66, 'x');
  auto cut = AddressSlot::Decode(full);
  ASSERT_TRUE(cut.ok());
  EXPECT_EQ(cut->host, std::string(63, 'x'));
}

TEST(WireFormat, RecoveryMetaKnownBytes) {
  const RecoveryMeta m{OpHeader::ForBroadcast(5, 1, 16), 0x0100};
  Bytes want = {'R', 'B', 'O', 'P', 2,  1, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 5, 0, 0, 0,
                0,   0,   0,   0,   16, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0};
  EXPECT_EQ(ToBytes(m.Encode()), want);
  auto back = RecoveryMeta::Decode(want);
  ASSERT_TRUE(back.ok());
  EXPECT_EQ(back.value(), m);
  want[0] = 'X';
  EXPECT_FALSE(RecoveryMeta::Decode(want).ok());
}

TEST(WireFormat, OpAndMessageHeadersKeepTheirBytes) {
  const Bytes op = {'R', 'B', 'O', 'P', 1, 8, 0, 0, 0xff, 0xff, 0xff, 0xff, 0, 0, 0, 0,
                    7,   0,   0,   0,   0, 0, 0, 0, 64,   0,    0,    0,    0, 0, 0, 0};
  EXPECT_EQ(ToBytes(OpHeader::ForAllreduce(7, DataType::kFloat, OpKind::kSum, 64).Encode()), op);
  MessageHeader h;
  h.dtype = DataType::kInt32;
  h.tag = -2;
  h.count = 3;
  const Bytes msg = {'R', 'B', 'P', 'T', 4, 0, 0, 0, 0xfe, 0xff, 0xff, 0xff,
                     3,   0,   0,   0,   0, 0, 0, 0, 0,    0,    0,    0};
  EXPECT_EQ(ToBytes(h.Encode()), msg);
  const PutGrant g{1, 2, 3, 4, 5};
  const Bytes grant = ToBytes(g.Encode());
  for (std::size_t i = 0; i < 5; ++i) EXPECT_EQ(grant[8 * i], i + 1) << i;
  EXPECT_EQ(PutGrant::Decode(grant.data()).address, 3u);
}

// Fuzz-style: random strings of every length around the message sizes, and truncations and byte
// flips of valid encodings. Each decoder must refuse or return fields in range, and what it
// accepts must encode back to the same bytes where the format has one encoding per value.
void Mutate(Bytes& b, std::mt19937& rng) {
  if (b.empty()) return;
  const int flips = 1 + static_cast<int>(rng() % 3);
  for (int i = 0; i < flips; ++i) b[rng() % b.size()] = static_cast<std::uint8_t>(rng());
  if (rng() % 4 == 0) b.resize(rng() % (b.size() + 1));
}

void CheckAllDecoders(const Bytes& in) {
  if (auto p = RankPlacement::Decode(in); p.ok()) {
    EXPECT_GE(p->parent, -1);
    EXPECT_GE(p->cores, 1);
    EXPECT_EQ(ToBytes(p->Encode()), in);
  }
  if (auto s = RankState::Decode(in); s.ok()) {
    EXPECT_LE(static_cast<std::uint32_t>(s->phase), 3u);
    EXPECT_LE(s->has_local, 1u);
    EXPECT_EQ(ToBytes(s->Encode()), in);
  }
  if (auto a = LocalPairAnnounce::Decode(in); a.ok()) {
    EXPECT_EQ(ToBytes(a->Encode()), in);
  }
  if (auto a = AddressSlot::Decode(in); a.ok()) {
    EXPECT_LT(a->host.size(), AddressSlot::kHostBytes);
    EXPECT_EQ(a->host.find('\0'), std::string::npos);
  }
  if (auto m = RecoveryMeta::Decode(in); m.ok()) {
    EXPECT_EQ(m->bytes, GetLe(&in[32], 8));
  }
  // The fixed-size headers take a pointer: the reader always has their whole size.
  if (in.size() >= OpHeader::kBytes) (void)OpHeader::Decode(in.data());
  if (in.size() >= PutGrant::kBytes) (void)PutGrant::Decode(in.data());
  if (in.size() >= MessageHeader::kBytes) {
    if (auto h = MessageHeader::Decode(in.data())) {
      EXPECT_LT(h->lead, MessageHeader::kPage);
      EXPECT_LT(h->tail, MessageHeader::kPage);
      EXPECT_LE(static_cast<int>(h->dtype), static_cast<int>(DataType::kDouble));
    }
  }
}

TEST(WireFormatFuzz, RandomAndMutatedInputIsRefusedOrInRange) {
  std::mt19937 rng(20261128);
  RankState state;
  state.phase = Phase::kOp;
  state.has_local = 1;
  const std::vector<Bytes> corpus = {
      ToBytes(RankPlacement{0, 4, 99}.Encode()),
      ToBytes(state.Encode()),
      ToBytes(LocalPairAnnounce{7, 8, 9, 10, 11}.Encode()),
      ToBytes(AddressSlot{"host.example", 9091}.Encode()),
      ToBytes(RecoveryMeta{OpHeader::ForAllgather(3, {8, 8}), 16}.Encode()),
      ToBytes(OpHeader::ForBroadcast(1, 0, 4).Encode()),
      ToBytes(MessageHeader{}.Encode()),
  };
  for (int i = 0; i < 20000; ++i) {
    Bytes b;
    if (i % 2 == 0) {
      b.resize(rng() % 80);
      for (auto& byte : b) byte = static_cast<std::uint8_t>(rng());
    } else {
      b = corpus[rng() % corpus.size()];
      Mutate(b, rng);
    }
    CheckAllDecoders(b);
  }
  for (const Bytes& seed : corpus) {
    for (std::size_t n = 0; n <= seed.size(); ++n)
      CheckAllDecoders(Bytes(seed.begin(), seed.begin() + n));
  }
}

}  // namespace
}  // namespace rabit::transport
