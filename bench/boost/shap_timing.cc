// treering-shap-bench MODEL DATA REPEATS NTHREAD [exact|approx] [nowarmup]: times
// GBTreeLearner::Predict with pred_contribs (exact TreeSHAP, or Saabas) on already loaded data,
// one warm-up (unless nowarmup) then REPEATS runs, and prints "median_s=... rows=... columns=..."
// for bench/boost/shap_bench.sh (python3-xgboost's predict(pred_contribs=True) is timed the same
// way there).
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

#include "booster/tree/learner/gbtree_learner.h"
#include "data/load.h"

namespace {

int Fail(const treering::Status& s) {
  std::fprintf(stderr, "error: %s\n", s.message().c_str());
  return treering::ExitCodeFor(s);
}

}  // namespace

int main(int argc, char** argv) {
  using namespace treering;
  if (argc < 5) {
    std::fprintf(stderr, "usage: %s MODEL DATA REPEATS NTHREAD [exact|approx] [nowarmup]\n",
                 argv[0]);
    return 2;
  }
  auto dm = data::Load(argv[2]);
  if (!dm.ok()) return Fail(dm.status());
  Context ctx;
  if (Status s = Context::Table().Set(&ctx, "nthread", argv[4]); !s.ok()) return Fail(s);
  auto learner = booster::GBTreeLearner::Create({}, ctx, &rabit::DefaultComm());
  if (!learner.ok()) return Fail(learner.status());
  Status st = (*learner)->LoadModelFile(argv[1], booster::ModelUse::kPredict);
  if (!st.ok()) return Fail(st);
  booster::PredictOptions options;
  options.output = booster::PredictOutput::kContribs;
  options.approx_contribs = argc > 5 && std::string(argv[5]) == "approx";
  const int repeats = std::max(1, std::stoi(argv[3]));
  const bool warm_up = !(argc > 6 && std::string(argv[6]) == "nowarmup");
  std::vector<double> seconds;
  std::vector<float> out;
  for (int i = warm_up ? 0 : 1; i <= repeats; ++i) {  // run 0 warms up
    const auto start = std::chrono::steady_clock::now();
    st = (*learner)->Predict(&dm.value(), options, &out);
    if (!st.ok()) return Fail(st);
    const std::chrono::duration<double> took = std::chrono::steady_clock::now() - start;
    if (i > 0) seconds.push_back(took.count());
  }
  std::sort(seconds.begin(), seconds.end());
  std::printf("median_s=%.4f rows=%zu columns=%zu\n", seconds[seconds.size() / 2], dm->NumRows(),
              out.size() / std::max<std::size_t>(1, dm->NumRows()));
  return 0;
}
