// The split scan of one feature, 8 bins at a time (AVX-512), with the scalar scan's bits.
//
// Why: split evaluation was a quarter to a third of a boosting round (every bin of every
// feature of every node, both directions on sparse data), and the scalar scan is bound by the
// arithmetic of each candidate (4 int64 -> double conversions, a packed division, rounding to
// float, the compare). Lanes do the same IEEE operations in the same order as
// SplitEvaluator::GainSum, so every candidate's loss_chg has the same bits and the pick
// follows the scalar scan's preference order (see split_scan.cc).
#pragma once

#include <cstdint>

#include "booster/tree/hist/gradient_quantiser.h"

namespace treering::booster {

struct ScanConstants {
  double grad_unit;  // GradientQuantiser::Grad(q) = q * grad_unit
  double hess_unit;
  double alpha;      // reg_alpha
  double lambda;     // reg_lambda
  double min_child;  // min_child_weight
  float root_gain;   // Gain(node_sum), subtracted from every candidate
};

// The winners of one feature's two scans; bins are counted from the feature's first bin.
struct ScanPicks {
  GradientPairInt present;  // sum of the feature's bins (the node's rows that have it)
  // Forward scan (bins <= bin left, missing rows right): its first best candidate.
  float forward_loss = 0.0f;
  int forward_bin = -1;  // -1: no candidate with loss_chg > 0
  // Backward scan (bins >= bin right, missing rows left), run only if some rows are missing:
  // its first best in backward order, i.e. the highest bin of equal ones.
  float backward_loss = 0.0f;
  int backward_bin = -1;
};

// The vector scans' lane winner: the largest loss of the lanes that hold a bin (>= 0); of
// equal ones the lowest bin, or with `last` the highest (the backward scan's first best).
inline void ResolveLanes(const float* loss, const int* bin, int lanes, bool last, float* best_loss,
                         int* best_bin) {
  *best_loss = 0.0f;
  *best_bin = -1;
  for (int i = 0; i < lanes; ++i) {
    if (bin[i] < 0) continue;
    if (*best_bin < 0 || loss[i] > *best_loss ||
        (loss[i] == *best_loss && (last ? bin[i] > *best_bin : bin[i] < *best_bin))) {
      *best_loss = loss[i];
      *best_bin = bin[i];
    }
  }
}

// True on x86-64 CPUs with AVX-512 F, DQ and VL (8 bins at a time, split_scan.cc) or with
// AVX2 (4 at a time, split_scan_avx2.cc), and an OS that saves their registers.
bool HaveVectorSplitScan();

// Both scans over n bins; only when HaveVectorSplitScan() and max_delta_step == 0 (the
// weight-clipped gain is left to the scalar code). `floor`: a loss_chg some candidate of the
// node is known to reach (another feature's best; 0 if none). Blocks of bins that cannot
// reach it may be skipped (AVX-512), so a pick below it may not be the scan's own best, but a
// candidate that reaches or ties it is never skipped: the node's winner comes out the same.
ScanPicks VectorSplitScan(const GradientPairInt* bins, int n, GradientPairInt node_sum,
                          const ScanConstants& k, float floor);

// The AVX2 scan alone (no screening: every candidate computed); for tests on AVX-512 CPUs,
// which VectorSplitScan sends to the 8-lane scan. Only when HaveAvx2SplitScan().
bool HaveAvx2SplitScan();
ScanPicks SplitScanAvx2(const GradientPairInt* bins, int n, GradientPairInt node_sum,
                        const ScanConstants& k);

}  // namespace treering::booster
