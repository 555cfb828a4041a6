// The step runner of the recursive allreduces (recursive_allreduce.cc): steps run one after
// another, each a two-way exchange with one partner, both directions at once. Within a step the
// incoming range is reduced through the small circular window (windowed_reduction.cc) or copied
// straight into place, and the send runs at most kSendAheadBytes beyond what has arrived, so
// sending, receiving and reducing overlap (as in the two-rank exchanges they replaced).
//
// A step whose ranges coincide (recursive doubling: both partners send everything) may reduce a
// byte only after the kernel took our copy of it, since the partner needs our value, not the
// sum. A step ends when its receive is reduced or copied and its send has gone; the next step
// sends what this one produced.
#include <algorithm>

#include "collective/algorithms.h"

namespace rabit::transport {
namespace {

// Both ranges non-empty and at the same place: we send our values of what we reduce into.
bool Overlap(const PairwiseStep& s) {
  return s.send_bytes > 0 && s.recv_bytes > 0 && s.send_begin == s.recv_begin;
}

struct StepRunner {
  Exchange* ex = nullptr;
  std::uint8_t* buf = nullptr;
  const std::vector<PairwiseStep>* steps = nullptr;
  std::vector<Channel*> channels;  // per step
  ReduceSpec left;                 // our value on the left
  ReduceSpec right;                // the partner's value on the left
  ScratchArena* scratch = nullptr;
  std::size_t current = 0;
  WindowedReduction in;

  const PairwiseStep& step() const { return (*steps)[current]; }
  const ReduceSpec& spec() const { return step().peer_on_left ? right : left; }

  void Start() {
    const PairwiseStep& s = step();
    Channel* ch = channels[current];
    ex->SetSend(ch, Flow{buf, 0, s.send_begin, s.send_bytes, 0, 0});
    if (s.reduce) {
      in = WindowedReduction::Start(buf + s.recv_begin, s.recv_bytes, spec(), *scratch);
      ex->SetRecv(ch, in.RecvFlow());
    } else {
      ex->SetRecv(ch, Flow{buf + s.recv_begin, 0, 0, s.recv_bytes, s.recv_bytes, 0});
    }
  }

  // True when this step's receive is complete.
  bool Received(Channel* ch) {
    const PairwiseStep& s = step();
    if (!s.reduce) return ch->recv.done == s.recv_bytes;
    std::size_t allowed = SIZE_MAX;
    if (Overlap(s)) {
      allowed = ch->send.done / left.element_bytes * left.element_bytes;
    }
    return in.Advance(ch->recv, spec(), allowed);
  }

  void Advance() {
    for (;;) {
      const PairwiseStep& s = step();
      Channel* ch = channels[current];
      const bool received = Received(ch);
      ch->send.limit = PacedSendLimit(s.send_bytes, ch->recv.done, s.recv_bytes);
      if (!received || ch->send.done < s.send_bytes || current + 1 == steps->size()) return;
      ++current;
      Start();
    }
  }
};

// Ranges of one step either coincide or are disjoint (the runner relies on it).
bool WellFormed(const PairwiseStep& s) {
  if (Overlap(s)) return s.send_bytes == s.recv_bytes && s.reduce;
  return s.send_bytes == 0 || s.recv_bytes == 0 || s.send_begin + s.send_bytes <= s.recv_begin ||
         s.recv_begin + s.recv_bytes <= s.send_begin;
}

}  // namespace

treering::Status RunPairwiseSteps(Exchange& ex, std::uint8_t* buf,
                                  const std::vector<PairwiseStep>& steps, const ReduceSpec& spec,
                                  ScratchArena& scratch) {
  if (steps.empty()) return treering::Status::Ok();
  // Every channel first (To() may move earlier ones), so all op headers go out at once.
  for (const PairwiseStep& s : steps) {
    if (ex.To(s.peer) == nullptr) {
      return treering::Status::Internal(ex.OpName() + ": no link to rank " +
                                        std::to_string(s.peer) +
                                        " (recursive allreduce partners not linked)");
    }
    if (!WellFormed(s)) return treering::Status::Internal("overlapping pairwise step ranges");
  }
  if (spec.reduce_peer_first == nullptr) {
    return treering::Status::Internal("pairwise steps need both operand orders");
  }
  StepRunner run;
  run.ex = &ex;
  run.buf = buf;
  run.steps = &steps;
  for (const PairwiseStep& s : steps) run.channels.push_back(ex.To(s.peer));
  run.left = spec;
  run.right = spec;
  run.right.reduce = spec.reduce_peer_first;
  run.scratch = &scratch;
  run.Start();
  return ex.Run([&] { run.Advance(); });
}

}  // namespace rabit::transport
