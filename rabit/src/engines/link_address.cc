#include "rabit/link_address.h"

#include <mutex>

#include "engines/engine.h"

namespace rabit {
namespace {

std::mutex address_mutex;
std::string& Address() {
  static std::string address;
  return address;
}

}  // namespace

std::string LinkAddress() {
  std::lock_guard<std::mutex> lock(address_mutex);
  return Address();
}

namespace engine {

void SetLinkAddress(const std::string& host) {
  std::lock_guard<std::mutex> lock(address_mutex);
  Address() = host;
}

}  // namespace engine
}  // namespace rabit
