// treering-hist-bench TRAIN [NTHREAD [REPEATS [lib|all [DEPTH]]]]: times the histogram builds of
// one tree on one loaded training file, apart from the rest of a round, so a change to the builder
// or the bin layout is measured on its own (issue 19 item 3, wide sparse data). Per repetition:
//   root      HistogramBuilder::BuildRoot over all rows (sparse data: column by column);
//   levels    Build for depths 1..DEPTH (default 5, at most 8), each level's smaller
//             children: every second node of a depth when rows are dealt to 2^depth nodes by
//             a hash (scattered rows, as deep nodes are; depth 8 gives the ranking set's
//             nodes of a few hundred rows);
// and, unless `lib` is given, measured alternatives that did not pay (docs/learner.md,
// "Wide sparse data"), run alternately with the library's builds so both meet the same load:
//   root_ref  the library's root kernel replicated here (a check that the A/B is fair);
//   root_runs the root from per-bin row runs (entries sorted by bin, runs summed);
//   levels_by_columns  each level from every feature's column at once for all its nodes.
// Prints min and median CPU milliseconds of the process (all threads; min is the steadier
// figure on a loaded machine), ns per stored entry, the histogram bytes written per tree, and
// hashes of the histograms: equal hashes before and after a change mean equal histograms
// (and so equal trees).
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <random>
#include <string>
#include <vector>

#include "booster/tree/hist/histogram.h"
#include "booster/tree/sketch/binned_matrix.h"
#include "booster/tree/sketch/hist_cuts.h"
#include "data/load.h"
#include "rabit/comm.h"

