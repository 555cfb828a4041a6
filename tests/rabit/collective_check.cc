// collective_check: a worker that Init()s rabit from its environment (tracker or mpirun), runs
// every collective for every dtype and op on seeded per-rank data, checks each result against a
// locally computed expectation, prints "rank R ok" and Finalize()s. Exit code 1 on any failure.
//
// Fault injection for the launcher tests: check_fault=kill|stop check_victim=R makes rank R
// SIGKILL or SIGSTOP itself before op #check_fault_op (default 20); the others must fail.
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <map>
#include <string>

#include "expected_reduce.h"
#include "rabit/rabit.h"

namespace {

using rabit::OpKind;
using rabit::testing::ExpectedReduce;
using rabit::testing::RankData;

struct Fault {
  std::string kind;  // "", "kill" or "stop"
  int victim = -1;
  int at_op = 20;
};

class Checker {
 public:
  explicit Checker(Fault fault) : fault_(std::move(fault)) {}

  void Expect(bool ok, const std::string& what) {
    if (!ok) throw std::runtime_error("wrong result: " + what);
  }

  // Called before every collective: the fault fires on the chosen rank at the chosen op.
  void NextOp() {
    ++ops_;
    if (rabit::GetRank() != fault_.victim || ops_ != fault_.at_op) return;
    std::fprintf(stderr, "rank %d injecting %s before op %d\n", fault_.victim, fault_.kind.c_str(),
                 ops_);
    std::fflush(stderr);
    raise(fault_.kind == "kill" ? SIGKILL : SIGSTOP);
  }

  template <typename T, typename Op>
  void AllreduceCase(std::size_t count) {
    const int rank = rabit::GetRank(), world = rabit::GetWorldSize();
    const std::uint64_t seed = ++seed_;
    std::vector<T> data = RankData<T>(rank, seed, count);
    NextOp();
    rabit::Allreduce<Op>(data.data(), data.size());
    Expect(data == ExpectedReduce<T>(world, seed, count, Op::kKind),
           "Allreduce of " + std::to_string(count) + " elements, case " + std::to_string(seed));
  }

  template <typename T>
  void AllOps() {
    const std::size_t world = static_cast<std::size_t>(rabit::GetWorldSize());
    const std::size_t big = (1100003 / sizeof(T)) | 1;  // ring path (>= 1 MiB by default)
    for (std::size_t count : {std::size_t{0}, std::size_t{1}, world - 1, std::size_t{4099}, big}) {
      AllreduceCase<T, rabit::op::Sum>(count);
    }
    for (std::size_t count : {std::size_t{1}, world - 1, std::size_t{4099}}) {
      AllreduceCase<T, rabit::op::Max>(count);
      AllreduceCase<T, rabit::op::Min>(count);
      if constexpr (std::is_integral_v<T>) AllreduceCase<T, rabit::op::BitOR>(count);
    }
  }

  void Broadcasts() {
    const int rank = rabit::GetRank();
    for (int root = 0; root < rabit::GetWorldSize(); ++root) {
      for (std::size_t bytes : {std::size_t{0}, std::size_t{3}, std::size_t{700001}}) {
        const std::uint64_t seed = ++seed_;
        auto data = RankData<std::uint8_t>(rank, seed, bytes);
        NextOp();
        rabit::Broadcast(data.data(), bytes, root);
        Expect(data == RankData<std::uint8_t>(root, seed, bytes),
               "Broadcast from root " + std::to_string(root));
      }
      std::string text = rank == root ? "from rank " + std::to_string(root) : "";
      NextOp();
      rabit::Broadcast(&text, root);
      Expect(text == "from rank " + std::to_string(root), "Broadcast(string)");
    }
  }

  void Allgathers() {
    const int rank = rabit::GetRank(), world = rabit::GetWorldSize();
    for (std::size_t scale : {std::size_t{1}, std::size_t{333}, std::size_t{100003}}) {
      // Unequal sizes, rank 1 contributes nothing.
      std::vector<int> mine(rank == 1 ? 0 : scale * static_cast<std::size_t>(rank + 1), rank);
      std::vector<std::size_t> counts;
      NextOp();
      NextOp();
      const std::vector<int> all = rabit::AllgatherV(mine, &counts);
      std::vector<int> expected;
      for (int r = 0; r < world; ++r) {
        expected.insert(expected.end(), r == 1 ? 0 : scale * static_cast<std::size_t>(r + 1), r);
      }
      Expect(all == expected, "AllgatherV with scale " + std::to_string(scale));
    }
  }

  // Uneven slices, rank 1's empty: each rank's slice must hold the sum over ranks.
  void ReduceScatters() {
    const int rank = rabit::GetRank(), world = rabit::GetWorldSize();
    for (std::size_t scale : {std::size_t{1}, std::size_t{333}, std::size_t{100003}}) {
      std::vector<std::size_t> counts(world);
      std::size_t total = 0, offset = 0;
      for (int r = 0; r < world; ++r) {
        counts[r] = r == 1 ? 0 : scale * static_cast<std::size_t>(r + 1);
        if (r < rank) offset += counts[r];
        total += counts[r];
      }
      const std::uint64_t seed = ++seed_;
      std::vector<std::int64_t> data = RankData<std::int64_t>(rank, seed, total);
      const auto expected = ExpectedReduce<std::int64_t>(world, seed, total, OpKind::kSum);
      NextOp();
      rabit::ReduceScatter<rabit::op::Sum>(data.data(), counts);
      Expect(std::equal(data.begin() + offset, data.begin() + offset + counts[rank],
                        expected.begin() + offset),
             "ReduceScatter with scale " + std::to_string(scale));
    }
  }

  void Run() {
    AllOps<std::int8_t>();
    AllOps<std::uint8_t>();
    AllOps<std::int16_t>();
    AllOps<std::uint16_t>();
    AllOps<std::int32_t>();
    AllOps<std::uint32_t>();
    AllOps<std::int64_t>();
    AllOps<std::uint64_t>();
    AllOps<float>();
    AllOps<double>();
    Broadcasts();
    Allgathers();
    ReduceScatters();
  }

 private:
  Fault fault_;
  std::uint64_t seed_ = 0;
  int ops_ = 0;
};

Fault ParseFault(int argc, char* argv[]) {
  Fault fault;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    const auto eq = arg.find('=');
    if (eq == std::string::npos) continue;
    const std::string key = arg.substr(0, eq), value = arg.substr(eq + 1);
    if (key == "check_fault") fault.kind = value;
    if (key == "check_victim") fault.victim = std::stoi(value);
    if (key == "check_fault_op") fault.at_op = std::stoi(value);
  }
  return fault;
}

}  // namespace

int main(int argc, char* argv[]) {
  int rank = -1;
  try {
    rabit::Init(argc, argv);
    rank = rabit::GetRank();
    Checker(ParseFault(argc, argv)).Run();
    std::printf("rank %d ok\n", rank);
    std::fflush(stdout);
    if (rank == 0) {
      rabit::TrackerPrint("collective_check: " + std::to_string(rabit::GetWorldSize()) +
                          " ranks agree");
    } else {
      // Every engine forwards other ranks' prints too, behind "[rank R] " (issue 16 item 12).
      rabit::TrackerPrint("collective_check: a print from rank " + std::to_string(rank));
    }
    rabit::Finalize();
  } catch (const std::exception& e) {
    std::fprintf(stderr, "rank %d failed: %s\n", rank, e.what());
    return 1;
  }
  return 0;
}
