// Bounded fuzz run of the peer handshake in the suite: seeded mutations of what a real peer
// would send (a Challenge to a dialler; a PeerHello to an acceptor), each fed to ShakeHands as
// the other side of a link. Every run must end with a protocol or network error naming what was
// wrong, at once (the input ends in EOF), never a crash, a hang or an accepted link. The
// coverage-guided version of the same check is peer_handshake_fuzzer.cc (TREERING_FUZZ=ON).
#include <random>

#include <gtest/gtest.h>

#include "peer_handshake_harness.h"
#include "tracker/protocol.h"

namespace rabit::bootstrap::fuzz {
namespace {

namespace proto = treering::proto;
using Bytes = std::vector<std::uint8_t>;

Bytes WithSide(std::uint8_t side, Bytes frames) {
  frames.insert(frames.begin(), side);
  return frames;
}

std::vector<Bytes> Corpus() {
  proto::Nonce n{};
  n.fill(9);
  proto::PeerHello hello{3, 2, n, {}};
  hello.proof = proto::PeerProof(kToken, proto::Prover::kDialler, {n, n, 2, 3, 1});
  Bytes challenge_then_proof = proto::Encode(proto::Challenge{n});
  const Bytes proof = proto::Encode(proto::Proof{hello.proof});
  challenge_then_proof.insert(challenge_then_proof.end(), proof.begin(), proof.end());
  return {WithSide(0, proto::Encode(hello)), WithSide(1, proto::Encode(proto::Challenge{n})),
          WithSide(1, challenge_then_proof), WithSide(0, proto::Encode(proto::Print{"x"}))};
}

void Mutate(Bytes& b, std::mt19937& rng) {
  const int n_ops = 1 + static_cast<int>(rng() % 4);
  for (int i = 0; i < n_ops; ++i) {
    const std::size_t at = b.size() <= 1 ? 1 : 1 + rng() % (b.size() - 1);  // keep the side
    switch (rng() % 4) {
      case 0:
        if (at < b.size()) b[at] = static_cast<std::uint8_t>(rng());
        break;
      case 1:
        b.insert(b.begin() + std::min(at, b.size()), static_cast<std::uint8_t>(rng()));
        break;
      case 2:
        if (at < b.size()) b.erase(b.begin() + at);
        break;
      default:
        b.resize(std::min(at, b.size()));
        break;
    }
  }
}

TEST(PeerHandshakeFuzzTest, MutatedHandshakesAreRefusedCleanly) {
  std::mt19937 rng(20261125);
  const auto corpus = Corpus();
  for (const Bytes& seed : corpus) {
    const std::string finding = CheckHandshakeOn(seed);
    ASSERT_EQ(finding, "") << "seed of " << seed.size() << " bytes";
  }
  int bad_proof = 0, malformed = 0;
  for (int iter = 0; iter < 20000; ++iter) {
    Bytes input = corpus[iter % corpus.size()];
    Mutate(input, rng);
    std::string error;
    const std::string finding = CheckHandshakeOn(input, &error);
    ASSERT_EQ(finding, "") << "iteration " << iter;
    if (error.find("proof") != std::string::npos) {
      ++bad_proof;
    } else {
      ++malformed;
    }
  }
  // Both the decoders and the proof checks must be reached, or the mutator tests nothing.
  EXPECT_GT(bad_proof, 1000);
  EXPECT_GT(malformed, 5000);
}

}  // namespace
}  // namespace rabit::bootstrap::fuzz
