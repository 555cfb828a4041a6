// Seeded random mutations of valid frames: every decoder must either succeed or return a
// kProtocol error, and whatever it accepts must re-encode to exactly the bytes it read (the
// codec is canonical, so no garbage can hide in an accepted message).
#include <random>

#include <gtest/gtest.h>

#include "tracker/protocol.h"

namespace treering::proto {
namespace {

using Bytes = std::vector<std::uint8_t>;

std::vector<Bytes> Corpus() {
  Assign a;
  a.rank = 2;
  a.world_size = 5;
  a.parent = 1;
  a.tree_neighbours = {1};
  a.ring_prev = 1;
  a.ring_next = 3;
  a.connect_to = {{1, "127.0.0.1", 4000}};
  Hello h;
  h.nonce.fill(7);
  h.task_id = "2";
  h.host = "127.0.0.1";
  h.port = 4000;
  return {Encode(h),
          Encode(a),
          Encode(Print{"[3]\tx:1"}),
          Encode(ErrorReport{"oops"}),
          Encode(Shutdown{}),
          Encode(Abort{"rank 1 died"}),
          Encode(Reject{"bad token"}),
          Encode(PeerHello{2, 1, h.nonce, {}}),
          Encode(Challenge{h.nonce}),
          Encode(Proof{}),
          Encode(Report{4121,
                        41,
                        "histogram sync",
                        OpKind::kAllreduce,
                        812,
                        811,
                        1 << 20,
                        40,
                        100,
                        0.5,
                        0.25,
                        {{"eval-rmse", 0.125}, {"train-rmse", 0.0625}}})};
}

void Mutate(Bytes& b, std::mt19937& rng) {
  std::uniform_int_distribution<int> op(0, 3);
  std::uniform_int_distribution<int> byte(0, 255);
  const int n_ops = 1 + static_cast<int>(rng() % 4);
  for (int i = 0; i < n_ops; ++i) {
    const std::size_t at = b.empty() ? 0 : rng() % b.size();
    switch (op(rng)) {
      case 0:
        if (!b.empty()) b[at] = static_cast<std::uint8_t>(byte(rng));
        break;
      case 1:
        b.insert(b.begin() + at, static_cast<std::uint8_t>(byte(rng)));
        break;
      case 2:
        if (!b.empty()) b.erase(b.begin() + at);
        break;
      default:
        b.resize(at);
        break;
    }
  }
}

// Decodes a whole frame the way the tracker does; returns the re-encoding when accepted.
Result<Bytes> DecodeFrame(const Bytes& f) {
  if (f.size() < kHeaderBytes) return Status::Protocol("short");
  auto h = DecodeHeader(std::span<const std::uint8_t>(f).first(kHeaderBytes));
  if (!h.ok()) return h.status();
  const auto payload = std::span<const std::uint8_t>(f).subspan(kHeaderBytes);
  if (payload.size() != h->payload_bytes) return Status::Protocol("size mismatch");
  auto again = [](auto r) -> Result<Bytes> {
    if (!r.ok()) return r.status();
    return Encode(r.value());
  };
  switch (h->kind) {
    case Kind::kHello:
      return again(DecodeHello(payload));
    case Kind::kAssign:
      return again(DecodeAssign(payload));
    case Kind::kPrint:
      return again(DecodePrint(payload));
    case Kind::kError:
      return again(DecodeErrorReport(payload));
    case Kind::kShutdown:
      return again(DecodeShutdown(payload));
    case Kind::kAbort:
      return again(DecodeAbort(payload));
    case Kind::kReject:
      return again(DecodeReject(payload));
    case Kind::kPeerHello:
      return again(DecodePeerHello(payload));
    case Kind::kChallenge:
      return again(DecodeChallenge(payload));
    case Kind::kProof:
      return again(DecodeProof(payload));
    case Kind::kReport:
      return again(DecodeReport(payload));
    case Kind::kResizePending:
      return again(DecodeResizePending(payload));
  }
  return Status::Protocol("unreachable");
}

TEST(ProtocolFuzzTest, MutatedFramesNeverCrashAndAcceptedOnesAreCanonical) {
  std::mt19937 rng(20261122);
  const auto corpus = Corpus();
  int accepted = 0, rejected = 0;
  for (int iter = 0; iter < 50000; ++iter) {
    Bytes f = corpus[iter % corpus.size()];
    Mutate(f, rng);
    auto r = DecodeFrame(f);
    if (r.ok()) {
      ASSERT_EQ(r.value(), f) << "iteration " << iter;
      ++accepted;
    } else {
      ASSERT_EQ(r.status().code(), StatusCode::kProtocol);
      ASSERT_FALSE(r.status().message().empty());
      ++rejected;
    }
  }
  // Both outcomes must be exercised, or the mutator is not testing anything.
  EXPECT_GT(accepted, 100);
  EXPECT_GT(rejected, 10000);
}

}  // namespace
}  // namespace treering::proto
