// The untemplated parts of rabit/comm.h, shared by every Comm implementation.
#include "rabit/comm.h"

namespace rabit {

std::size_t DataTypeSize(DataType type) {
  switch (type) {
    case DataType::kInt8:
    case DataType::kUInt8:
      return 1;
    case DataType::kInt16:
    case DataType::kUInt16:
      return 2;
    case DataType::kInt32:
    case DataType::kUInt32:
    case DataType::kFloat:
      return 4;
    case DataType::kInt64:
    case DataType::kUInt64:
    case DataType::kDouble:
      return 8;
  }
  return 0;
}

void Comm::Broadcast(std::string* data, int root) {
  std::uint64_t n = data->size();
  BroadcastBytes(&n, sizeof(n), root);
  data->resize(n);
  if (n != 0) BroadcastBytes(data->data(), n, root);
}

}  // namespace rabit
