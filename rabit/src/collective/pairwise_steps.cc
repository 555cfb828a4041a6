// The step runner of the recursive allreduces (recursive_allreduce.cc): each step is a two-way
// exchange with one partner, both directions at once. Within a step the incoming range is reduced
// through the small circular window (windowed_reduction.cc) or copied straight into place, and the
// send runs at most ReduceSpec::send_ahead_bytes beyond what has arrived.
//
// Consecutive steps overlap by one: once a step's send has gone, the next step's send starts, and
// it sends each byte as soon as no unfinished receive will still write it (the range the current
// step is reducing streams on as it is reduced: halving's next half, doubling's next whole vector,
// the allgather's first half at two ranks). Receives stay in order, one window at a time, so every
// byte is reduced with the same operands in the same order as without the overlap: results do not
// change. Each link carries its steps' bytes in schedule order, which both partners share.
//
// A step whose ranges coincide (recursive doubling: both partners send everything) may reduce a
// byte only after the kernel took our copy of it, since the partner needs our value, not the sum.
#include <algorithm>

#include "collective/algorithms.h"

namespace rabit::collective {

using transport::Channel;
using transport::Exchange;
using transport::Flow;

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
  std::size_t receiving = 0;  // the step whose receive is under way
  std::size_t sending = 0;    // the step whose send is under way: receiving or receiving + 1
  WindowedReduction in;

  const PairwiseStep& at(std::size_t i) const { return (*steps)[i]; }
  const ReduceSpec& SpecOf(std::size_t i) const { return at(i).peer_on_left ? right : left; }

  void StartSend() {
    const PairwiseStep& s = at(sending);
    ex->SetSend(channels[sending], Flow{buf, 0, s.send_begin, s.send_bytes, 0, 0});
  }

  void StartRecv() {
    const PairwiseStep& s = at(receiving);
    Channel* ch = channels[receiving];
    if (s.reduce) {
      in = WindowedReduction::Start(buf + s.recv_begin, s.recv_bytes, SpecOf(receiving), *scratch);
      ex->SetRecv(ch, in.RecvFlow());
    } else {
      ex->SetRecv(ch, Flow{buf + s.recv_begin, 0, 0, s.recv_bytes, s.recv_bytes, 0});
    }
  }

  // Prefix of the receiving step's range that holds its final values.
  std::size_t Finished() const {
    return at(receiving).reduce ? in.reduced : channels[receiving]->recv.done;
  }

  // True when the receiving step's receive is complete.
  bool Received() {
    const PairwiseStep& s = at(receiving);
    Channel* ch = channels[receiving];
    if (!s.reduce) return ch->recv.done == s.recv_bytes;
    std::size_t allowed = SIZE_MAX;
    if (Overlap(s) && sending == receiving) {
      allowed = ch->send.done / left.element_bytes * left.element_bytes;
    }
    return in.Advance(ch->recv, SpecOf(receiving), allowed);
  }

  // How far the sending step's stream may go: up to the first byte an unfinished receive will
  // still write, and paced against its own receive.
  std::size_t SendLimit() const {
    const PairwiseStep& s = at(sending);
    std::size_t ready = s.send_bytes;
    std::size_t recv_done = channels[sending]->recv.done;
    if (sending != receiving) {
      const PairwiseStep& r = at(receiving);
      const std::size_t pending_begin = r.recv_begin + Finished();
      const std::size_t pending_end = r.recv_begin + r.recv_bytes;
      const bool disjoint = pending_begin >= pending_end || s.send_begin >= pending_end ||
                            s.send_begin + s.send_bytes <= pending_begin;
      if (!disjoint) ready = pending_begin > s.send_begin ? pending_begin - s.send_begin : 0;
      recv_done = 0;  // its receive has not started
    }
    return std::min(ready,
                    PacedSendLimit(s.send_bytes, recv_done, s.recv_bytes, left.send_ahead_bytes));
  }

  void Advance() {
    for (;;) {
      const bool received = Received();
      if (received && receiving < sending) {
        ++receiving;
        StartRecv();
        continue;
      }
      Channel* ch = channels[sending];
      ch->send.limit = SendLimit();
      if (ch->send.done < at(sending).send_bytes || sending != receiving ||
          sending + 1 == steps->size()) {
        return;
      }
      ++sending;
      StartSend();
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
  run.StartSend();
  run.StartRecv();
  return ex.Run([&] { run.Advance(); });
}

}  // namespace rabit::collective
