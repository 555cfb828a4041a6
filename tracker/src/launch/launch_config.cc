#include <sys/stat.h>
#include <unistd.h>

#include <fstream>
#include <random>
#include <sstream>

#include "launch.h"
#include "tracker/auth.h"

namespace treering::launch {
namespace {

std::string Trim(const std::string& s) {
  const auto b = s.find_first_not_of(" \t\r");
  const auto e = s.find_last_not_of(" \t\r");
  return b == std::string::npos ? "" : s.substr(b, e - b + 1);
}

Result<Host> ParseHostLine(const std::string& line, int line_no, int* slots) {
  std::istringstream in(line);
  std::string name_port, word;
  in >> name_port;
  *slots = 1;
  while (in >> word) {
    if (word.rfind("slots=", 0) != 0) {
      return Status::InvalidInput("host file line " + std::to_string(line_no) +
                                  ": unknown field '" + word + "'");
    }
    try {
      *slots = std::stoi(word.substr(6));
    } catch (...) {
      *slots = 0;
    }
    if (*slots < 1) {
      return Status::InvalidInput("host file line " + std::to_string(line_no) + ": bad " + word);
    }
  }
  // ssh and mpirun take the name as an argument: one starting with '-' would be an option
  // (`-oProxyCommand=...` runs a command on the launcher).
  if (name_port.front() == '-') {
    return Status::InvalidInput("host file line " + std::to_string(line_no) + ": host name '" +
                                name_port + "' starts with '-'");
  }
  Host h{name_port, 22};
  const auto colon = name_port.rfind(':');
  // "host:port", but a bare IPv6 address ("::1") has colons too and no port.
  if (colon != std::string::npos && name_port.find(':') == colon) {
    h.name = name_port.substr(0, colon);
    try {
      h.port = std::stoi(name_port.substr(colon + 1));
    } catch (...) {
      h.port = 0;
    }
    if (h.port < 1 || h.port > 65535) {
      return Status::InvalidInput("host file line " + std::to_string(line_no) + ": bad port in '" +
                                  name_port + "'");
    }
  }
  return h;
}

}  // namespace

Result<std::vector<Host>> ParseHostFile(const std::string& text) {
  std::vector<Host> hosts;
  std::istringstream in(text);
  std::string line;
  for (int line_no = 1; std::getline(in, line); ++line_no) {
    line = Trim(line.substr(0, line.find('#')));
    if (line.empty()) continue;
    int slots = 1;
    auto host = ParseHostLine(line, line_no, &slots);
    if (!host.ok()) return host.status();
    for (int i = 0; i < slots; ++i) hosts.push_back(host.value());
  }
  if (hosts.empty()) return Status::InvalidInput("host file lists no hosts");
  return hosts;
}

Result<std::vector<Host>> ReadHostFile(const std::string& path) {
  std::ifstream f(path);
  if (!f) return Status::InvalidInput("cannot read host file " + path);
  std::stringstream ss;
  ss << f.rdbuf();
  auto hosts = ParseHostFile(ss.str());
  if (!hosts.ok()) return hosts.status().WithContext(path);
  return hosts;
}

// 256 bits from the CSPRNG the handshakes use for their nonces, as 64 hex digits. The token is
// an HMAC key (protocol.md, Authentication), so it gets a key's length, not a password's.
std::string RandomToken() {
  proto::Nonce bytes{};
  if (auto nonce = proto::NewNonce(); nonce.ok()) {
    bytes = nonce.value();
  } else {  // RAND_bytes failed (no entropy source): the OS device is the next best
    std::random_device rd;
    for (auto& b : bytes) b = static_cast<std::uint8_t>(rd());
  }
  static const char kHex[] = "0123456789abcdef";
  std::string token;
  for (std::uint8_t b : bytes) {
    token += kHex[b >> 4];
    token += kHex[b & 15];
  }
  return token;
}

bool IsLegacyWorker(const std::vector<std::string>& command) {
  if (command.empty()) return false;
  const std::string& program = command.front();
  const auto slash = program.rfind('/');
  return program.substr(slash == std::string::npos ? 0 : slash + 1) == "xgboost";
}

EnvList JobEnv(const SubmitOptions& o, std::uint16_t tracker_port, const std::string& token) {
  EnvList env{{"DMLC_TRACKER_URI", o.host_ip},
              {"DMLC_TRACKER_PORT", std::to_string(tracker_port)},
              {"DMLC_NUM_WORKER", std::to_string(o.num_workers)},
              {"DMLC_NUM_SERVER", "0"},
              {"DMLC_ROLE", "worker"},
              {"DMLC_JOB_CLUSTER", o.cluster},
              {kTokenVariable, token}};
  // Workers pick the fault-tolerant engine when they can be restarted (docs/fault-tolerance.md).
  if (o.local_num_attempt > 0) {
    env.emplace_back("TREERING_MAX_ATTEMPTS", std::to_string(o.local_num_attempt + 1));
  }
  // rabit_elastic: workers accept the smaller world the tracker forms around a lost rank.
  if (o.elastic) env.emplace_back("TREERING_ELASTIC", "1");
  env.insert(env.end(), o.env.begin(), o.env.end());
  return env;
}

std::string ShellQuote(const std::string& s) {
  std::string out = "'";
  for (char c : s) {
    if (c == '\'') {
      out += "'\\''";
    } else {
      out += c;
    }
  }
  return out + "'";
}

}  // namespace treering::launch
