// ResultCache: the results of the collectives since the last checkpoint (or, for the setup
// cache, since the start), indexed by their position, each with the op signature it was
// produced by (kind, type, op, root, bytes: an OpHeader without sequence) so a replaying rank
// that asks with a different call fails with both calls named instead of reading wrong bytes.
//
// One arena that only grows: Clear() keeps the memory, so steady-state rounds allocate and
// page-fault nothing. Stage() keeps an Allreduce's input at the tail so a failed attempt can
// be rerun from the original input (the algorithms reduce in place).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "transport/op_header.h"

namespace rabit::engine {

class ResultCache {
 public:
  struct View {
    const transport::OpHeader* signature;
    std::uint8_t* data;
    std::size_t bytes;
  };

  std::size_t size() const { return entries_.size(); }
  // Copies an op's input to the tail (not an entry yet); Unstage copies it back.
  void Stage(const void* data, std::size_t bytes);
  void Unstage(void* out, std::size_t bytes) const;
  // Appends the result of the next position.
  void Append(const transport::OpHeader& signature, const void* data, std::size_t bytes);
  View Get(std::size_t index);
  void Clear();

 private:
  struct Entry {
    transport::OpHeader signature;
    std::size_t offset;
    std::size_t bytes;
  };
  std::uint8_t* Tail(std::size_t bytes);

  std::unique_ptr<std::uint8_t[]> arena_;
  std::size_t capacity_ = 0;
  std::size_t used_ = 0;
  std::vector<Entry> entries_;
};

}  // namespace rabit::engine
