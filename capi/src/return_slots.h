// Where C API calls put the arrays and strings they return through out_* pointers. XGBoost's
// contract: a returned pointer stays valid until the next call on the same handle from the
// same thread. So each handle keeps one slot per calling thread (two threads predicting with
// one booster never overwrite each other's output), and global calls use a thread_local slot.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace treering::capi {

struct ReturnSlot {
  std::string text;                      // one string (JSON, eval line, model bytes)
  std::vector<std::string> strings;      // string arrays (names, dumps)
  std::vector<const char*> string_ptrs;  // ... and the char* array handed out
  std::vector<float> floats;             // predictions, scores, float info
  std::vector<std::uint64_t> shape;      // bst_ulong shapes, indptr
  std::vector<unsigned> uints;           // uint info

  // Fills string_ptrs from strings and returns its data.
  const char** PointStrings() {
    string_ptrs.clear();
    for (const std::string& s : strings) string_ptrs.push_back(s.c_str());
    return string_ptrs.data();
  }
};

class ReturnSlots {
 public:
  // This thread's slot of the object (created on first use, kept until the object dies).
  ReturnSlot& ForThisThread() {
    std::lock_guard lock(mutex_);
    std::unique_ptr<ReturnSlot>& slot = slots_[std::this_thread::get_id()];
    if (!slot) slot = std::make_unique<ReturnSlot>();
    return *slot;
  }

 private:
  std::mutex mutex_;
  std::map<std::thread::id, std::unique_ptr<ReturnSlot>> slots_;
};

// The calling thread's slot for calls that have no handle (XGBuildInfo, XGBGetGlobalConfig,
// XGCommunicatorGetProcessorName).
inline ReturnSlot& GlobalReturnSlot() {
  thread_local ReturnSlot slot;
  return slot;
}

}  // namespace treering::capi