namespace {

using namespace treering;
using namespace treering::booster;
// CPU time of the process (all threads): on a machine shared with other jobs, wall time
// counts the waits for a core; CPU time counts the work (and the cache misses it meets).
struct CpuClock {
  using time_point = double;
  static double now() {
    timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec * 1e-6;
  }
};
using Clock = CpuClock;

double MsSince(double t) { return Clock::now() - t; }

std::uint64_t Hash(const Histogram& h, std::uint64_t seed = 1469598103934665603u) {
  const auto* p = reinterpret_cast<const unsigned char*>(h.data());
  for (std::size_t i = 0; i < h.size() * sizeof(GradientPairInt); ++i) {
    seed = (seed ^ p[i]) * 1099511628211u;
  }
  return seed;
}

struct Stats {
  std::vector<double> ms;
  double Min() const { return *std::min_element(ms.begin(), ms.end()); }
  double Median() const {
    std::vector<double> v = ms;
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
  }
};

// The library's root kernel (histogram.cc): per feature, its entries in row order, four
// copies of the slice.
struct RowOrderedColumns {
  std::vector<std::uint64_t> ptr;
  std::vector<std::uint32_t> rows;
  std::vector<std::uint16_t> bins;
  RowOrderedColumns() = default;
  RowOrderedColumns(const data::DMatrix& dm, const HistogramCuts& cuts) {
    const std::uint32_t nf = cuts.NumFeatures();
    ptr.assign(nf + 1, 0);
    for (std::uint32_t f : dm.index) ++ptr[f + 1];
    for (std::uint32_t f = 0; f < nf; ++f) ptr[f + 1] += ptr[f];
    rows.resize(dm.index.size());
    bins.resize(dm.index.size());
    std::vector<std::uint64_t> fill(ptr.begin(), ptr.end() - 1);
    for (std::size_t r = 0; r < dm.NumRows(); ++r) {
      for (std::uint64_t j = dm.row_ptr[r]; j < dm.row_ptr[r + 1]; ++j) {
        const std::uint32_t f = dm.index[j];
        rows[fill[f]] = static_cast<std::uint32_t>(r);
        bins[fill[f]++] = static_cast<std::uint16_t>(cuts.SearchBin(f, dm.value[j]) - cuts.ptrs[f]);
      }
    }
  }
  void BuildRoot(const HistogramCuts& cuts, const std::vector<GradientPairInt>& q,
                 Histogram* out) const {
    out->resize(cuts.TotalBins());
    constexpr std::size_t kCopies = 4;
    for (std::uint32_t f = 0; f < cuts.NumFeatures(); ++f) {
      const std::uint32_t nb = cuts.ptrs[f + 1] - cuts.ptrs[f];
      std::vector<GradientPairInt> copies(kCopies * nb);
      GradientPairInt* c[kCopies];
      for (std::size_t i = 0; i < kCopies; ++i) c[i] = copies.data() + i * nb;
      const std::uint64_t b = ptr[f], e = ptr[f + 1];
      std::uint64_t k = b;
      for (; k + kCopies <= e; k += kCopies) {
        for (std::size_t i = 0; i < kCopies; ++i) c[i][bins[k + i]] += q[rows[k + i]];
      }
      for (; k < e; ++k) c[0][bins[k]] += q[rows[k]];
      for (std::uint32_t x = 0; x < nb; ++x) {
        GradientPairInt t = c[0][x];
        for (std::size_t i = 1; i < kCopies; ++i) t += c[i][x];
        (*out)[cuts.ptrs[f] + x] = t;
      }
    }
  }
  // Measured alternative for a level: every feature's column walked once for all the level's
  // nodes (node_of_row[r] = built node of row r, or `nodes` when r's node is not built), each
  // node's slice of the feature accumulated in a small buffer, then written out.
  void BuildLevel(const HistogramCuts& cuts, const std::vector<GradientPairInt>& q,
                  const std::vector<std::uint8_t>& node_of_row, std::size_t nodes,
                  const std::vector<Histogram*>& outs) const {
    for (Histogram* h : outs) h->resize(cuts.TotalBins());
    std::vector<GradientPairInt> acc;
    for (std::uint32_t f = 0; f < cuts.NumFeatures(); ++f) {
      const std::uint32_t nb = cuts.ptrs[f + 1] - cuts.ptrs[f];
      acc.assign((nodes + 1) * nb, GradientPairInt{});
      for (std::uint64_t k = ptr[f]; k < ptr[f + 1]; ++k) {
        const std::uint32_t r = rows[k];
        acc[node_of_row[r] * nb + bins[k]] += q[r];
      }
      for (std::size_t i = 0; i < nodes; ++i) {
        std::copy_n(acc.data() + i * nb, nb, outs[i]->data() + cuts.ptrs[f]);
      }
    }
  }
};

// Measured alternative root: each global bin's rows as one run (a counting sort of the
// entries by bin), summed with two accumulators; no read-modify-write of cells.
struct BinRuns {
  std::vector<std::uint64_t> begin;
  std::vector<std::uint32_t> rows;
  BinRuns() = default;
  BinRuns(const data::DMatrix& dm, const BinnedMatrix& m, std::uint32_t total_bins) {
    const std::uint32_t* bins = m.SparseBins();
    begin.assign(std::size_t(total_bins) + 1, 0);
    for (std::size_t j = 0; j < dm.index.size(); ++j) ++begin[bins[j] + 1];
    for (std::uint32_t g = 0; g < total_bins; ++g) begin[g + 1] += begin[g];
    rows.resize(dm.index.size());
    std::vector<std::uint64_t> fill(begin.begin(), begin.end() - 1);
    for (std::size_t r = 0; r < dm.NumRows(); ++r) {
      for (std::uint64_t j = dm.row_ptr[r]; j < dm.row_ptr[r + 1]; ++j) {
        rows[fill[bins[j]]++] = static_cast<std::uint32_t>(r);
      }
    }
  }
  void BuildRoot(const std::vector<GradientPairInt>& q, Histogram* out) const {
    out->resize(begin.size() - 1);
    for (std::size_t g = 0; g + 1 < begin.size(); ++g) {
      GradientPairInt even, odd;
      std::uint64_t k = begin[g];
      for (; k + 2 <= begin[g + 1]; k += 2) {
        even += q[rows[k]];
        odd += q[rows[k + 1]];
      }
      if (k < begin[g + 1]) even += q[rows[k]];
      even += odd;
      (*out)[g] = even;
    }
  }
};

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s TRAIN [NTHREAD [REPEATS [lib|all [DEPTH]]]]\n", argv[0]);
    return 2;
  }
  const int nthread = argc > 2 ? std::atoi(argv[2]) : 1;
  const int repeats = argc > 3 ? std::max(1, std::atoi(argv[3])) : 5;
  const bool alternatives = !(argc > 4 && std::string(argv[4]) == "lib");
  const int depth = argc > 5 ? std::clamp(std::atoi(argv[5]), 1, 8) : 5;
  auto train = data::Load(argv[1]);
  if (!train.ok()) {
    std::fprintf(stderr, "error: %s\n", train.status().message().c_str());
    return 1;
  }
  const data::DMatrix& dm = *train;
  const auto nf = static_cast<std::uint32_t>(dm.num_col);
  const HistogramCuts cuts = BuildCuts(dm, nf, 256, nthread, rabit::DefaultComm());
  const BinnedMatrix m = BinnedMatrix::Build(dm, cuts, nthread);
  const std::size_t n = dm.NumRows();
  std::mt19937_64 rng(7);
  std::normal_distribution<float> normal(0.0f, 1.0f);
  std::vector<GradientPair> gpair(n);
  for (auto& g : gpair) g = {normal(rng), std::fabs(normal(rng)) + 0.01f};
  const GradientQuantiser quantiser =
      GradientQuantiser::ForGradients(gpair, nthread, rabit::DefaultComm());
  std::vector<GradientPairInt> q(n);
  for (std::size_t r = 0; r < n; ++r) q[r] = quantiser.Quantise(gpair[r]);

  // Depth d: row r goes to node hash(r, d) % 2^d; the even nodes are built.
  std::vector<std::vector<std::vector<std::uint32_t>>> levels(depth);
  std::uint64_t level_entries = 0;
  for (int d = 1; d <= depth; ++d) {
    auto& nodes = levels[d - 1];
    nodes.resize(std::size_t(1) << (d - 1));
    for (std::uint32_t r = 0; r < n; ++r) {
      const std::uint64_t h = (r * 0x9E3779B97F4A7C15ull + d) * 0xBF58476D1CE4E5B9ull;
      const std::uint64_t node = (h >> 40) % (std::uint64_t(1) << d);
      if (node % 2 == 0) nodes[node / 2].push_back(r);
    }
    for (const auto& rows : nodes) {
      for (std::uint32_t r : rows) level_entries += dm.row_ptr[r + 1] - dm.row_ptr[r];
    }
  }
  std::size_t level_nodes = 0;
  for (const auto& nodes : levels) level_nodes += nodes.size();

  std::vector<std::uint32_t> all(n);
  for (std::uint32_t r = 0; r < n; ++r) all[r] = r;
  const RowOrderedColumns ref = alternatives ? RowOrderedColumns(dm, cuts) : RowOrderedColumns();
  const BinRuns runs = alternatives ? BinRuns(dm, m, cuts.TotalBins()) : BinRuns();
  const Context ctx{.nthread = nthread};
  HistogramBuilder builder(&m, cuts.TotalBins(), ctx);
  Histogram root, root_ref, root_runs;
  std::vector<Histogram> level_hists(levels.back().size()), alt_hists(levels.back().size());
  Stats root_ms, ref_ms, runs_ms, level_ms, alt_ms;
  std::uint64_t level_hash = 0, alt_hash = 0;
  std::vector<std::uint8_t> node_of_row(n);
  for (int i = 0; i < repeats; ++i) {
    auto t = Clock::now();
    builder.BuildRoot(gpair, quantiser, {all.data(), all.data() + n}, &root);
    root_ms.ms.push_back(MsSince(t));
    if (alternatives) {
      t = Clock::now();
      ref.BuildRoot(cuts, q, &root_ref);
      ref_ms.ms.push_back(MsSince(t));
      t = Clock::now();
      runs.BuildRoot(q, &root_runs);
      runs_ms.ms.push_back(MsSince(t));
    }
    double total = 0, alt_total = 0;
    level_hash = alt_hash = 1469598103934665603u;
    for (const auto& nodes : levels) {
      std::vector<RowSpan> spans;
      std::vector<Histogram*> outs, alt_outs;
      for (std::size_t k = 0; k < nodes.size(); ++k) {
        spans.push_back({nodes[k].data(), nodes[k].data() + nodes[k].size()});
        outs.push_back(&level_hists[k]);
        alt_outs.push_back(&alt_hists[k]);
      }
      t = Clock::now();
      builder.Build(gpair, quantiser, spans, outs);
      total += MsSince(t);
      for (const Histogram* h : outs) level_hash = Hash(*h, level_hash);
      if (!alternatives) continue;
      t = Clock::now();
      std::fill(node_of_row.begin(), node_of_row.end(), std::uint8_t(nodes.size()));
      for (std::size_t k = 0; k < nodes.size(); ++k) {
        for (std::uint32_t r : nodes[k]) node_of_row[r] = static_cast<std::uint8_t>(k);
      }
      ref.BuildLevel(cuts, q, node_of_row, nodes.size(), alt_outs);
      alt_total += MsSince(t);
      for (const Histogram* h : alt_outs) alt_hash = Hash(*h, alt_hash);
    }
    level_ms.ms.push_back(total);
    if (alternatives) alt_ms.ms.push_back(alt_total);
  }
  const double entries = double(dm.index.size());
  std::printf("rows=%zu features=%u bins=%u entries=%zu nthread=%d repeats=%d\n", n, nf,
              cuts.TotalBins(), dm.index.size(), nthread, repeats);
  std::printf("root:     min %.2f ms median %.2f ms (%.3f ns/entry) hash %016llx\n", root_ms.Min(),
              root_ms.Median(), root_ms.Min() * 1e6 / entries,
              static_cast<unsigned long long>(Hash(root)));
  if (alternatives) {
    std::printf("root_ref: min %.2f ms median %.2f ms (%.3f ns/entry) hash %016llx %s\n",
                ref_ms.Min(), ref_ms.Median(), ref_ms.Min() * 1e6 / entries,
                static_cast<unsigned long long>(Hash(root_ref)),
                root == root_ref ? "(equal)" : "(DIFFERENT)");
    std::printf("root_runs: min %.2f ms median %.2f ms (%.3f ns/entry) %s\n", runs_ms.Min(),
                runs_ms.Median(), runs_ms.Min() * 1e6 / entries,
                root == root_runs ? "(equal)" : "(DIFFERENT)");
    std::printf("levels_by_columns: min %.2f ms median %.2f ms (%.3f ns per level entry) %s\n",
                alt_ms.Min(), alt_ms.Median(), alt_ms.Min() * 1e6 / double(level_entries),
                alt_hash == level_hash ? "(equal)" : "(DIFFERENT)");
  }
  std::printf("levels:   min %.2f ms median %.2f ms (%.3f ns/entry, %zu nodes) hash %016llx\n",
              level_ms.Min(), level_ms.Median(), level_ms.Min() * 1e6 / double(level_entries),
              level_nodes, static_cast<unsigned long long>(level_hash));
  std::printf("histogram bytes per tree built: %.1f MB (%zu nodes x %u bins x %zu B)\n",
              double(1 + level_nodes) * cuts.TotalBins() * sizeof(GradientPairInt) / 1e6,
              1 + level_nodes, cuts.TotalBins(), sizeof(GradientPairInt));
  return !alternatives || (root == root_ref && root == root_runs) ? 0 : 1;
}
