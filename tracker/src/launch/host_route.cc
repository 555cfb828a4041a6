#include "host_route.h"

#include <arpa/inet.h>
#include <ifaddrs.h>
#include <netdb.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace treering::launch {
namespace {

std::string NumericAddress(const sockaddr* sa) {
  char buf[INET6_ADDRSTRLEN] = {};
  const void* bytes =
      sa->sa_family == AF_INET6
          ? static_cast<const void*>(&reinterpret_cast<const sockaddr_in6*>(sa)->sin6_addr)
          : static_cast<const void*>(&reinterpret_cast<const sockaddr_in*>(sa)->sin_addr);
  return ::inet_ntop(sa->sa_family, bytes, buf, sizeof(buf)) ? std::string(buf) : std::string();
}

// The address bytes of an AF_INET / AF_INET6 sockaddr, and their length.
const unsigned char* AddressBytes(const sockaddr* sa, int* len) {
  if (sa->sa_family == AF_INET6) {
    *len = 16;
    return reinterpret_cast<const sockaddr_in6*>(sa)->sin6_addr.s6_addr;
  }
  *len = 4;
  return reinterpret_cast<const unsigned char*>(
      &reinterpret_cast<const sockaddr_in*>(sa)->sin_addr);
}

}  // namespace

Result<std::string> RouteAddressTo(const Host& host) {
  addrinfo hints{};
  hints.ai_socktype = SOCK_DGRAM;
  addrinfo* found = nullptr;
  const std::string port = std::to_string(host.port);
  if (int rc = ::getaddrinfo(host.name.c_str(), port.c_str(), &hints, &found); rc != 0) {
    return Status::InvalidInput("host " + host.name + ": " + ::gai_strerror(rc));
  }
  std::string chosen, error = "no address";
  for (addrinfo* a = found; a != nullptr && chosen.empty(); a = a->ai_next) {
    const int fd = ::socket(a->ai_family, SOCK_DGRAM | SOCK_CLOEXEC, 0);
    if (fd < 0) continue;
    sockaddr_storage local{};
    socklen_t len = sizeof(local);
    if (::connect(fd, a->ai_addr, a->ai_addrlen) == 0 &&
        ::getsockname(fd, reinterpret_cast<sockaddr*>(&local), &len) == 0) {
      chosen = NumericAddress(reinterpret_cast<sockaddr*>(&local));
    } else {
      error = std::strerror(errno);
    }
    ::close(fd);
  }
  ::freeaddrinfo(found);
  if (chosen.empty()) return Status::IoError("no route to host " + host.name + ": " + error);
  return chosen;
}

Result<std::string> SubnetOf(const std::string& ip) {
  ifaddrs* list = nullptr;
  if (::getifaddrs(&list) != 0)
    return Status::IoError(std::string("getifaddrs: ") + std::strerror(errno));
  std::string subnet;
  for (ifaddrs* i = list; i != nullptr && subnet.empty(); i = i->ifa_next) {
    if (i->ifa_addr == nullptr || i->ifa_netmask == nullptr) continue;
    if (i->ifa_addr->sa_family != AF_INET && i->ifa_addr->sa_family != AF_INET6) continue;
    if (NumericAddress(i->ifa_addr) != ip) continue;
    int len = 0, mask_len = 0;
    const unsigned char* addr = AddressBytes(i->ifa_addr, &len);
    const unsigned char* mask = AddressBytes(i->ifa_netmask, &mask_len);
    sockaddr_storage net{};
    net.ss_family = i->ifa_addr->sa_family;
    unsigned char* out =
        const_cast<unsigned char*>(AddressBytes(reinterpret_cast<sockaddr*>(&net), &len));
    int prefix = 0;
    for (int b = 0; b < len; ++b) {
      out[b] = addr[b] & mask[b];
      prefix += __builtin_popcount(mask[b]);
    }
    subnet = NumericAddress(reinterpret_cast<sockaddr*>(&net)) + "/" + std::to_string(prefix);
  }
  ::freeifaddrs(list);
  if (subnet.empty()) return Status::InvalidInput("no interface holds the address " + ip);
  return subnet;
}

bool IsLoopback(const std::string& ip) { return ip == "::1" || ip.rfind("127.", 0) == 0; }

}  // namespace treering::launch
