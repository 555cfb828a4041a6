// Tree broadcast from any root: data enters each rank from the tree neighbour on the path to the
// root and is forwarded to its other tree neighbours as it arrives (pipelined). The path is
// found from the whole tree's parent array (learnt once per link set), so no rank has to wait
// for data to discover it and every tree link still exchanges op headers both ways.
#include "collective/algorithms.h"

namespace rabit::collective {

using transport::Channel;
using transport::Exchange;
using transport::Flow;
using transport::Topology;

int NeighbourTowards(const Topology& topo, const std::vector<int>& parent_of, int root) {
  int below = -1;  // the previous rank on the walk up from root
  for (int v = root; v >= 0; v = parent_of[v]) {
    if (v == topo.rank) return below;  // root is in our subtree, under child `below`
    below = v;
  }
  return topo.parent;
}

treering::Status TreeBroadcast(Exchange& ex, const Topology& topo,
                               const std::vector<int>& parent_of, std::uint8_t* buf,
                               std::size_t bytes, int root) {
  const int inbound = topo.rank == root ? -1 : NeighbourTowards(topo, parent_of, root);
  Channel* from_root = nullptr;
  std::vector<Channel*> outputs;
  for (int peer : topo.TreeNeighbours()) {
    Channel* ch = ex.To(peer);
    if (ch == nullptr) return treering::Status::Internal("no link to tree neighbour");
    if (peer == inbound) {
      from_root = ch;
      ex.SetRecv(ch, Flow{buf, 0, 0, bytes, bytes, 0});
    } else {
      outputs.push_back(ch);
      ex.SetSend(ch, Flow{buf, 0, 0, bytes, topo.rank == root ? bytes : 0, 0});
    }
  }
  if (topo.rank != root && from_root == nullptr) {
    return treering::Status::Internal("broadcast: no tree link towards root " +
                                      std::to_string(root));
  }
  return ex.Run([&] {
    if (from_root == nullptr) return;
    for (Channel* ch : outputs) ch->send.limit = from_root->recv.done;
  });
}

}  // namespace rabit::collective
