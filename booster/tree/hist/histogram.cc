#include "booster/tree/hist/histogram.h"

#include <algorithm>
#include <cstring>

#include "base/parallel_for.h"
#include "booster/work_split.h"

namespace treering::booster {
namespace {

// Rows of a deep node are scattered over the matrix: fetch the bins and gradient of the row
// this many positions ahead so the loads overlap instead of stalling one by one (8 and 32
// measured slower on higgs1m). A dense row of 28 bytes straddles two cache lines 42 % of the
// time: both ends are fetched.
constexpr std::ptrdiff_t kPrefetchRows = 16;

// Four rows a pass over the features: a feature's four updates are independent (the cells are
// integers, so their order does not change a bit), which gives the core four histogram loads to
// wait on at once. treering-hist-bench on higgs1m, CPU ms, alternating runs: one row a pass
// root 25.8-29.7 / levels 138-145, two rows 23.4-27.0 / 117-135, four rows 22.0-26.1 / 112-128.
constexpr std::ptrdiff_t kRowsPerPass = 4;

// One cell update of the fixed-width kernels below (the row-by-row and the tiled one): with
// kSlots, a nearly full sparse row's slot holding `missing` (an absent feature) adds nothing;
// dense rows have no such slot. Inlined, so each kernel's loop is as if written out.
template <bool kSlots, typename Bin>
inline void AddToBin(GradientPairInt* base, Bin bin, Bin missing, const GradientPairInt& g) {
  if (!kSlots || bin != missing) base[bin] += g;
}

// A row's bins per cache line: the kernels fetch every line a scattered row spans.
template <typename Bin>
constexpr std::size_t kBinsPerLine = 64 / sizeof(Bin);

// Rows of one fixed-width record of bins per row: dense rows (every feature present) or, with
// kSlots, nearly full sparse rows as one slot per feature (BinnedMatrix::RowSlots8/16) whose
// absent features hold `missing` (1-2 % of slots on the ranking set: the branch is predicted).
// A row of 50 uint16 slots spans two or three cache lines; all of a row's lines are fetched.
template <bool kSlots, typename Bin>
GradientPairInt AccumulateFixed(const Bin* bins, Bin missing, std::uint32_t nf,
                                const std::uint32_t* offsets, const GradientPair* gpair,
                                const GradientQuantiser& quantiser, const std::uint32_t* begin,
                                const std::uint32_t* end, GradientPairInt* hist) {
  GradientPairInt sum;
  const std::uint32_t* it = begin;
  for (; end - it >= kRowsPerPass; it += kRowsPerPass) {
    if (end - it > kPrefetchRows + kRowsPerPass - 1) {
      for (int k = 0; k < kRowsPerPass; ++k) {
        const Bin* ahead = bins + std::size_t(it[kPrefetchRows + k]) * nf;
        for (std::size_t j = 0; j < nf; j += kBinsPerLine<Bin>) __builtin_prefetch(ahead + j);
        __builtin_prefetch(ahead + nf - 1);
        __builtin_prefetch(gpair + it[kPrefetchRows + k]);
      }
    }
    GradientPairInt g[kRowsPerPass];
    const Bin* b[kRowsPerPass];
    for (int k = 0; k < kRowsPerPass; ++k) {
      g[k] = quantiser.Quantise(gpair[it[k]]);
      sum += g[k];
      b[k] = bins + std::size_t(it[k]) * nf;
    }
    for (std::uint32_t f = 0; f < nf; ++f) {
      GradientPairInt* base = hist + offsets[f];
      for (int k = 0; k < kRowsPerPass; ++k) AddToBin<kSlots>(base, b[k][f], missing, g[k]);
    }
  }
  for (; it != end; ++it) {  // the last rows, one at a time
    const GradientPairInt g = quantiser.Quantise(gpair[*it]);
    sum += g;
    const Bin* row = bins + std::size_t(*it) * nf;
    for (std::uint32_t f = 0; f < nf; ++f) AddToBin<kSlots>(hist + offsets[f], row[f], missing, g);
  }
  return sum;
}

// The same for rows scattered over the matrix (a deep node's): a tile of rows at a time, in two
// passes. The gather copies the tile's bins into a small buffer and quantises its pairs; the
// updates then go feature by feature, four features at once, so each feature's slice of the
// histogram (256 bins x 16 bytes = 4 KB) stays in L1 for the whole tile, and the next tile's
// rows are fetched meanwhile (their loads overlap the updates instead of queueing behind each
// other in the gather). Four features interleaved keep independent updates in flight when a
// feature's consecutive rows share a bin (a node's split features concentrate its rows in a
// few bins). The cells are integers, so the order changes no bit. Only for scattered rows:
// on near-consecutive rows (the root, shallow nodes) the row-by-row kernel above was faster
// (its loads are sequential and cheap, the tile's copy is not); see kScatteredSpan.
constexpr std::size_t kTileRows = 512;
// Wide rows take fewer rows a tile, so the tile's bins stay within L1 (28 one-byte bins: 512).
constexpr std::size_t kTileBytes = 16 << 10;
// Rows spanning more than this many times their count take the tiled kernel (a standalone A/B
// of the two kernels on 1M x 28 rows, min of 10: at 1/8 of the rows the tiled one was 8 %
// slower, at 1/32 equal, at 1/64 13 % and at 1/128 23 % faster).
constexpr std::size_t kScatteredSpan = 32;

// A row's bins into the tile: 16-byte moves, the last one overlapping (a call to memcpy for
// 28 bytes cost as much as the copy).
inline void CopyRow(unsigned char* dst, const unsigned char* src, std::size_t len) {
  if (len < 16) {
    std::memcpy(dst, src, len);
    return;
  }
  for (std::size_t j = 0; j + 16 < len; j += 16) std::memcpy(dst + j, src + j, 16);
  std::memcpy(dst + len - 16, src + len - 16, 16);
}

template <bool kSlots, typename Bin>
GradientPairInt AccumulateTiled(const Bin* bins, Bin missing, std::uint32_t nf,
                                const std::uint32_t* offsets, const GradientPair* gpair,
                                const GradientQuantiser& quantiser, const std::uint32_t* begin,
                                const std::uint32_t* end, GradientPairInt* hist) {
  const std::size_t row_bytes = nf * sizeof(Bin);
  thread_local std::vector<Bin> tile_bins;
  thread_local std::vector<GradientPairInt> tile_pairs;
  const std::size_t tile_rows =
      std::clamp<std::size_t>(kTileBytes / (std::size_t(nf) * sizeof(Bin) + 1), 16, kTileRows);
  tile_bins.resize(tile_rows * nf);
  tile_pairs.resize(tile_rows);
  Bin* tb = tile_bins.data();
  GradientPairInt* tq = tile_pairs.data();
  // The next tile's rows are fetched during this tile's updates, spread over its first three
  // passes (a row's first line, its pair, its last line), so the loads overlap the updates
  // instead of queueing behind each other in the gather. With fewer than 12 features the
  // gather fetches kPrefetchRows ahead itself.
  const bool fetch_in_updates = nf >= 12;
  const auto fetch = [&](std::uint32_t row, std::uint32_t pass) {
    const Bin* r = bins + std::size_t(row) * nf;
    if (pass == 0) __builtin_prefetch(r);
    if (pass == 1) __builtin_prefetch(gpair + row);
    if (pass == 2) {
      for (std::size_t j = kBinsPerLine<Bin>; j < nf; j += kBinsPerLine<Bin>)
        __builtin_prefetch(r + j);
      __builtin_prefetch(r + nf - 1);
    }
  };
  GradientPairInt sum;
  bool fetched = false;
  for (const std::uint32_t* tile = begin; tile != end;) {
    const std::size_t n = std::min<std::size_t>(tile_rows, std::size_t(end - tile));
    for (std::size_t k = 0; k < n; ++k) {
      if (!fetched && tile + k + kPrefetchRows < end) {
        const std::uint32_t ahead = tile[k + kPrefetchRows];
        for (std::uint32_t pass = 0; pass < 3; ++pass) fetch(ahead, pass);
      }
      const std::uint32_t row = tile[k];
      tq[k] = quantiser.Quantise(gpair[row]);
      sum += tq[k];
      CopyRow(reinterpret_cast<unsigned char*>(tb + k * nf),
              reinterpret_cast<const unsigned char*>(bins + std::size_t(row) * nf), row_bytes);
    }
    const std::uint32_t* next = tile + n;
    const std::size_t next_n = std::min<std::size_t>(tile_rows, std::size_t(end - next));
    fetched = fetch_in_updates;
    std::uint32_t f = 0;
    for (; f + 4 <= nf; f += 4) {
      GradientPairInt* h0 = hist + offsets[f];
      GradientPairInt* h1 = hist + offsets[f + 1];
      GradientPairInt* h2 = hist + offsets[f + 2];
      GradientPairInt* h3 = hist + offsets[f + 3];
      const Bin* b = tb + f;
      const std::uint32_t pass = f / 4;
      const bool fetching = fetched && pass < 3;
      for (std::size_t k = 0; k < n; ++k, b += nf) {
        if (fetching && k < next_n) fetch(next[k], pass);
        const GradientPairInt g = tq[k];
        AddToBin<kSlots>(h0, b[0], missing, g);
        AddToBin<kSlots>(h1, b[1], missing, g);
        AddToBin<kSlots>(h2, b[2], missing, g);
        AddToBin<kSlots>(h3, b[3], missing, g);
      }
    }
    for (; f < nf; ++f) {
      GradientPairInt* h = hist + offsets[f];
      const Bin* b = tb + f;
      for (std::size_t k = 0; k < n; ++k, b += nf) AddToBin<kSlots>(h, *b, missing, tq[k]);
    }
    tile = next;
  }
  return sum;
}

// A sparse row's entries update cells scattered over a multi-MB histogram (Fashion-MNIST:
// 3.1 MB, 1 MB of L2), and the kernel waits on those loads (perf annotate: ~60 % of its
// samples on the add after the cell's load; the bin loads are sequential and cheap). The cell
// this many entries ahead is prefetched for writing. treering-hist-bench, Fashion levels,
// CPU ms (min of 5, 4 alternations, load 15-21): none 255-380, 16 ahead 189-328, 32 ahead
// 177-284 (docs/learner.md, "Wide sparse data").
constexpr std::uint64_t kPrefetchCells = 32;

GradientPairInt AccumulateSparse(const std::uint64_t* row_ptr, const std::uint32_t* bins,
                                 const GradientPair* gpair, const GradientQuantiser& quantiser,
                                 const std::uint32_t* begin, const std::uint32_t* end,
                                 GradientPairInt* hist) {
  GradientPairInt sum;
  for (const std::uint32_t* it = begin; it != end; ++it) {
    if (end - it > kPrefetchRows) {
      __builtin_prefetch(bins + row_ptr[it[kPrefetchRows]]);
      __builtin_prefetch(gpair + it[kPrefetchRows]);
    }
    const std::uint32_t row = *it;
    const GradientPairInt g = quantiser.Quantise(gpair[row]);
    sum += g;
    const std::uint64_t first = row_ptr[row], last = row_ptr[row + 1];
    std::uint64_t j = first;
    for (; j + kPrefetchCells < last; ++j) {
      __builtin_prefetch(hist + bins[j + kPrefetchCells], 1);
      hist[bins[j]] += g;
    }
    for (; j < last; ++j) hist[bins[j]] += g;
  }
  return sum;
}

}  // namespace

GradientPairInt HistogramBuilder::AccumulateRows(const std::vector<GradientPair>& gpair,
                                                 const GradientQuantiser& quantiser,
                                                 const std::uint32_t* begin,
                                                 const std::uint32_t* end,
                                                 GradientPairInt* hist) const {
  const auto& m = *matrix_;
  const std::uint32_t* offsets = m.FeatureOffsets().data();
  // Rows ascend within a node; they are scattered when they span many times their count.
  const std::size_t n = std::size_t(end - begin);
  const bool scattered = n > 0 && std::size_t(end[-1] - begin[0]) > kScatteredSpan * n;
  switch (m.layout()) {
    case BinnedMatrix::Layout::kDense8:
      return scattered ? AccumulateTiled<false>(m.Dense8(), std::uint8_t{0}, m.NumFeatures(),
                                                offsets, gpair.data(), quantiser, begin, end, hist)
                       : AccumulateFixed<false>(m.Dense8(), std::uint8_t{0}, m.NumFeatures(),
                                                offsets, gpair.data(), quantiser, begin, end, hist);
    case BinnedMatrix::Layout::kDense16:
      return scattered ? AccumulateTiled<false>(m.Dense16(), std::uint16_t{0}, m.NumFeatures(),
                                                offsets, gpair.data(), quantiser, begin, end, hist)
                       : AccumulateFixed<false>(m.Dense16(), std::uint16_t{0}, m.NumFeatures(),
                                                offsets, gpair.data(), quantiser, begin, end, hist);
    case BinnedMatrix::Layout::kSparse:
      if (m.RowSlots8() != nullptr) {
        return AccumulateFixed<true>(m.RowSlots8(), BinnedMatrix::kMissingSlot8, m.NumFeatures(),
                                     offsets, gpair.data(), quantiser, begin, end, hist);
      }
      if (m.RowSlots16() != nullptr) {
        return AccumulateFixed<true>(m.RowSlots16(), BinnedMatrix::kMissingSlot16, m.NumFeatures(),
                                     offsets, gpair.data(), quantiser, begin, end, hist);
      }
      return AccumulateSparse(m.RowPtr(), m.SparseBins(), gpair.data(), quantiser, begin, end,
                              hist);
  }
  return {};
}

// Where the level's concatenated row lists are cut into `threads` shares (positions in that
// concatenation). Dense rows cost the same, so equal row counts; sparse CSR rows by their stored
// entries, because a split often separates long rows from short ones (Fashion-MNIST: a coat
// has several times a sandal's pixels) and equal row counts then left one thread waiting.
std::vector<std::size_t> HistogramBuilder::ShareBounds(const std::vector<RowSpan>& rows,
                                                       const std::vector<std::size_t>& prefix,
                                                       int threads) const {
  const std::size_t total = prefix.back();
  std::vector<std::size_t> cuts(threads + 1);
  for (int t = 0; t <= threads; ++t) cuts[t] = total * t / threads;
  // Row slots (nearly full sparse rows) cost the same per row, as dense rows do; counting a
  // level's entries is a serial pass over its rows (~2 % of the ranking run's wall time).
  const bool equal_rows = matrix_->layout() != BinnedMatrix::Layout::kSparse ||
                          matrix_->RowSlots8() != nullptr || matrix_->RowSlots16() != nullptr;
  if (equal_rows || threads == 1) return cuts;
  const std::uint64_t* row_ptr = matrix_->RowPtr();
  std::uint64_t entries = 0;
  for (const RowSpan& span : rows) {
    for (const std::uint32_t* r = span.begin; r != span.end; ++r) {
      entries += row_ptr[*r + 1] - row_ptr[*r];
    }
  }
  // Share t starts at the first position whose preceding rows hold entries * t / threads.
  std::uint64_t seen = 0;
  int next = 1;
  for (std::size_t i = 0; i < rows.size() && next < threads; ++i) {
    for (std::size_t k = 0; k < rows[i].size() && next < threads; ++k) {
      while (next < threads && seen >= entries * std::uint64_t(next) / threads) {
        cuts[next++] = prefix[i] + k;
      }
      const std::uint32_t r = rows[i].begin[k];
      seen += row_ptr[r + 1] - row_ptr[r];
    }
  }
  while (next < threads) cuts[next++] = total;
  return cuts;
}

// One thread's share [begin, end) of the level's concatenated row lists.
GradientPairInt HistogramBuilder::AccumulateShare(
    const std::vector<GradientPair>& gpair, const GradientQuantiser& quantiser,
    const std::vector<RowSpan>& rows, const std::vector<std::size_t>& prefix, std::size_t begin,
    std::size_t end, const std::vector<Histogram*>& outs, std::vector<Histogram>* buffers,
    std::vector<Partial>* partials) const {
  GradientPairInt sum;
  std::size_t node = std::upper_bound(prefix.begin(), prefix.end(), begin) - prefix.begin() - 1;
  for (; node < rows.size() && prefix[node] < end; ++node) {
    const std::size_t lo = std::max(begin, prefix[node]);
    const std::size_t hi = std::min(end, prefix[node + 1]);
    if (lo >= hi) continue;
    // Zeroed here, just before the rows are added, by the thread that adds them, so the
    // histogram's lines are in this core's cache for the updates (zeroing all of a level's
    // histograms up front, 64 x 114 KB at higgs1m's deepest level, left most evicted again).
    GradientPairInt* target = nullptr;
    if (lo == prefix[node]) {  // the share holding the node's first row owns its histogram
      outs[node]->assign(total_bins_, GradientPairInt{});
      target = outs[node]->data();
    } else {
      const std::size_t slot = partials->size();
      if (buffers->size() <= slot) buffers->emplace_back();
      (*buffers)[slot].assign(total_bins_, GradientPairInt{});
      partials->push_back({node, slot});
      target = (*buffers)[slot].data();
    }
    sum += AccumulateRows(gpair, quantiser, rows[node].begin + (lo - prefix[node]),
                          rows[node].begin + (hi - prefix[node]), target);
  }
  return sum;
}

GradientPairInt HistogramBuilder::Build(const std::vector<GradientPair>& gpair,
                                        const GradientQuantiser& quantiser,
                                        const std::vector<RowSpan>& rows,
                                        const std::vector<Histogram*>& outs) {
  std::vector<std::size_t> prefix(rows.size() + 1, 0);
  for (std::size_t i = 0; i < rows.size(); ++i) prefix[i + 1] = prefix[i] + rows[i].size();
  const std::size_t total = prefix.back();
  const std::size_t per_row = std::max<std::size_t>(1, matrix_->EntriesPerRow());
  const int threads = ResolveThreads(ThreadsFor(total * per_row, ctx_.Threads()));
  std::vector<std::vector<Partial>> partials(threads);
  std::vector<GradientPairInt> sums(threads);
  if (partial_buffers_.size() < static_cast<std::size_t>(threads)) partial_buffers_.resize(threads);
  const std::vector<std::size_t> cuts = ShareBounds(rows, prefix, threads);
  ParallelFor(threads, threads, [&](int t) {
    sums[t] = AccumulateShare(gpair, quantiser, rows, prefix, cuts[t], cuts[t + 1], outs,
                              &partial_buffers_[t], &partials[t]);
  });
  // Nodes cut between shares: the owner wrote its part in place, the others' parts are added,
  // bins split between the threads (a cut Fashion-MNIST node is 3.2 MB; added by one thread,
  // the other waited).
  std::vector<std::pair<GradientPairInt*, const GradientPairInt*>> adds;
  for (int t = 0; t < threads; ++t) {
    for (const Partial& p : partials[t]) {
      adds.emplace_back(outs[p.node]->data(), partial_buffers_[t][p.slot].data());
    }
  }
  if (!adds.empty()) {
    ParallelForBlocks(total_bins_, ThreadsFor(adds.size() * total_bins_, ctx_.Threads()),
                      [&](int, std::int64_t begin, std::int64_t end) {
                        for (const auto& [out, part] : adds) {
                          for (std::int64_t b = begin; b < end; ++b) out[b] += part[b];
                        }
                      });
  }
  for (std::size_t i = 0; i < outs.size(); ++i) {
    if (rows[i].size() == 0) outs[i]->assign(total_bins_, GradientPairInt{});
  }
  GradientPairInt sum;  // integers: the same whatever the thread split
  for (const GradientPairInt& s : sums) sum += s;
  return sum;
}

GradientPairInt HistogramBuilder::BuildRoot(const std::vector<GradientPair>& gpair,
                                            const GradientQuantiser& quantiser, RowSpan all,
                                            Histogram* out) {
  if (matrix_->layout() == BinnedMatrix::Layout::kSparse && all.size() == matrix_->NumRows()) {
    return BuildRootByColumns(gpair, quantiser, out);
  }
  return Build(gpair, quantiser, {all}, {out});
}

// Row by row, a sparse root's updates land all over its histogram (Fashion-MNIST: 784
// features x 256 bins x 16 bytes = 3.2 MB, beyond L2, so most updates waited for L3). Feature
// by feature from the column copy, the updates stay in the feature's 4 KB slice (L1) and the
// rows' pairs, quantised once into 16 bytes per row (0.96 MB for 60 K rows), are read in
// ascending order. Each slice has one writer: no partial histograms to add up.
GradientPairInt HistogramBuilder::BuildRootByColumns(const std::vector<GradientPair>& gpair,
                                                     const GradientQuantiser& quantiser,
                                                     Histogram* out) {
  const BinnedMatrix& m = *matrix_;
  const std::size_t rows = m.NumRows();
  quantised_.resize(rows);
  const int threads = ResolveThreads(ThreadsFor(rows * m.EntriesPerRow(), ctx_.Threads()));
  std::vector<GradientPairInt> sums(threads);
  ParallelForBlocks(static_cast<std::int64_t>(rows), threads,
                    [&](int t, std::int64_t begin, std::int64_t end) {
                      GradientPairInt sum;
                      for (std::int64_t r = begin; r < end; ++r) {
                        quantised_[r] = quantiser.Quantise(gpair[r]);
                        sum += quantised_[r];
                      }
                      sums[t] = sum;
                    });
  out->resize(total_bins_);
  const std::uint32_t* offsets = m.FeatureOffsets().data();
  // A feature's values cluster in a few bins, so consecutive entries often update the same
  // bin: one copy would chain every such update through store-to-load forwarding. Entry k
  // goes to copy k % kCopies, and the copies (4 x 4 KB, in L1) are added up at the end.
  constexpr std::size_t kCopies = 4;
  ParallelForDynamic(m.NumFeatures(), threads, [&](std::uint32_t f) {
    const std::uint32_t bins = offsets[f + 1] - offsets[f];
    std::vector<GradientPairInt> copies(kCopies * bins);
    GradientPairInt* c[kCopies];
    for (std::size_t i = 0; i < kCopies; ++i) c[i] = copies.data() + i * bins;
    const BinnedMatrix::Column col = m.FeatureColumn(f);
    const GradientPairInt* q = quantised_.data();
    col.WithBins([&](const auto* col_bins) {
      std::size_t k = 0;
      for (; k + kCopies <= col.size; k += kCopies) {
        for (std::size_t i = 0; i < kCopies; ++i) c[i][col_bins[k + i]] += q[col.rows[k + i]];
      }
      for (; k < col.size; ++k) c[0][col_bins[k]] += q[col.rows[k]];
    });
    GradientPairInt* slice = out->data() + offsets[f];
    for (std::uint32_t b = 0; b < bins; ++b) {
      GradientPairInt total = c[0][b];
      for (std::size_t i = 1; i < kCopies; ++i) total += c[i][b];
      slice[b] = total;
    }
  });
  GradientPairInt sum;  // integers: the same whatever the thread split
  for (const GradientPairInt& s : sums) sum += s;
  return sum;
}

void HistogramBuilder::Subtract(const std::vector<const Histogram*>& parents,
                                const std::vector<const Histogram*>& children,
                                const std::vector<Histogram*>& outs) const {
  for (Histogram* out : outs) out->resize(total_bins_);
  ParallelFor(outs.size(), ThreadsFor(outs.size() * std::size_t(total_bins_), ctx_.Threads()),
              [&](std::size_t i) {
                const Histogram &parent = *parents[i], &child = *children[i];
                Histogram& out = *outs[i];
                for (std::uint32_t b = 0; b < total_bins_; ++b) out[b] = parent[b] - child[b];
              });
}

}  // namespace treering::booster
