// treering-setup-bench TRAIN [MAX_BIN [NTHREAD [REPEATS [CUTS_OUT]]]]: times the setup phase alone
// (cuts from the quantile sketch, then the bin index) on one loaded training file, REPEATS times,
// and prints the medians (wall and CPU seconds: on a loaded machine CPU time is the steadier
// yardstick) with a hash of the cuts and of the bins. The hashes are the check
// that a faster setup builds the same thing: compare them before and after a change.
// CUTS_OUT, if given, receives one "feature cut" line per cut (%.9g: the float's exact value
// round-trips), to compare the cuts with the split conditions of an XGBoost model.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <string>
#include <vector>

#include "booster/tree/sketch/binned_matrix.h"
#include "booster/tree/sketch/hist_cuts.h"
#include "data/load.h"
#include "rabit/comm.h"

namespace {

using Clock = std::chrono::steady_clock;

double Since(Clock::time_point t) {
  return std::chrono::duration<double>(Clock::now() - t).count();
}

// FNV-1a over raw bytes: equal hashes mean (for this purpose) bit-identical arrays.
std::uint64_t Hash(const void* data, std::size_t bytes, std::uint64_t h = 1469598103934665603u) {
  const auto* p = static_cast<const unsigned char*>(data);
  for (std::size_t i = 0; i < bytes; ++i) h = (h ^ p[i]) * 1099511628211u;
  return h;
}

std::uint64_t CutsHash(const treering::booster::HistogramCuts& c) {
  std::uint64_t h = Hash(c.ptrs.data(), c.ptrs.size() * sizeof(c.ptrs[0]));
  h = Hash(c.values.data(), c.values.size() * sizeof(float), h);
  return Hash(c.min_vals.data(), c.min_vals.size() * sizeof(float), h);
}

// Every stored bin, whatever the layout, through the one accessor all layouts share.
std::uint64_t BinsHash(const treering::booster::BinnedMatrix& m) {
  std::uint64_t h = 1469598103934665603u;
  std::vector<int> row(m.NumFeatures());
  for (std::size_t r = 0; r < m.NumRows(); ++r) {
    for (std::uint32_t f = 0; f < m.NumFeatures(); ++f) row[f] = m.LocalBin(r, f);
    h = Hash(row.data(), row.size() * sizeof(int), h);
  }
  return h;
}

void WriteCuts(const treering::booster::HistogramCuts& c, const char* path) {
  std::FILE* f = std::fopen(path, "w");
  if (f == nullptr) {
    std::fprintf(stderr, "error: cannot write %s\n", path);
    std::exit(1);
  }
  for (std::uint32_t feat = 0; feat < c.NumFeatures(); ++feat) {
    for (std::uint32_t b = c.ptrs[feat]; b < c.ptrs[feat + 1]; ++b) {
      std::fprintf(f, "%u %.9g\n", feat, c.values[b]);
    }
  }
  std::fclose(f);
}

double Median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
  using namespace treering;
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s TRAIN [MAX_BIN [NTHREAD [REPEATS [CUTS_OUT]]]]\n", argv[0]);
    return 2;
  }
  const int max_bin = argc > 2 ? std::atoi(argv[2]) : 256;
  const int nthread = argc > 3 ? std::atoi(argv[3]) : 2;
  const int repeats = argc > 4 ? std::max(1, std::atoi(argv[4])) : 3;
  const auto start = Clock::now();
  auto train = data::Load(argv[1]);
  if (!train.ok()) {
    std::fprintf(stderr, "error: %s\n", train.status().message().c_str());
    return 1;
  }
  const double load_s = Since(start);
  const auto nf = static_cast<std::uint32_t>(train->num_col);
  std::vector<double> cuts_s, bins_s, cuts_cpu, bins_cpu;
  std::uint64_t cuts_hash = 0, bins_hash = 0;
  for (int i = 0; i < repeats; ++i) {
    auto t = Clock::now();
    std::clock_t c = std::clock();
    const booster::HistogramCuts cuts =
        booster::BuildCuts(*train, nf, max_bin, nthread, rabit::DefaultComm());
    cuts_s.push_back(Since(t));
    cuts_cpu.push_back(double(std::clock() - c) / CLOCKS_PER_SEC);
    t = Clock::now();
    c = std::clock();
    const booster::BinnedMatrix m = booster::BinnedMatrix::Build(*train, cuts, nthread);
    bins_s.push_back(Since(t));
    bins_cpu.push_back(double(std::clock() - c) / CLOCKS_PER_SEC);
    if (i == 0 && argc > 5) WriteCuts(cuts, argv[5]);
    if (i == 0) {
      cuts_hash = CutsHash(cuts);
      bins_hash = BinsHash(m);
    }
  }
  std::printf(
      "rows=%zu features=%u load_s=%.3f cuts_s=%.3f bins_s=%.3f setup_s=%.3f "
      "cpu: cuts %.3f s bins %.3f s (all threads) cuts_hash=%016llx bins_hash=%016llx\n",
      train->NumRows(), nf, load_s, Median(cuts_s), Median(bins_s), Median(cuts_s) + Median(bins_s),
      Median(cuts_cpu), Median(bins_cpu), static_cast<unsigned long long>(cuts_hash),
      static_cast<unsigned long long>(bins_hash));
  return 0;
}
