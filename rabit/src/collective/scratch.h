// ScratchArena: receive buffers kept for the engine's lifetime and only ever grown. A fresh
// page costs a fault on first touch, and on virtual machines that fault is slow enough that a
// collective allocating its temporaries per call runs at page-fault speed, not copy speed
// (shared/reference/comm-anchors.md).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

namespace rabit::collective {

class ScratchArena {
 public:
  // A buffer of at least `bytes` for `slot` (one slot per concurrent use in an algorithm).
  // Contents are unspecified; the pointer stays valid until the next Get for the same slot.
  std::uint8_t* Get(std::size_t slot, std::size_t bytes) {
    if (slots_.size() <= slot) slots_.resize(slot + 1);
    Slot& s = slots_[slot];
    if (s.size < bytes) {
      // 64-byte aligned uninitialised storage; uint64 units keep every element type aligned.
      s.data.reset(new std::uint64_t[(bytes + 7) / 8]);
      s.size = bytes;
    }
    return reinterpret_cast<std::uint8_t*>(s.data.get());
  }

 private:
  struct Slot {
    std::unique_ptr<std::uint64_t[]> data;
    std::size_t size = 0;
  };
  std::vector<Slot> slots_;
};

}  // namespace rabit::collective
