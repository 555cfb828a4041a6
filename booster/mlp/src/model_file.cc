#include "booster/mlp/model_file.h"

#include <bit>
#include <cstdint>
#include <cstring>

#include <nlohmann/json.hpp>

#include "booster/atomic_file.h"

namespace treering::booster::mlp {
namespace {

constexpr char kMagic[9] = "TRRMLP01";
constexpr int kVersion = 1;

std::uint64_t Fnv1a(const char* data, std::size_t n) {
  std::uint64_t h = 0xCBF29CE484222325ULL;
  for (std::size_t i = 0; i < n; ++i)
    h = (h ^ static_cast<unsigned char>(data[i])) * 0x100000001B3ULL;
  return h;
}

void PutU64(std::uint64_t v, std::string* out) {
  for (int i = 0; i < 8; ++i) out->push_back(static_cast<char>((v >> (8 * i)) & 0xFF));
}

std::uint64_t GetU64(const char* p) {
  std::uint64_t v = 0;
  for (int i = 0; i < 8; ++i)
    v |= static_cast<std::uint64_t>(static_cast<unsigned char>(p[i])) << (8 * i);
  return v;
}

// float32 little-endian (the only byte order treering builds for; checked at compile time).
static_assert(std::endian::native == std::endian::little, "model files are little-endian");

std::vector<std::pair<std::string, const std::vector<float>*>> Sections(const MlpModel& m) {
  std::vector<std::pair<std::string, const std::vector<float>*>> s = {
      {"params", &m.state.params}, {"inv_std", &m.scaling.inv_std}, {"center", &m.scaling.center}};
  for (std::size_t i = 0; i < m.state.slots.size(); ++i) {
    s.emplace_back("optimizer_slot" + std::to_string(i), &m.state.slots[i]);
  }
  return s;
}

Status Bad(const std::string& path, const std::string& what) {
  return Status::InvalidInput(path + ": not a valid treering MLP model file: " + what);
}

template <typename E>
bool FromName(const std::string& name, const std::vector<std::pair<std::string, E>>& names,
              E* out) {
  for (const auto& [n, v] : names) {
    if (n == name) {
      *out = v;
      return true;
    }
  }
  return false;
}

Status ReadHeader(const nlohmann::json& h, const std::string& path, MlpModel* m) {
  if (h.value("format", "") != "treering-mlp" || h.value("version", 0) != kVersion) {
    return Bad(path, "unknown format or version");
  }
  m->widths = h.at("widths").get<std::vector<int>>();
  if (m->widths.size() < 2) return Bad(path, "fewer than two layer widths");
  for (int w : m->widths) {
    if (w < 1 || w > (1 << 26)) return Bad(path, "layer width out of range");
  }
  m->objective = h.at("objective").get<std::string>();
  m->num_class = h.at("num_class").get<int>();
  m->seed = h.at("seed").get<int>();
  m->state.steps = h.at("steps").get<std::int64_t>();
  m->state.epochs_done = h.at("epochs_done").get<int>();
  const bool ok =
      FromName(h.at("activation").get<std::string>(),
               {{"relu", Activation::kRelu}, {"tanh", Activation::kTanh}}, &m->activation) &&
      FromName(h.at("optimizer").get<std::string>(),
               {{"sgd", OptimizerKind::kSgd}, {"adam", OptimizerKind::kAdam}}, &m->optimizer);
  return ok ? Status::Ok() : Bad(path, "unknown activation or optimizer");
}

}  // namespace

std::string SerializeModel(const MlpModel& m) {
  nlohmann::json h;
  h["format"] = "treering-mlp";
  h["version"] = kVersion;
  h["widths"] = m.widths;
  h["activation"] = ActivationName(m.activation);
  h["objective"] = m.objective;
  h["num_class"] = m.num_class;
  h["optimizer"] = OptimizerName(m.optimizer);
  h["seed"] = m.seed;
  h["steps"] = m.state.steps;
  h["epochs_done"] = m.state.epochs_done;
  nlohmann::json sections = nlohmann::json::array();
  for (const auto& [name, values] : Sections(m)) {
    sections.push_back({{"name", name}, {"floats", values->size()}});
  }
  h["sections"] = sections;
  const std::string header = h.dump();
  std::string out(kMagic, 8);
  PutU64(header.size(), &out);
  out += header;
  for (const auto& [name, values] : Sections(m)) {
    out.append(reinterpret_cast<const char*>(values->data()), values->size() * sizeof(float));
  }
  PutU64(Fnv1a(out.data(), out.size()), &out);
  return out;
}

Result<MlpModel> ParseModel(const std::string& bytes, const std::string& path) {
  if (bytes.size() < 24 || bytes.compare(0, 8, kMagic, 8) != 0) return Bad(path, "bad magic");
  const std::size_t body = bytes.size() - 8;
  if (GetU64(bytes.data() + body) != Fnv1a(bytes.data(), body)) {
    return Bad(path, "checksum mismatch (truncated or corrupted)");
  }
  const std::uint64_t header_len = GetU64(bytes.data() + 8);
  if (header_len > body - 16) return Bad(path, "header length beyond the file");
  MlpModel m;
  std::size_t pos = 16 + header_len;
  try {
    const auto h = nlohmann::json::parse(bytes.substr(16, header_len));
    Status st = ReadHeader(h, path, &m);
    if (!st.ok()) return st;
    for (const auto& s : h.at("sections")) {
      const auto floats = s.at("floats").get<std::uint64_t>();
      if (floats > (body - pos) / sizeof(float)) return Bad(path, "section beyond the file");
      std::vector<float> values(floats);
      std::memcpy(values.data(), bytes.data() + pos, floats * sizeof(float));
      pos += floats * sizeof(float);
      const std::string name = s.at("name").get<std::string>();
      if (name == "params")
        m.state.params = std::move(values);
      else if (name == "inv_std")
        m.scaling.inv_std = std::move(values);
      else if (name == "center")
        m.scaling.center = std::move(values);
      else
        m.state.slots.push_back(std::move(values));
    }
  } catch (const nlohmann::json::exception& e) {
    return Bad(path, std::string("header: ") + e.what());
  }
  if (pos != body) return Bad(path, "trailing bytes after the sections");
  const Architecture arch(m.widths, m.activation);
  if (m.state.params.size() != arch.NumParams() ||
      m.scaling.inv_std.size() != static_cast<std::size_t>(m.widths.front()) ||
      m.scaling.center.size() != m.scaling.inv_std.size()) {
    return Bad(path, "section sizes do not match the layer widths");
  }
  return m;
}

Status SaveModelFile(const MlpModel& model, const std::string& path) {
  return WriteFileAtomic(path, SerializeModel(model));
}

Result<MlpModel> LoadModelFile(const std::string& path) {
  auto bytes = ReadWholeFile(path);
  if (!bytes.ok()) return bytes.status();
  return ParseModel(bytes.value(), path);
}

}  // namespace treering::booster::mlp
