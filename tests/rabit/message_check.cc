// message_check: a worker that Init()s rabit from its environment (tracker or mpirun) and checks
// point-to-point messages and the rooted collectives through the public API (rabit.h) against
// locally computed expectations: a token round the ring, any source, tags out of order, both
// ways at once, every dtype at 0 .. 4 MiB, Reduce / Gather / Scatter and their V forms from
// every root. Prints "rank R ok"; exit code 1 on any failure.
//
// check_mode=robust (run with restarts on): Send must be refused with a clear error, and the
// rooted collectives must still work (they run as replayable collectives there).
// check_fault=kill check_victim=R: rank R SIGKILLs itself before it sends its part; its
// receiver must fail with a message naming R.
#include <signal.h>

#include <cstdio>
#include <cstring>
#include <set>
#include <string>

#include "expected_reduce.h"
#include "rabit/rabit.h"

namespace {

using rabit::OpKind;
using rabit::testing::ExpectedReduce;
using rabit::testing::RankData;

void Expect(bool ok, const std::string& what) {
  if (!ok) throw std::runtime_error("wrong result: " + what);
}

void TokenRing() {
  const int rank = rabit::GetRank(), world = rabit::GetWorldSize();
  std::int64_t token = 0;
  if (rank == 0) {
    token = 1;
    rabit::Send(&token, 1, 1 % world, 0);
    rabit::Recv(&token, 1, world - 1, 0);
    Expect(token == world, "token after one lap");
  } else {
    rabit::Recv(&token, 1, rank - 1, 0);
    ++token;
    rabit::Send(&token, 1, (rank + 1) % world, 0);
  }
}

void AnySourceAndTags() {
  const int rank = rabit::GetRank(), world = rabit::GetWorldSize();
  if (rank != 0) {
    const std::int32_t mine[2] = {rank, -rank};
    rabit::Request first = rabit::Isend(mine, 2, 0, 11);  // tag 11 first, tag 12 second...
    const std::int32_t later = 100 + rank;
    rabit::Send(&later, 1, 0, 12);
    while (!first.Test()) {
    }
    Expect(first.Wait() == 0, "Isend's peer");
    return;
  }
  std::set<int> seen;
  for (int i = 1; i < world; ++i) {
    std::int32_t later = 0;
    const int from = rabit::Recv(&later, 1, rabit::kAnySource, 12);  // ...received first
    Expect(later == 100 + from, "tag 12 payload");
    seen.insert(from);
  }
  Expect(static_cast<int>(seen.size()) == world - 1, "every sender once");
  for (int from = 1; from < world; ++from) {
    std::int32_t got[2] = {0, 0};
    Expect(rabit::Recv(got, 2, from, 11) == from && got[0] == from && got[1] == -from,
           "tag 11 payload");
  }
}

template <typename T>
void PairExchange(std::uint64_t seed) {
  const int rank = rabit::GetRank(), world = rabit::GetWorldSize();
  const int partner = rank ^ 1;
  if (partner >= world) return;
  for (std::size_t bytes :
       {std::size_t{0}, std::size_t{8}, std::size_t{4096}, std::size_t{4} << 20}) {
    const std::size_t n = bytes / sizeof(T);
    const std::vector<T> mine = RankData<T>(rank, seed, n);
    std::vector<T> got(n);
    // Both ways at once: each posts its receive and sends before waiting.
    rabit::Request in = rabit::Irecv(got.data(), n, partner, 5);
    rabit::Request out = rabit::Isend(mine.data(), n, partner, 5);
    Expect(out.Wait() == partner, "Isend's destination");
    Expect(in.Wait() == partner, "source");
    Expect(got == RankData<T>(partner, seed, n), "pair exchange of " + std::to_string(bytes));
  }
}

template <typename T>
void ReduceEveryRoot(OpKind op, std::uint64_t seed) {
  const int rank = rabit::GetRank(), world = rabit::GetWorldSize();
  for (std::size_t count : {std::size_t{0}, std::size_t{5}, std::size_t{300001}}) {
    for (int root = 0; root < world; ++root) {
      std::vector<T> buf = RankData<T>(rank, seed + count, count);
      switch (op) {
        case OpKind::kSum:
          rabit::Reduce<rabit::op::Sum>(buf.data(), count, root);
          break;
        case OpKind::kMax:
          rabit::Reduce<rabit::op::Max>(buf.data(), count, root);
          break;
        default:
          rabit::Reduce<rabit::op::Min>(buf.data(), count, root);
      }
      if (rank == root) {
        Expect(buf == ExpectedReduce<T>(world, seed + count, count, op),
               "Reduce at root " + std::to_string(root));
      }
    }
  }
}

void GatherScatterEveryRoot() {
  const int rank = rabit::GetRank(), world = rabit::GetWorldSize();
  for (int root = 0; root < world; ++root) {
    // Equal parts.
    const std::size_t n = 1000;
    const std::vector<double> mine = RankData<double>(rank, 40 + root, n);
    std::vector<double> all(rank == root ? n * world : 0);
    rabit::Gather(mine.data(), n, all.data(), root);
    std::vector<double> expected;
    for (int r = 0; r < world; ++r) {
      const auto p = RankData<double>(r, 40 + root, n);
      expected.insert(expected.end(), p.begin(), p.end());
    }
    if (rank == root) Expect(all == expected, "Gather at root " + std::to_string(root));
    std::vector<double> part(n);
    rabit::Scatter(rank == root ? expected.data() : nullptr, n, part.data(), root);
    Expect(part == mine, "Scatter from root " + std::to_string(root));
    // Unequal parts, rank 1's empty.
    std::vector<std::size_t> counts(world);
    std::vector<std::int32_t> flat;
    for (int r = 0; r < world; ++r) {
      counts[r] = r == 1 ? 0 : 70000 * r + 3;
      flat.insert(flat.end(), counts[r], r * 7 + root);
    }
    const std::vector<std::int32_t> own(counts[rank], rank * 7 + root);
    std::vector<std::int32_t> got(rank == root ? flat.size() : 0);
    rabit::GatherV(own.data(), counts, got.data(), root);
    if (rank == root) Expect(got == flat, "GatherV at root " + std::to_string(root));
    std::vector<std::int32_t> back(counts[rank]);
    rabit::ScatterV(rank == root ? flat.data() : nullptr, counts, back.data(), root);
    Expect(back == own, "ScatterV from root " + std::to_string(root));
  }
}

void RunAll() {
  TokenRing();
  AnySourceAndTags();
  PairExchange<std::int8_t>(1);
  PairExchange<std::uint16_t>(2);
  PairExchange<std::int32_t>(3);
  PairExchange<std::uint64_t>(4);
  PairExchange<float>(5);
  PairExchange<double>(6);
  rabit::Barrier();
  ReduceEveryRoot<std::int8_t>(OpKind::kSum, 10);
  ReduceEveryRoot<std::uint32_t>(OpKind::kMax, 11);
  ReduceEveryRoot<std::int64_t>(OpKind::kSum, 12);
  ReduceEveryRoot<float>(OpKind::kSum, 13);
  ReduceEveryRoot<double>(OpKind::kMin, 14);
  GatherScatterEveryRoot();
  rabit::Barrier();
}

// Under the robust engine: messages refused, rooted collectives still right.
void RunRobust() {
  const int rank = rabit::GetRank(), world = rabit::GetWorldSize();
  try {
    const int x = 1;
    rabit::Send(&x, 1, (rank + 1) % world, 0);
    throw std::runtime_error("Send was not refused by the robust engine");
  } catch (const rabit::Error& e) {
    Expect(std::strstr(e.what(), "refused by the robust engine") != nullptr,
           std::string("refusal message: ") + e.what());
  }
  ReduceEveryRoot<std::int64_t>(OpKind::kSum, 12);
  GatherScatterEveryRoot();
}

void RunKill(int victim) {
  const int rank = rabit::GetRank();
  if (rank == victim) {
    std::fprintf(stderr, "rank %d injecting kill\n", rank);
    std::fflush(stderr);
    raise(SIGKILL);
  }
  if (rank == 0) {
    std::vector<float> got(1 << 20);
    rabit::Recv(got.data(), got.size(), victim, 3);  // must throw, naming the victim
  }
  rabit::Barrier();
}

}  // namespace

int main(int argc, char* argv[]) {
  int rank = -1;
  std::string mode, fault;
  int victim = 1;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg.rfind("check_mode=", 0) == 0) mode = arg.substr(11);
    if (arg.rfind("check_fault=", 0) == 0) fault = arg.substr(12);
    if (arg.rfind("check_victim=", 0) == 0) victim = std::stoi(arg.substr(13));
  }
  try {
    rabit::Init(argc, argv);
    rank = rabit::GetRank();
    if (mode == "robust")
      RunRobust();
    else if (fault == "kill")
      RunKill(victim);
    else
      RunAll();
    std::printf("rank %d ok\n", rank);
    std::fflush(stdout);
    rabit::Finalize();
  } catch (const std::exception& e) {
    std::fprintf(stderr, "rank %d failed: %s\n", rank, e.what());
    return 1;
  }
  return 0;
}
