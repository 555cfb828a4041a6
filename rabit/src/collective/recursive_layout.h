// Who exchanges with whom in the recursive allreduces (recursive doubling, halving-doubling) at
// any world size, by Rabenseifner and Thakur's fold (Thakur, Rabenseifner & Gropp 2005, sec. 4):
// with p ranks, q the largest power of two <= p and e = p - q, each of the first e even ranks
// 2i folds its whole vector into rank 2i+1 (a ring neighbour) and sits out; the q "core" ranks
// (the odd ranks below 2e and every rank from 2e) run the power-of-two algorithm among
// themselves, core rank c pairing with c ^ 2^j at step j; then each 2i+1 sends the result back
// to 2i. Core ranks keep rank order, so every element is reduced along one fixed binary tree
// over ranks in rank order, ((r0 r1)(r2 r3))((r4 r5)(r6 r7)), lower ranks on the left, whatever
// the algorithm, the message size or the rank that computes it.
#pragma once

#include <vector>

namespace rabit::collective {

struct RecursiveLayout {
  int world = 1;
  int core = 1;    // q: the largest power of two <= world
  int folded = 0;  // e = world - q: ranks 0, 2, .., 2e-2 fold into their right neighbour

  static RecursiveLayout For(int world);
  int Steps() const;               // log2(core)
  bool SitsOut(int rank) const;    // folds its vector into rank + 1 and waits for the result
  bool TakesFold(int rank) const;  // receives rank - 1's vector first, returns the result last
  int CoreIndex(int rank) const;   // -1 for a rank that sits out
  int RankOfCore(int core_index) const;
};

// Every peer `rank` exchanges data with in either recursive algorithm (fold partner and the
// core partners), ascending. The links a LinkSet needs beyond the tree and the ring.
std::vector<int> RecursivePartners(int rank, int world);

}  // namespace rabit::collective
