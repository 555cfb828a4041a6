// HMAC-SHA256 against the RFC 4231 test vectors, the constant-time compare, nonces, and the
// properties the handshakes rely on: every proof depends on the token, both nonces, the role and
// (for peers) the epoch and both ranks, so no proof can be replayed elsewhere.
#include "tracker/auth.h"

#include <set>
#include <string>

#include <gtest/gtest.h>

namespace treering::proto {
namespace {

std::string Hex(const Mac& m) {
  static const char* digits = "0123456789abcdef";
  std::string out;
  for (std::uint8_t b : m) {
    out += digits[b >> 4];
    out += digits[b & 15];
  }
  return out;
}

std::span<const std::uint8_t> Bytes(const std::string& s) {
  return {reinterpret_cast<const std::uint8_t*>(s.data()), s.size()};
}

// RFC 4231, section 4: test cases 1, 2, 3, 4, 6 and 7 (5 is a truncated output).
TEST(AuthTest, HmacSha256MatchesRfc4231) {
  EXPECT_EQ(Hex(HmacSha256(std::string(20, '\x0b'), Bytes("Hi There"))),
            "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7");
  EXPECT_EQ(Hex(HmacSha256("Jefe", Bytes("what do ya want for nothing?"))),
            "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843");
  EXPECT_EQ(Hex(HmacSha256(std::string(20, '\xaa'), Bytes(std::string(50, '\xdd')))),
            "773ea91e36800e46854db8ebd09181a72959098b3ef8c122d9635514ced565fe");
  std::string key4;
  for (int i = 1; i <= 25; ++i) key4 += static_cast<char>(i);
  EXPECT_EQ(Hex(HmacSha256(key4, Bytes(std::string(50, '\xcd')))),
            "82558a389a443c0ea4cc819899f2083a85f0faa3e578f8077a2e3ff46729665b");
  const std::string long_key(131, '\xaa');
  EXPECT_EQ(
      Hex(HmacSha256(long_key, Bytes("Test Using Larger Than Block-Size Key - Hash Key First"))),
      "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54");
  EXPECT_EQ(
      Hex(HmacSha256(long_key, Bytes("This is a test using a larger than block-size key and a "
                                     "larger than block-size data. The key needs to be hashed "
                                     "before being used by the HMAC algorithm."))),
      "9b09ffa71b942fcb27635fbcd5b0e944bfdc63644f0713938a7f51535c3a35e2");
}

TEST(AuthTest, SameMacComparesEveryByte) {
  Mac a{};
  a.fill(3);
  Mac b = a;
  EXPECT_TRUE(SameMac(a, b));
  for (std::size_t i : {std::size_t{0}, std::size_t{17}, kMacBytes - 1}) {
    b = a;
    b[i] ^= 1;
    EXPECT_FALSE(SameMac(a, b)) << "byte " << i;
  }
}

TEST(AuthTest, NoncesAreFreshAndFullWidth) {
  std::set<Nonce> seen;
  for (int i = 0; i < 100; ++i) {
    auto n = NewNonce();
    ASSERT_TRUE(n.ok()) << n.status().message();
    EXPECT_TRUE(seen.insert(n.value()).second);
  }
  auto n = NewNonce();
  EXPECT_NE(std::set<std::uint8_t>(n->begin(), n->end()).size(), 1u);
}

TEST(AuthTest, HelloProofsDependOnTokenNonceHelloAndRole) {
  Nonce t{};
  t.fill(1);
  const std::string hello = "hello payload";
  const Mac base = HelloProof("tok", Prover::kWorker, t, Bytes(hello));
  EXPECT_FALSE(SameMac(base, HelloProof("tok2", Prover::kWorker, t, Bytes(hello))));
  EXPECT_FALSE(SameMac(base, HelloProof("tok", Prover::kTracker, t, Bytes(hello))));
  EXPECT_FALSE(SameMac(base, HelloProof("tok", Prover::kWorker, t, Bytes("hello payloaD"))));
  Nonce t2 = t;
  t2[31] = 2;
  EXPECT_FALSE(SameMac(base, HelloProof("tok", Prover::kWorker, t2, Bytes(hello))));
  EXPECT_TRUE(SameMac(base, HelloProof("tok", Prover::kWorker, t, Bytes(hello))));
}

TEST(AuthTest, PeerProofsBindRolesRanksEpochAndBothNonces) {
  PeerTranscript t;
  t.dialler_nonce.fill(1);
  t.acceptor_nonce.fill(2);
  t.epoch = 3;
  t.dialler_rank = 4;
  t.acceptor_rank = 1;
  const Mac dial = PeerProof("tok", Prover::kDialler, t);
  // The acceptor's proof over the same transcript differs (no reflection of a proof).
  EXPECT_FALSE(SameMac(dial, PeerProof("tok", Prover::kAcceptor, t)));
  // Swapping the ranks and roles does not give the same proof either.
  PeerTranscript swapped = t;
  std::swap(swapped.dialler_rank, swapped.acceptor_rank);
  EXPECT_FALSE(SameMac(dial, PeerProof("tok", Prover::kAcceptor, swapped)));
  for (auto change :
       {+[](PeerTranscript& x) { x.dialler_nonce[0] ^= 1; },
        +[](PeerTranscript& x) { x.acceptor_nonce[5] ^= 1; }, +[](PeerTranscript& x) { ++x.epoch; },
        +[](PeerTranscript& x) { ++x.dialler_rank; },
        +[](PeerTranscript& x) { ++x.acceptor_rank; }}) {
    PeerTranscript other = t;
    change(other);
    EXPECT_FALSE(SameMac(dial, PeerProof("tok", Prover::kDialler, other)));
  }
  EXPECT_FALSE(SameMac(dial, PeerProof("", Prover::kDialler, t)));
}

}  // namespace
}  // namespace treering::proto
