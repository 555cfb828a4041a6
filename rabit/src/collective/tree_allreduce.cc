// Tree allreduce: every rank reduces its children's streams into its own buffer and streams the
// reduced prefix to its parent; the root's reduced prefix is the result, which flows back down
// into every buffer. Up and down traffic overlap, so latency is ~depth x chunk, not depth x size.
#include <algorithm>

#include "collective/algorithms.h"

namespace rabit::collective {

using transport::Channel;
using transport::Exchange;
using transport::Flow;
using transport::Topology;

namespace {

struct TreeReduceState {
  std::uint8_t* buf = nullptr;
  std::size_t bytes = 0;
  Channel* parent = nullptr;
  std::vector<Channel*> children;
  std::vector<std::uint8_t*> child_data;  // where each child's partial sums arrive
  std::size_t reduced = 0;                // prefix of buf holding this subtree's reduction
};

// Children send up their subtree's partial sums; the parent link carries ours up and the final
// result down (into buf: our partial sums there have already been sent up by then).
treering::Status StartFlows(Exchange& ex, const Topology& topo, TreeReduceState& st,
                            ScratchArena& scratch) {
  for (std::size_t i = 0; i < topo.children.size(); ++i) {
    Channel* ch = ex.To(topo.children[i]);
    if (ch == nullptr) return treering::Status::Internal("no link to tree child");
    st.children.push_back(ch);
    st.child_data.push_back(scratch.Get(i, st.bytes));
    ex.SetRecv(ch, Flow{st.child_data.back(), 0, 0, st.bytes, st.bytes, 0});
    ex.SetSend(ch, Flow{st.buf, 0, 0, st.bytes, 0, 0});
  }
  if (topo.parent >= 0) {
    st.parent = ex.To(topo.parent);
    if (st.parent == nullptr) return treering::Status::Internal("no link to tree parent");
    ex.SetSend(st.parent, Flow{st.buf, 0, 0, st.bytes, 0, 0});
    ex.SetRecv(st.parent, Flow{st.buf, 0, 0, st.bytes, 0, 0});
  }
  return treering::Status::Ok();
}

// Reduces what every child has delivered beyond the already reduced prefix.
void ReduceArrived(TreeReduceState& st, const ReduceSpec& spec) {
  std::size_t arrived = st.bytes;
  for (const Channel* ch : st.children) arrived = std::min(arrived, ch->recv.done);
  const std::size_t ready = ReducibleBytes(arrived, st.bytes, spec);
  if (ready <= st.reduced) return;
  const std::size_t count = (ready - st.reduced) / spec.element_bytes;
  for (const std::uint8_t* src : st.child_data) {
    spec.reduce(st.buf + st.reduced, src + st.reduced, count);
  }
  st.reduced = ready;
}

// Raises the flow limits: reduced bytes go up; final bytes go down once they arrived.
void ForwardResult(TreeReduceState& st) {
  std::size_t final_bytes = st.reduced;
  if (st.parent != nullptr) {
    st.parent->send.limit = st.reduced;
    // The parent's result overwrites our partial sums only where they have already gone up.
    st.parent->recv.limit = st.parent->send.done;
    final_bytes = st.parent->recv.done;
  }
  for (Channel* ch : st.children) ch->send.limit = final_bytes;
}

}  // namespace

std::size_t ReducibleBytes(std::size_t arrived, std::size_t total, const ReduceSpec& spec) {
  if (arrived >= total) return total;
  const std::size_t chunk =
      std::max(spec.element_bytes, spec.chunk_bytes / spec.element_bytes * spec.element_bytes);
  return arrived / chunk * chunk;
}

treering::Status TreeAllreduce(Exchange& ex, const Topology& topo, std::uint8_t* buf,
                               std::size_t bytes, const ReduceSpec& spec, ScratchArena& scratch) {
  TreeReduceState st;
  st.buf = buf;
  st.bytes = bytes;
  treering::Status started = StartFlows(ex, topo, st, scratch);
  if (!started.ok()) return started;
  return ex.Run([&] {
    ReduceArrived(st, spec);
    ForwardResult(st);
  });
}

}  // namespace rabit::collective
