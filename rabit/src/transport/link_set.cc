#include "transport/link_set.h"

#include <netinet/in.h>
#include <sys/socket.h>

#include <algorithm>
#include <cstring>

namespace rabit::transport {

std::vector<int> Topology::TreeNeighbours() const {
  std::vector<int> out;
  if (parent >= 0) out.push_back(parent);
  out.insert(out.end(), children.begin(), children.end());
  return out;
}

std::vector<int> Topology::AllNeighbours() const {
  std::vector<int> out = TreeNeighbours();
  for (int peer : {ring_prev, ring_next}) {
    if (peer >= 0 && peer != rank && std::find(out.begin(), out.end(), peer) == out.end()) {
      out.push_back(peer);
    }
  }
  return out;
}

Link* LinkSet::ToPeer(int peer) {
  for (Link& link : links_) {
    if (link.peer == peer) return &link;
  }
  return nullptr;
}

void LinkSet::CloseAll() {
  for (Link& link : links_) link.socket.Close();
}

bool LinkEndsShareAnAddress(const Link* link) {
  if (link == nullptr) return false;
  sockaddr_storage local{}, remote{};
  socklen_t local_len = sizeof local, remote_len = sizeof remote;
  if (getsockname(link->socket.fd(), reinterpret_cast<sockaddr*>(&local), &local_len) != 0 ||
      getpeername(link->socket.fd(), reinterpret_cast<sockaddr*>(&remote), &remote_len) != 0 ||
      local.ss_family != remote.ss_family) {
    return false;
  }
  if (local.ss_family == AF_INET) {
    return reinterpret_cast<const sockaddr_in&>(local).sin_addr.s_addr ==
           reinterpret_cast<const sockaddr_in&>(remote).sin_addr.s_addr;
  }
  if (local.ss_family == AF_INET6) {
    return std::memcmp(&reinterpret_cast<const sockaddr_in6&>(local).sin6_addr,
                       &reinterpret_cast<const sockaddr_in6&>(remote).sin6_addr,
                       sizeof(in6_addr)) == 0;
  }
  return false;
}

}  // namespace rabit::transport
