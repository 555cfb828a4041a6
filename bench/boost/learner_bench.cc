// treering-boost-bench TRAIN TEST ROUNDS key=value...: trains over the Learner API and prints
// load / setup (sketch + binning) / boosting / eval times and the last round's metrics, so
// the benchmark script can split treering's wall time into phases.
#include <chrono>
#include <cstdio>
#include <string>

#include "booster/tree/learner/gbtree_learner.h"
#include "data/load.h"

namespace {

double Since(std::chrono::steady_clock::time_point t) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
}

int Fail(const treering::Status& s) {
  std::fprintf(stderr, "error: %s\n", s.message().c_str());
  return treering::ExitCodeFor(s);
}

}  // namespace

int main(int argc, char** argv) {
  using namespace treering;
  if (argc < 4) {
    std::fprintf(stderr, "usage: %s TRAIN TEST ROUNDS key=value...\n", argv[0]);
    return 2;
  }
  std::vector<std::pair<std::string, std::string>> params;
  Context ctx;  // nthread, seed, verbosity, as the treering command takes them
  for (int i = 4; i < argc; ++i) {
    const std::string kv = argv[i];
    const auto eq = kv.find('=');
    if (eq == std::string::npos) return Fail(Status::InvalidInput("expected key=value: " + kv));
    const std::string key = kv.substr(0, eq), value = kv.substr(eq + 1);
    if (Context::Table().Find(key) != nullptr) {
      if (Status s = Context::Table().Set(&ctx, key, value); !s.ok()) return Fail(s);
    } else {
      params.emplace_back(key, value);
    }
  }
  const auto start = std::chrono::steady_clock::now();
  auto train = data::Load(argv[1], {}, ctx);
  if (!train.ok()) return Fail(train.status());
  auto test = data::Load(argv[2], {}, ctx);
  if (!test.ok()) return Fail(test.status());
  const double load_s = Since(start);
  auto learner = booster::GBTreeLearner::Create(params, ctx, &rabit::DefaultComm());
  if (!learner.ok()) return Fail(learner.status());
  if (Status s = (*learner)->SetTrainData(&train.value()); !s.ok()) return Fail(s);
  if (Status s = (*learner)->AddEvalSet("test", &test.value()); !s.ok()) return Fail(s);
  const int rounds = std::stoi(argv[3]);
  std::vector<booster::EvalResult> last;
  for (int i = 0; i < rounds; ++i) {
    if (Status s = (*learner)->UpdateOneIter(i); !s.ok()) return Fail(s);
    auto r = (*learner)->EvalOneIter(i);
    if (!r.ok()) return Fail(r.status());
    last = r.value();
  }
  const booster::TimingReport t = (*learner)->Timing();
  std::printf("load_s=%.3f setup_s=%.3f boost_s=%.3f eval_s=%.3f per_round_s=%.4f total_s=%.3f",
              load_s, t.setup_s, t.boost_s, t.eval_s, t.boost_s / rounds, Since(start));
  for (const auto& r : last) std::printf(" %s=%.6f", r.name.c_str(), r.value);
  std::printf("\n");
  return 0;
}
