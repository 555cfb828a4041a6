// Tree broadcast from any root: the root streams to all its tree neighbours; every other rank
// learns which neighbour is on the way to the root from the first op header that arrives (only
// that neighbour will ever send to it), streams from it into buf and forwards each received
// byte to its other neighbours at once (Rabit's flooding, pipelined).
#include "socket/algorithms.h"

namespace rabit::transport {
namespace {

struct BroadcastState {
  std::uint8_t* buf = nullptr;
  std::size_t bytes = 0;
  std::vector<Channel*> neighbours;
  Channel* from_root = nullptr;
};

// Once a header arrived on one link it is the one towards the root; the rest become outputs.
void PickInbound(Exchange& ex, BroadcastState& st) {
  for (Channel* ch : st.neighbours) {
    if (ch->HeaderArrived()) st.from_root = ch;
  }
  if (st.from_root == nullptr) return;
  st.from_root->recv.limit = st.bytes;
  for (Channel* ch : st.neighbours) {
    if (ch == st.from_root) continue;
    ex.CancelRecv(ch);
    ex.SetSend(ch, Flow{st.buf, 0, 0, st.bytes, 0, 0});
  }
}

void Forward(BroadcastState& st) {
  for (Channel* ch : st.neighbours) {
    if (ch != st.from_root) ch->send.limit = st.from_root->recv.done;
  }
}

}  // namespace

treering::Status TreeBroadcast(Exchange& ex, const Topology& topo, std::uint8_t* buf,
                               std::size_t bytes, int root) {
  BroadcastState st;
  st.buf = buf;
  st.bytes = bytes;
  for (int peer : topo.TreeNeighbours()) {
    Channel* ch = ex.To(peer);
    if (ch == nullptr) return treering::Status::Internal("no link to tree neighbour");
    st.neighbours.push_back(ch);
    if (topo.rank == root) {
      ex.SetSend(ch, Flow{buf, 0, 0, bytes, bytes, 0});
    } else {
      ex.SetRecv(ch, Flow{buf, 0, 0, bytes, 0, 0});  // header only until we know the inbound
    }
  }
  return ex.Run([&] {
    if (topo.rank == root) return;
    if (st.from_root == nullptr) PickInbound(ex, st);
    if (st.from_root != nullptr) Forward(st);
  });
}

}  // namespace rabit::transport
