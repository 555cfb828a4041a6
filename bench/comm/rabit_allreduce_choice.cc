// Which Allreduce algorithm the socket engine's cost model picks, per message size, with the
// same parameters a job would get (allreduce_bench.sh prints it beside the timings):
//   rabit_allreduce_choice WORLD [bytes...] [machines=M] [rabit k=v...]
// prints "bytes algorithm predicted_us" lines (docs/collectives.md, "Choosing the Allreduce
// algorithm"). The socket engine links the recursive algorithms' partners, so they count here.
// The ranks are spread evenly over M machines (default 1: all on this one) with this machine's
// cores, which a job learns at start (collective/rank_placement.h). "local-reads": a world of
// two ranks on one machine past the size where they read each other's buffer instead.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "allreduce_timing.h"
#include "collective/algorithms.h"
#include "engine_params.h"
#include "engines/socket/socket_engine.h"

int main(int argc, char** argv) {
  if (argc < 2 || std::atoi(argv[1]) < 1) {
    std::fprintf(stderr, "usage: rabit_allreduce_choice WORLD [bytes...] [rabit k=v...]\n");
    return 2;
  }
  const int world = std::atoi(argv[1]);
  std::vector<char*> sizes_only = {argv[0]};
  std::vector<std::pair<std::string, std::string>> args;
  int machines = 1;
  for (int i = 2; i < argc; ++i) {
    const char* eq = std::strchr(argv[i], '=');
    if (std::strncmp(argv[i], "machines=", 9) == 0) {
      machines = std::max(1, std::atoi(eq + 1));
    } else if (eq == nullptr) {
      sizes_only.push_back(argv[i]);
    } else {
      args.emplace_back(std::string(argv[i], static_cast<std::size_t>(eq - argv[i])),
                        std::string(eq + 1));
    }
  }
  auto params = rabit::engine::ReadEngineParams(args);
  if (!params.ok()) {
    std::fprintf(stderr, "rabit_allreduce_choice: %s\n", params.status().message().c_str());
    return 2;
  }
  rabit::collective::CollectiveOptions options = rabit::engine::CollectiveOptionsFor(*params);
  options.allreduce.recursive_links = true;
  const int cores = static_cast<int>(std::max(1U, std::thread::hardware_concurrency()));
  options.allreduce.link.ranks_beyond_cores =
      std::max(0, (world + machines - 1) / machines - cores);
  for (std::size_t bytes :
       treering::bench::SizesFromArgs(static_cast<int>(sizes_only.size()), sizes_only.data())) {
    // Two ranks of one machine read each other's buffer from this size on (when the kernel
    // allows it: a job learns that from its first probe); the model is not asked.
    if (world == 2 && machines == 1 && options.local_read &&
        bytes >= rabit::collective::kLocalAllreduceMinBytes) {
      std::printf("%zu local-reads -\n", bytes);
      continue;
    }
    const auto algorithm = rabit::collective::ChooseAllreduce(options.allreduce, world, bytes);
    std::printf("%zu %s %.1f\n", bytes, rabit::collective::AllreduceAlgorithmName(algorithm),
                1e6 * rabit::collective::PredictAllreduceSeconds(algorithm, options.allreduce.link,
                                                                 world, bytes));
  }
  return 0;
}
