// Seeded per-rank test data and the locally computed expectation of a reduction over ranks,
// written independently of the engine's reducers (plain scalar code, wrapping integer sums).
#pragma once

#include <cstdint>
#include <cstring>
#include <random>
#include <type_traits>
#include <vector>

#include "rabit/rabit.h"

namespace rabit::testing {

// Rank r's input for case `seed`: integers over their whole range; floating-point values are
// small integers so that sums are exact in any order (tree and ring orders differ).
template <typename T>
std::vector<T> RankData(int rank, std::uint64_t seed, std::size_t count) {
  std::mt19937_64 gen(seed * 1000003u + static_cast<std::uint64_t>(rank) * 7919u + 1);
  std::vector<T> out(count);
  for (auto& v : out) {
    const std::uint64_t bits = gen();
    if constexpr (std::is_floating_point_v<T>) {
      v = static_cast<T>(static_cast<std::int64_t>(bits % 2001) - 1000);
    } else {
      std::memcpy(&v, &bits, sizeof(T));
    }
  }
  return out;
}

template <typename T>
T Combine(T a, T b, OpKind op) {
  switch (op) {
    case OpKind::kSum:
      if constexpr (std::is_integral_v<T>) {
        using U = std::make_unsigned_t<T>;
        return static_cast<T>(static_cast<U>(static_cast<U>(a) + static_cast<U>(b)));
      } else {
        return a + b;
      }
    case OpKind::kMax:
      return a > b ? a : b;
    case OpKind::kMin:
      return a < b ? a : b;
    case OpKind::kBitOR:
      if constexpr (std::is_integral_v<T>) return static_cast<T>(a | b);
      return a;
  }
  return a;
}

template <typename T>
std::vector<T> ExpectedReduce(int world, std::uint64_t seed, std::size_t count, OpKind op) {
  std::vector<T> acc = RankData<T>(0, seed, count);
  for (int r = 1; r < world; ++r) {
    const std::vector<T> next = RankData<T>(r, seed, count);
    for (std::size_t i = 0; i < count; ++i) acc[i] = Combine(acc[i], next[i], op);
  }
  return acc;
}

}  // namespace rabit::testing
