// The collectives the trainer needs, behind a small interface: the CLI passes the process's
// rabit engine (RabitCollective); tests pass N in-process ranks to check that R workers take
// exactly the steps one worker takes.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>

namespace treering::booster::mlp {

class Collective {
 public:
  virtual ~Collective() = default;
  virtual int Rank() const = 0;
  virtual int WorldSize() const = 0;
  virtual void SumFloats(float* buf, std::size_t n) = 0;
  virtual void SumDoubles(double* buf, std::size_t n) = 0;
  virtual void MaxU64(std::uint64_t* buf, std::size_t n) = 0;
  virtual void Broadcast(void* buf, std::size_t bytes, int root) = 0;
};

// rabit::Init must have been called; the object only forwards to rabit's free functions.
std::unique_ptr<Collective> MakeRabitCollective();

}  // namespace treering::booster::mlp
