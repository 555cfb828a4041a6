// Halving-doubling allreduce for a world of four (Rabenseifner's algorithm, as Open MPI's tuned
// module runs it between its small-message and ring ranges): a reduce-scatter by recursive
// halving, then an allgather by recursive doubling. Each rank sends and receives 3/4 of the
// message in each half, the ring's bytes, but in two pairwise exchange steps instead of three
// ring steps, and within a step both partners send at once (the pair exchange's advantage at
// two ranks). When four ranks share fewer cores, every ring hop waits for the receiver to be
// scheduled; here there are fewer hops.
//
// It needs no links beyond the ring's: the halves are assigned so that both partner pairs are
// ring neighbours. With segments s0..s3 (ceil(count/4) elements each, the last ones shorter):
//   step 1, partners 0-1 and 2-3: ranks 0 and 3 keep half A = s0 s1, ranks 1 and 2 half B = s2 s3;
//   step 2, partners 0-3 and 1-2: rank 0 keeps s0, rank 3 s1, rank 1 s2, rank 2 s3 (its own
//           segment, fully reduced);
//   step 3, the step-2 partners swap their segments; step 4, the step-1 partners swap halves.
// In each reduce step a rank sends what its partner keeps and reduces what arrives into what it
// keeps: disjoint ranges, so nothing sent is overwritten. As in the pair exchange, incoming
// bytes land in a small circular window (reduced while still in cache) and sends run at most
// kSendAheadBytes beyond what has arrived, so sending, receiving and reducing overlap. Every
// element's final value is computed by one rank only and copied to the others, so all ranks
// hold identical bits.
#include <algorithm>
#include <array>

#include "collective/algorithms.h"

namespace rabit::transport {
namespace {

struct Range {
  std::size_t begin = 0;
  std::size_t bytes = 0;
};

struct Step {
  Channel* peer = nullptr;
  Range send;
  Range recv;
  bool reduce = false;  // recv lands in scratch and is reduced into buf; else straight into buf
};

struct HalvingState {
  std::uint8_t* buf = nullptr;
  const ReduceSpec* spec = nullptr;
  ScratchArena* scratch = nullptr;
  std::array<Step, 4> steps;
  int current = 0;
  WindowedReduction in;  // a reduce step's incoming range
};

// Segment of rank r's final values, and the ranks' partners in steps 1 and 2.
constexpr std::array<int, 4> kOwnSegment = {0, 2, 3, 1};
constexpr std::array<int, 4> kFirstPartner = {1, 0, 3, 2};
constexpr std::array<int, 4> kSecondPartner = {3, 2, 1, 0};

void Start(Exchange& ex, HalvingState& st) {
  const Step& s = st.steps[st.current];
  ex.SetSend(s.peer, Flow{st.buf, 0, s.send.begin, s.send.bytes, 0, 0});
  if (s.reduce) {
    st.in = WindowedReduction::Start(st.buf + s.recv.begin, s.recv.bytes, *st.spec, *st.scratch);
    ex.SetRecv(s.peer, st.in.RecvFlow());
  } else {
    ex.SetRecv(s.peer, Flow{st.buf + s.recv.begin, 0, 0, s.recv.bytes, s.recv.bytes, 0});
  }
}

void Advance(Exchange& ex, HalvingState& st) {
  for (;;) {
    const Step& s = st.steps[st.current];
    const bool received =
        s.reduce ? st.in.Advance(s.peer->recv, *st.spec) : s.peer->recv.done == s.recv.bytes;
    s.peer->send.limit = PacedSendLimit(s.send.bytes, s.peer->recv.done, s.recv.bytes);
    if (!received || s.peer->send.done < s.send.bytes || st.current == 3) return;
    ++st.current;  // the next step sends what this one completed
    Start(ex, st);
  }
}

}  // namespace

treering::Status HalvingAllreduce(Exchange& ex, const Topology& topo, std::uint8_t* buf,
                                  std::size_t bytes, const ReduceSpec& spec,
                                  ScratchArena& scratch) {
  if (topo.world != 4) return treering::Status::Internal("halving allreduce needs a world of four");
  const int r = topo.rank;
  Channel* first = ex.To(kFirstPartner[r]);
  Channel* second = ex.To(kSecondPartner[r]);
  if (first == nullptr || second == nullptr) {
    return treering::Status::Internal("halving allreduce: ring links missing");
  }
  const std::size_t count = bytes / spec.element_bytes;
  const std::size_t step = (count + 3) / 4;
  std::array<std::size_t, 5> off{};
  for (std::size_t j = 0; j <= 4; ++j) off[j] = std::min(count, step * j) * spec.element_bytes;
  auto segment = [&](int j) { return Range{off[j], off[j + 1] - off[j]}; };
  auto span = [&](int j, int k) { return Range{off[j], off[k + 1] - off[j]}; };  // s_j..s_k
  const int own = kOwnSegment[r];
  const int partner_own = kOwnSegment[kSecondPartner[r]];
  const bool keeps_a = own < 2;
  const Range half = keeps_a ? span(0, 1) : span(2, 3);
  const Range other_half = keeps_a ? span(2, 3) : span(0, 1);

  HalvingState st;
  st.buf = buf;
  st.spec = &spec;
  st.scratch = &scratch;
  st.steps[0] = Step{first, other_half, half, true};
  st.steps[1] = Step{second, segment(partner_own), segment(own), true};
  st.steps[2] = Step{second, segment(own), segment(partner_own), false};
  st.steps[3] = Step{first, half, other_half, false};
  Start(ex, st);
  return ex.Run([&] { Advance(ex, st); });
}

}  // namespace rabit::transport
