// treering's ping-pong (Send/Recv) and Reduce/Gather/Scatter through the public rabit API,
// launched by treering-submit (p2p_timing.h says what each measures):
//   treering-submit --cluster local --num-workers 2 -- rabit_p2p_bench pingpong [bytes...] [k=v...]
#include <cstring>

#include "p2p_timing.h"
#include "rabit/rabit.h"

namespace {

struct RabitComm {
  int rank() const { return rabit::GetRank(); }
  int world() const { return rabit::GetWorldSize(); }
  void Barrier() { rabit::Barrier(); }
  void MaxOverRanks(double* data, std::size_t n) { rabit::Allreduce<rabit::op::Max>(data, n); }
  void Send(float* data, std::size_t n, int peer) { rabit::Send(data, n, peer, 0); }
  void Recv(float* data, std::size_t n, int peer) { rabit::Recv(data, n, peer, 0); }
  void ReduceSum(float* data, std::size_t n, int root) {
    rabit::Reduce<rabit::op::Sum>(data, n, root);
  }
  void Gather(const float* send, std::size_t n, float* recv, int root) {
    rabit::Gather(send, n, recv, root);
  }
  void Scatter(const float* send, std::size_t n, float* recv, int root) {
    rabit::Scatter(send, n, recv, root);
  }
};

}  // namespace

int main(int argc, char** argv) {
  try {
    rabit::Init(argc, argv);
    std::vector<char*> sizes_only;
    for (int i = 0; i < argc; ++i) {
      if (std::strchr(argv[i], '=') == nullptr) sizes_only.push_back(argv[i]);
    }
    const std::string what = sizes_only.size() > 1 ? sizes_only[1] : "pingpong";
    if (sizes_only.size() > 1) sizes_only.erase(sizes_only.begin() + 1);
    RabitComm comm;
    if (!treering::bench::RunP2pBenchmark(
            comm, what,
            treering::bench::SizesFromArgs(static_cast<int>(sizes_only.size()), sizes_only.data()),
            "treering")) {
      std::fprintf(stderr, "rabit_p2p_bench: unknown benchmark '%s'\n", what.c_str());
      return 2;
    }
    rabit::Finalize();
  } catch (const std::exception& e) {
    std::fprintf(stderr, "rabit_p2p_bench: %s\n", e.what());
    return 1;
  }
  return 0;
}
