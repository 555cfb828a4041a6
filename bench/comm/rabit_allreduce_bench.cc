// treering's allreduce (float sum) through the public rabit API, launched by treering-submit:
//   treering-submit --cluster local --num-workers 2 -- rabit_allreduce_bench [bytes...] [k=v...]
// key=value arguments (e.g. rabit_reduce_ring_mincount=1M) configure the engine.
#include <cstring>

#include "allreduce_timing.h"
#include "rabit/rabit.h"

namespace {

struct RabitComm {
  int rank() const { return rabit::GetRank(); }
  void Barrier() {
    int token = 0;
    rabit::Allreduce<rabit::op::Max>(&token, 1);
  }
  void AllreduceSum(float* data, std::size_t n) { rabit::Allreduce<rabit::op::Sum>(data, n); }
  void MaxOverRanks(double* data, std::size_t n) { rabit::Allreduce<rabit::op::Max>(data, n); }
};

}  // namespace

int main(int argc, char** argv) {
  try {
    rabit::Init(argc, argv);
    std::vector<char*> sizes_only;
    for (int i = 0; i < argc; ++i) {
      if (std::strchr(argv[i], '=') == nullptr) sizes_only.push_back(argv[i]);
    }
    RabitComm comm;
    const std::string label = "treering allreduce np=" + std::to_string(rabit::GetWorldSize());
    treering::bench::MeasureAll(
        comm, label.c_str(),
        treering::bench::SizesFromArgs(static_cast<int>(sizes_only.size()), sizes_only.data()));
    rabit::Finalize();
  } catch (const std::exception& e) {
    std::fprintf(stderr, "rabit_allreduce_bench: %s\n", e.what());
    return 1;
  }
  return 0;
}
