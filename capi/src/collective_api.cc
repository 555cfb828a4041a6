// The collective calls: the process's rabit engine (rabit/rabit.h), as the CLI's workers use
// it. XGBoost 1.7's data type and operation numbers are translated here; rabit::Error and
// every other failure becomes -1 with the message (ApiCall).
#include <cstdint>
#include <mutex>
#include <string>
#include <vector>

#include "api_error.h"
#include "communicator_config.h"
#include "global_config.h"
#include "rabit/rabit.h"
#include "return_slots.h"
#include "treering/c_api.h"

using treering::capi::ApiCall;
using treering::capi::ApiError;
using treering::capi::NotNull;

namespace {

// Whether XGCommunicatorInit ran without a Finalize since: a second Init would drop the
// running engine's links under its peers' feet, so it is refused instead.
std::mutex init_mutex;
bool initialized = false;

// XGBoost's collective::DataType and Operation numbers (src/collective/communicator.h); the
// bitwise operations are XGBoost 2.0's (1.7 has only max, min and sum).
enum XgbDataType { kInt8, kUInt8, kInt32, kUInt32, kInt64, kUInt64, kFloat, kDouble };
enum XgbOp { kMax = 0, kMin = 1, kSum = 2, kBitAnd = 3, kBitOr = 4, kBitXor = 5 };

// AND and XOR have no reducer in rabit: every rank gathers all buffers and folds them in rank
// order, which gives every rank the same bits (world x count elements of memory).
template <typename T>
void FoldAllgathered(T* buf, std::size_t count, int op) {
  const std::vector<T> mine(buf, buf + count);
  const std::vector<T> all = rabit::AllgatherV(mine);
  const std::size_t world = count == 0 ? 0 : all.size() / count;
  for (std::size_t i = 0; i < count; ++i) {
    T acc = all[i];
    for (std::size_t r = 1; r < world; ++r) {
      acc = op == kBitAnd ? T(acc & all[r * count + i]) : T(acc ^ all[r * count + i]);
    }
    buf[i] = acc;
  }
}

template <typename T>
void Reduce(void* data, std::size_t count, int op) {
  T* buf = static_cast<T*>(data);
  switch (op) {
    case kMax:
      return rabit::Allreduce<rabit::op::Max>(buf, count);
    case kMin:
      return rabit::Allreduce<rabit::op::Min>(buf, count);
    case kSum:
      return rabit::Allreduce<rabit::op::Sum>(buf, count);
    default:
      break;
  }
  if constexpr (std::is_integral_v<T>) {
    if (op == kBitOr) return rabit::Allreduce<rabit::op::BitOR>(buf, count);
    if (op == kBitAnd || op == kBitXor) return FoldAllgathered(buf, count, op);
  } else {
    if (op == kBitAnd || op == kBitOr || op == kBitXor) {
      throw ApiError("op " + std::to_string(op) + ": bitwise operations need an integer data_type");
    }
  }
  throw ApiError("op: " + std::to_string(op) +
                 " is not an operation (0 max, 1 min, 2 sum, 3 bitwise and, 4 bitwise or, "
                 "5 bitwise xor)");
}

}  // namespace

XGB_DLL int XGCommunicatorInit(char const* config) {
  return ApiCall("XGCommunicatorInit", [&] {
    std::lock_guard lock(init_mutex);
    if (initialized) {
      throw ApiError("the communicator is already initialized (call XGCommunicatorFinalize first)");
    }
    const auto params = treering::capi::ReadCommunicatorConfig(config == nullptr ? "" : config);
    for (const std::string& note : params.notes) {
      treering::capi::Log(treering::capi::kLogInfo, "XGCommunicatorInit: " + note);
    }
    rabit::Init(params.rabit);
    initialized = true;
    treering::capi::Log(treering::capi::kLogInfo, "XGCommunicatorInit: rank " +
                                                      std::to_string(rabit::GetRank()) + " of " +
                                                      std::to_string(rabit::GetWorldSize()));
  });
}

XGB_DLL int XGCommunicatorFinalize(void) {
  return ApiCall("XGCommunicatorFinalize", [&] {
    std::lock_guard lock(init_mutex);
    initialized = false;  // even if the shutdown fails, the engine is gone (rabit.cc)
    rabit::Finalize();
  });
}

// These three cannot fail and return the value itself, as XGBoost's do.
XGB_DLL int XGCommunicatorGetRank(void) { return rabit::GetRank(); }
XGB_DLL int XGCommunicatorGetWorldSize(void) { return rabit::GetWorldSize(); }
XGB_DLL int XGCommunicatorIsDistributed(void) { return rabit::IsDistributed() ? 1 : 0; }

XGB_DLL int XGCommunicatorPrint(char const* message) {
  return ApiCall("XGCommunicatorPrint", [&] { rabit::TrackerPrint(NotNull(message, "message")); });
}

XGB_DLL int XGCommunicatorGetProcessorName(const char** name_str) {
  return ApiCall("XGCommunicatorGetProcessorName", [&] {
    NotNull(name_str, "name_str");
    auto& slot = treering::capi::GlobalReturnSlot();
    slot.text = rabit::GetProcessorName();
    *name_str = slot.text.c_str();
  });
}

XGB_DLL int XGCommunicatorBroadcast(void* send_receive_buffer, size_t size, int root) {
  return ApiCall("XGCommunicatorBroadcast", [&] {
    if (size > 0) NotNull(send_receive_buffer, "send_receive_buffer");
    const int world = rabit::GetWorldSize();
    if (root < 0 || root >= world) {
      throw ApiError("root: " + std::to_string(root) + " is not a rank (world size " +
                     std::to_string(world) + ")");
    }
    rabit::Broadcast(send_receive_buffer, size, root);
  });
}

XGB_DLL int XGCommunicatorAllreduce(void* send_receive_buffer, size_t count, int data_type,
                                    int op) {
  return ApiCall("XGCommunicatorAllreduce", [&] {
    if (count > 0) NotNull(send_receive_buffer, "send_receive_buffer");
    if (op < kMax || op > kBitXor) {
      throw ApiError("op: " + std::to_string(op) +
                     " is not an operation (0 max, 1 min, 2 sum, 3 bitwise and, 4 bitwise or, "
                     "5 bitwise xor)");
    }
    void* buf = send_receive_buffer;
    switch (data_type) {
      case kInt8:
        return Reduce<std::int8_t>(buf, count, op);
      case kUInt8:
        return Reduce<std::uint8_t>(buf, count, op);
      case kInt32:
        return Reduce<std::int32_t>(buf, count, op);
      case kUInt32:
        return Reduce<std::uint32_t>(buf, count, op);
      case kInt64:
        return Reduce<std::int64_t>(buf, count, op);
      case kUInt64:
        return Reduce<std::uint64_t>(buf, count, op);
      case kFloat:
        return Reduce<float>(buf, count, op);
      case kDouble:
        return Reduce<double>(buf, count, op);
      default:
        throw ApiError("data_type: " + std::to_string(data_type) +
                       " is not a data type (0 int8, 1 uint8, 2 int32, 3 uint32, 4 int64, "
                       "5 uint64, 6 float, 7 double)");
    }
  });
}
