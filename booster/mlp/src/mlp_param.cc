#include "booster/mlp/mlp_param.h"

#include <cstdlib>

#include "base/param_table.h"

namespace treering::booster::mlp {
namespace {

using P = MlpParam;
using Field = ParamField<P>;

Status ParseLayers(const std::string& v, std::vector<int>* out) {
  std::vector<int> layers;
  std::size_t start = 0;
  while (start <= v.size()) {
    const std::size_t comma = std::min(v.find(',', start), v.size());
    int width = 0;
    Status st = ParseIntIn("hidden_layers", v.substr(start, comma - start), 1, 65536, &width);
    if (!st.ok()) {
      return Status::InvalidInput("parameter hidden_layers: bad value '" + v +
                                  "', allowed: comma-separated widths in [1, 65536], e.g. 256,128");
    }
    layers.push_back(width);
    start = comma + 1;
  }
  if (layers.size() > 16) return Status::InvalidInput("parameter hidden_layers: at most 16 layers");
  *out = std::move(layers);
  return Status::Ok();
}

template <typename E>
Status ParseEnum(const char* key, const std::string& v,
                 const std::vector<std::pair<std::string, E>>& names, E* out) {
  std::vector<std::string> allowed;
  for (const auto& [name, value] : names) allowed.push_back(name);
  std::string chosen;
  Status st = ParseChoice(key, v, allowed, &chosen);
  for (const auto& [name, value] : names) {
    if (st.ok() && name == chosen) *out = value;
  }
  return st;
}

Status ParseLong(const char* key, const std::string& v, long long lo, long long hi,
                 long long* out) {
  double d = 0;
  Status st = ParseDoubleIn(key, v, static_cast<double>(lo), static_cast<double>(hi), false, &d);
  if (st.ok() && d != static_cast<double>(static_cast<long long>(d))) {
    st = Status::InvalidInput("parameter " + std::string(key) + ": bad value '" + v +
                              "', allowed: a whole number of bytes");
  }
  if (st.ok()) *out = static_cast<long long>(d);
  return st;
}

const std::vector<Field>& Fields() {
  static const std::vector<Field> kFields = {
      {"hidden_layers", "", "256,128", "widths of the hidden layers, comma-separated",
       [](P* p, const std::string& v) { return ParseLayers(v, &p->hidden_layers); }},
      {"activation", "", "relu", "relu | tanh",
       [](P* p, const std::string& v) {
         return ParseEnum("activation", v,
                          {{"relu", Activation::kRelu}, {"tanh", Activation::kTanh}},
                          &p->activation);
       }},
      {"optimizer", "", "sgd", "sgd (with momentum) | adam",
       [](P* p, const std::string& v) {
         return ParseEnum("optimizer", v,
                          {{"sgd", OptimizerKind::kSgd}, {"adam", OptimizerKind::kAdam}},
                          &p->optimizer);
       }},
      {"learning_rate", "eta", "0.05", "step size at the peak of the schedule, (0, 100]",
       [](P* p, const std::string& v) {
         return ParseDoubleIn("learning_rate", v, 0, 100, true, &p->learning_rate);
       }},
      {"momentum", "", "0.9", "sgd momentum, [0, 1)",
       [](P* p, const std::string& v) {
         Status st = ParseDoubleIn("momentum", v, 0, 0.999999, false, &p->momentum);
         return st;
       }},
      {"adam_beta1", "", "0.9", "adam first-moment decay, [0, 1)",
       [](P* p, const std::string& v) {
         return ParseDoubleIn("adam_beta1", v, 0, 0.999999, false, &p->adam_beta1);
       }},
      {"adam_beta2", "", "0.999", "adam second-moment decay, [0, 1)",
       [](P* p, const std::string& v) {
         return ParseDoubleIn("adam_beta2", v, 0, 0.999999, false, &p->adam_beta2);
       }},
      {"adam_epsilon", "", "1e-08", "adam denominator guard, (0, 1]",
       [](P* p, const std::string& v) {
         return ParseDoubleIn("adam_epsilon", v, 0, 1, true, &p->adam_epsilon);
       }},
      {"lambda", "reg_lambda", "0", "L2 penalty on weights (not biases), [0, inf)",
       [](P* p, const std::string& v) {
         return ParseDoubleIn("lambda", v, 0, kInf, false, &p->lambda);
       }},
      {"batch_size", "", "64", "rows per worker per step, [1, 1048576]",
       [](P* p, const std::string& v) {
         return ParseIntIn("batch_size", v, 1, 1 << 20, &p->batch_size);
       }},
      {"epochs", "", "10", "passes over the training data, [0, 100000]",
       [](P* p, const std::string& v) { return ParseIntIn("epochs", v, 0, 100000, &p->epochs); }},
      {"save_every", "", "0", "also save model_dir/%04d.mlp every k epochs (0: final only)",
       [](P* p, const std::string& v) {
         return ParseIntIn("save_every", v, 0, 100000, &p->save_every);
       }},
      {"seed", "", "0", "initial weights and per-epoch shuffles are functions of it",
       [](P* p, const std::string& v) { return ParseIntIn("seed", v, 0, 2147483647, &p->seed); }},
      {"lr_schedule", "", "cosine", "cosine | step | constant, after the warm-up",
       [](P* p, const std::string& v) {
         return ParseEnum("lr_schedule", v,
                          {{"cosine", LrSchedule::kCosine},
                           {"step", LrSchedule::kStep},
                           {"constant", LrSchedule::kConstant}},
                          &p->lr_schedule);
       }},
      {"warmup_epochs", "", "0.5", "linear learning-rate warm-up, in epochs, [0, 100000]",
       [](P* p, const std::string& v) {
         return ParseDoubleIn("warmup_epochs", v, 0, 100000, false, &p->warmup_epochs);
       }},
      {"lr_step_epochs", "", "3", "lr_schedule=step: epochs between decays, [1, 100000]",
       [](P* p, const std::string& v) {
         return ParseIntIn("lr_step_epochs", v, 1, 100000, &p->lr_step_epochs);
       }},
      {"lr_step_gamma", "", "0.3", "lr_schedule=step: factor per decay, (0, 1]",
       [](P* p, const std::string& v) {
         return ParseDoubleIn("lr_step_gamma", v, 0, 1, true, &p->lr_step_gamma);
       }},
      {"lr_scaling", "", "1", "multiply learning_rate by sqrt(workers) (0: off)",
       [](P* p, const std::string& v) {
         int on = 0;
         Status st = ParseIntIn("lr_scaling", v, 0, 1, &on);
         p->lr_scaling = on != 0;
         return st;
       }},
      {"standardize", "", "1", "scale inputs by global mean/std (allreduce) (0: raw values)",
       [](P* p, const std::string& v) {
         int on = 0;
         Status st = ParseIntIn("standardize", v, 0, 1, &on);
         p->standardize = on != 0;
         return st;
       }},
      {"shuffle", "", "1", "visit rows in a new order each epoch, a function of (seed, epoch)",
       [](P* p, const std::string& v) {
         int on = 0;
         Status st = ParseIntIn("shuffle", v, 0, 1, &on);
         p->shuffle = on != 0;
         return st;
       }},
      {"bucket_bytes", "", "262144", "gradient allreduce bucket size in bytes, [1024, 2^30]",
       [](P* p, const std::string& v) {
         return ParseLong("bucket_bytes", v, 1024, 1LL << 30, &p->bucket_bytes);
       }},
      {"first_bucket_bytes", "", "32768", "size of the first (output-layer) bucket, [1024, 2^30]",
       [](P* p, const std::string& v) {
         return ParseLong("first_bucket_bytes", v, 1024, 1LL << 30, &p->first_bucket_bytes);
       }},
      {"objective", "", "multi:softmax",
       "multi:softmax | multi:softprob (softmax cross-entropy), binary:logistic, "
       "reg:squarederror",
       [](P* p, const std::string& v) {
         return ParseChoice(
             "objective", v,
             {"multi:softmax", "multi:softprob", "binary:logistic", "reg:squarederror"},
             &p->objective);
       }},
      {"num_class", "", "0", "classes for multi:* (required there), [0, 65535]",
       [](P* p, const std::string& v) {
         return ParseIntIn("num_class", v, 0, 65535, &p->num_class);
       }},
      {"eval_metric", "", "", "metric per eval set (repeatable); default from the objective",
       [](P* p, const std::string& v) {
         p->eval_metrics.push_back(v);
         return Status::Ok();
       }},
  };
  return kFields;
}

}  // namespace

const std::vector<ParamDoc>& MlpParam::Params() {
  static const std::vector<ParamDoc> kDocs = [] {
    std::vector<ParamDoc> docs;
    for (const Field& f : Fields()) docs.push_back({f.key, f.default_value, f.doc});
    for (const Field& f : Fields()) {
      if (f.alias[0] != '\0')
        docs.push_back({f.alias, f.default_value, std::string("alias of ") + f.key});
    }
    return docs;
  }();
  return kDocs;
}

Result<MlpParam> MlpParam::Parse(const std::vector<std::pair<std::string, std::string>>& kv) {
  MlpParam p;
  for (const auto& [key, value] : kv) {
    const Field* field = nullptr;
    if (!FindField(Fields(), key, &field)) {
      return Status::InvalidInput("unknown parameter '" + key + "' for booster=mlp");
    }
    Status st = field->set(&p, value);
    if (!st.ok()) return st;
  }
  const bool multi = p.objective.rfind("multi:", 0) == 0;
  if (multi && p.num_class < 2) {
    return Status::InvalidInput("parameter num_class: " + p.objective + " needs num_class >= 2");
  }
  if (!multi && p.num_class > 1) {
    return Status::InvalidInput("parameter num_class: only for multi:* objectives, not " +
                                p.objective);
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
