// The first program of every MPI course, on rabit: a token passed round a ring of N workers.
// Rank 0 starts the token at 0; each rank adds its rank and passes it on; after `laps` laps rank
// 0 checks the token equals laps * N(N-1)/2.
//   treering-submit --cluster local --num-workers 4 -- build/bin/token_ring [laps]
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "rabit/rabit.h"

int main(int argc, char* argv[]) {
  try {
    rabit::Init(argc, argv);
    const int rank = rabit::GetRank(), world = rabit::GetWorldSize();
    const int laps = argc > 1 && std::strchr(argv[1], '=') == nullptr ? std::atoi(argv[1]) : 3;
    const int next = (rank + 1) % world, prev = (rank + world - 1) % world;
    std::int64_t token = 0;
    for (int lap = 0; lap < laps; ++lap) {
      if (rank != 0) rabit::Recv(&token, 1, prev, lap);
      token += rank;
      rabit::Send(&token, 1, next, lap);
      if (rank == 0) rabit::Recv(&token, 1, prev, lap);
    }
    if (rank == 0) {
      const std::int64_t expected = static_cast<std::int64_t>(laps) * world * (world - 1) / 2;
      std::printf("token_ring: %d workers, %d laps, token %lld (expected %lld)\n", world, laps,
                  static_cast<long long>(token), static_cast<long long>(expected));
      if (token != expected) {
        std::fprintf(stderr, "token_ring: wrong token\n");
        return 1;
      }
    }
    rabit::Finalize();
  } catch (const std::exception& e) {
    std::fprintf(stderr, "token_ring: %s\n", e.what());
    return 1;
  }
  return 0;
}
