#include "booster/mlp/mlp_param.h"

#include <algorithm>

#include "base/param_table.h"

namespace treering::booster::mlp {
namespace {

using P = MlpParam;

// "256,128": 1 to 16 widths in [1, 65536].
Status ParseLayers(const std::string& v, std::vector<int>* out) {
  const Status bad =
      Status::InvalidInput("comma-separated widths in [1, 65536], e.g. 256,128 (at most 16)");
  std::vector<int> layers;
  std::size_t start = 0;
  while (start <= v.size()) {
    const std::size_t comma = std::min(v.find(',', start), v.size());
    auto width = ParseInteger(v.substr(start, comma - start), 1, 65536);
    if (!width.ok()) return bad;
    layers.push_back(static_cast<int>(width.value()));
    start = comma + 1;
  }
  if (layers.size() > 16) return bad;
  *out = std::move(layers);
  return Status::Ok();
}

std::string LayersText(const std::vector<int>& layers) {
  std::string text;
  for (int w : layers) text += (text.empty() ? "" : ",") + std::to_string(w);
  return text;
}

// A byte count in [lo, hi], written as a whole number ("65536", also "6.5536e4").
ParamField<P> BytesField(std::string key, long long P::*member, long long lo, long long hi,
                         const std::string& meaning) {
  const RealRange range{.lo = static_cast<double>(lo), .hi = static_cast<double>(hi)};
  return {std::move(key), "", std::to_string(P{}.*member),
          DescribeField(meaning, RangeText(lo, hi)),
          [member, range](P* p, const std::string& v) -> Status {
            auto d = ParseReal(v, range);
            if (!d.ok()) return d.status();
            if (d.value() != static_cast<double>(static_cast<long long>(d.value()))) {
              return Status::InvalidInput("a whole number of bytes");
            }
            p->*member = static_cast<long long>(d.value());
            return Status::Ok();
          }};
}

const ParamTable<P>& Table() {
  constexpr RealRange kBelowOne{.lo = 0, .hi = 0.999999};
  static const ParamTable<P> kTable({
      {"hidden_layers", "", LayersText(P{}.hidden_layers),
       "widths of the hidden layers, comma-separated; the input width is the data's feature "
       "count, the output width num_class (multi:*) or 1",
       [](P* p, const std::string& v) { return ParseLayers(v, &p->hidden_layers); }},
      EnumField("activation", &P::activation,
                {{"relu", Activation::kRelu}, {"tanh", Activation::kTanh}},
                "activation of the hidden layers"),
      EnumField("optimizer", &P::optimizer,
                {{"sgd", OptimizerKind::kSgd}, {"adam", OptimizerKind::kAdam}},
                "sgd with momentum (PyTorch's form v = mu v + g, p -= lr v) or adam"),
      RealField("learning_rate", &P::learning_rate, {.lo = 0, .hi = 100, .lo_open = true},
                "step size at the peak of the schedule")
          .Alias("eta"),
      RealField("momentum", &P::momentum, kBelowOne, "sgd momentum"),
      RealField("adam_beta1", &P::adam_beta1, kBelowOne, "adam first-moment decay"),
      RealField("adam_beta2", &P::adam_beta2, kBelowOne, "adam second-moment decay"),
      RealField("adam_epsilon", &P::adam_epsilon, {.lo = 0, .hi = 1, .lo_open = true},
                "adam denominator guard"),
      RealField("lambda", &P::lambda, {.lo = 0},
                "L2 penalty on weights (not biases), added to the averaged gradient")
          .Alias("reg_lambda"),
      IntField("batch_size", &P::batch_size, 1, 1 << 20,
               "rows per worker per step; the effective batch is workers x batch_size"),
      IntField("epochs", &P::epochs, 0, 100000, "passes over the training data"),
      IntField("save_every", &P::save_every, 0, 100000,
               "also save model_dir/%04d.mlp every k epochs (0: final only)"),
      EnumField("lr_schedule", &P::lr_schedule,
                {{"cosine", LrSchedule::kCosine},
                 {"step", LrSchedule::kStep},
                 {"constant", LrSchedule::kConstant}},
                "after the warm-up: cosine (to 0 at the last step), step (x lr_step_gamma every "
                "lr_step_epochs) or constant"),
      RealField("warmup_epochs", &P::warmup_epochs, {.lo = 0, .hi = 100000},
                "linear learning-rate warm-up from 0, in epochs"),
      IntField("lr_step_epochs", &P::lr_step_epochs, 1, 100000,
               "lr_schedule=step: epochs between decays"),
      RealField("lr_step_gamma", &P::lr_step_gamma, {.lo = 0, .hi = 1, .lo_open = true},
                "lr_schedule=step: factor per decay"),
      BoolField("lr_scaling", &P::lr_scaling,
                "multiply learning_rate by sqrt(workers), for the larger effective batch"),
      BoolField("standardize", &P::standardize,
                "scale inputs to zero mean, unit variance per feature from global statistics "
                "(allreduce); 0: raw values"),
      BoolField("shuffle", &P::shuffle,
                "visit rows in a new order each epoch, a function of (seed, epoch) only"),
      BytesField("bucket_bytes", &P::bucket_bytes, 1024, 1LL << 30,
                 "gradient allreduce bucket size in bytes"),
      BytesField("first_bucket_bytes", &P::first_bucket_bytes, 1024, 1LL << 30,
                 "size of the first (output-layer) bucket"),
      ChoiceField("objective", &P::objective,
                  {"multi:softmax", "multi:softprob", "binary:logistic", "reg:squarederror"},
                  "multi:*: softmax cross-entropy; binary:logistic: log loss on a sigmoid; "
                  "reg:squarederror: half squared error"),
      IntField("num_class", &P::num_class, 0, 65535, "classes for multi:* (required there)"),
      ListField("eval_metric", &P::eval_metrics, "(per objective)",
                "metric per eval set (repeatable): any treering metric (merror, mlogloss, "
                "logloss, error, auc, rmse, ...)"),
  });
  return kTable;
}

}  // namespace

const std::vector<ParamDoc>& MlpParam::Params() {
  static const std::vector<ParamDoc> kDocs = Table().Docs();
  return kDocs;
}

Result<MlpParam> MlpParam::Parse(const std::vector<std::pair<std::string, std::string>>& kv) {
  MlpParam p;
  for (const auto& [key, value] : kv) {
    if (Table().Find(key) == nullptr) {
      return Status::InvalidKey(key, "unknown parameter '" + key + "' for booster=mlp");
    }
    Status st = Table().Set(&p, key, value);
    if (!st.ok()) return st;
  }
  const bool multi = p.objective.rfind("multi:", 0) == 0;
  if (multi && p.num_class < 2) {
    return Status::InvalidKey("num_class",
                              "parameter num_class: " + p.objective + " needs num_class >= 2");
  }
  if (!multi && p.num_class > 1) {
    return Status::InvalidKey(
        "num_class", "parameter num_class: only for multi:* objectives, not " + p.objective);
  }
  return p;
}

int MlpParam::NumOutputs() const { return objective.rfind("multi:", 0) == 0 ? num_class : 1; }

const char* ActivationName(Activation a) { return a == Activation::kRelu ? "relu" : "tanh"; }
const char* OptimizerName(OptimizerKind o) { return o == OptimizerKind::kSgd ? "sgd" : "adam"; }
const char* LrScheduleName(LrSchedule s) {
  return s == LrSchedule::kCosine ? "cosine" : s == LrSchedule::kStep ? "step" : "constant";
}

}  // namespace treering::booster::mlp
