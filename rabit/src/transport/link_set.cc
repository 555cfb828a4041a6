#include "transport/link_set.h"

#include <algorithm>

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

}  // namespace rabit::transport
