#include "tracker_object.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <cmath>
#include <cstdio>

#include <nlohmann/json.hpp>

#include "api_error.h"
#include "global_config.h"
#include "tracker/auth.h"

namespace treering::capi {
namespace {

using Json = nlohmann::json;

// "no limit" for the bootstrap: a deadline far enough not to matter, small enough for
// steady_clock arithmetic.
constexpr double kNoTimeoutSeconds = 1e7;

std::string RandomHexToken() {
  // 256 bits from the CSPRNG, as treering-tracker's default token.
  const Result<proto::Nonce> nonce = proto::NewNonce();
  if (!nonce.ok()) throw ApiError("cannot make a job token: " + nonce.status().message());
  static const char* kHex = "0123456789abcdef";
  std::string out;
  for (std::uint8_t b : nonce.value()) {
    out.push_back(kHex[b >> 4]);
    out.push_back(kHex[b & 15]);
  }
  return out;
}

double ReadSeconds(const Json& v, const char* key) {
  if (!v.is_number() || !(v.get<double>() >= 0) || !std::isfinite(v.get<double>())) {
    throw ApiError(std::string("config: ") + key + ": expected seconds >= 0, got " + v.dump());
  }
  return v.get<double>();
}

}  // namespace

std::string ResolveTrackerHost(const std::string& host) {
  if (host != "auto") return host;
  const int fd = ::socket(AF_INET, SOCK_DGRAM, 0);
  if (fd < 0) return "127.0.0.1";
  sockaddr_in probe{};
  probe.sin_family = AF_INET;
  probe.sin_port = htons(9);
  ::inet_pton(AF_INET, "10.255.255.255", &probe.sin_addr);
  std::string result = "127.0.0.1";
  sockaddr_in local{};
  socklen_t len = sizeof(local);
  if (::connect(fd, reinterpret_cast<sockaddr*>(&probe), sizeof(probe)) == 0 &&
      ::getsockname(fd, reinterpret_cast<sockaddr*>(&local), &len) == 0) {
    char text[INET_ADDRSTRLEN] = {};
    if (::inet_ntop(AF_INET, &local.sin_addr, text, sizeof(text)) != nullptr) result = text;
  }
  ::close(fd);
  return result;
}

TrackerObject::TrackerObject(std::string_view config) {
  Json parsed;
  try {
    parsed = Json::parse(config);
  } catch (const Json::parse_error& e) {
    throw ApiError(std::string("config: not valid JSON: ") + e.what());
  }
  if (!parsed.is_object()) throw ApiError("config: expected a JSON object, got " + parsed.dump());
  std::string host = "auto";
  bool have_workers = false;
  for (const auto& [key, v] : parsed.items()) {
    if (v.is_null()) continue;
    if (key == "n_workers") {
      if (!v.is_number_integer() || v.get<long long>() < 1 || v.get<long long>() > 1000000) {
        throw ApiError("config: n_workers: expected an integer >= 1, got " + v.dump());
      }
      options_.num_workers = static_cast<int>(v.get<long long>());
      have_workers = true;
    } else if (key == "host" || key == "host_ip") {  // XGBoost 2.1 says host
      if (!v.is_string() || v.get<std::string>().empty()) {
        throw ApiError("config: " + key + ": expected an address or \"auto\", got " + v.dump());
      }
      host = v.get<std::string>();
    } else if (key == "port") {
      if (!v.is_number_integer() || v.get<long long>() < 0 || v.get<long long>() > 65535) {
        throw ApiError("config: port: expected 0 (any free port) or 1..65535, got " + v.dump());
      }
      options_.port = static_cast<std::uint16_t>(v.get<long long>());
    } else if (key == "timeout") {
      const double s = ReadSeconds(v, "timeout");
      options_.bootstrap_timeout_s = s == 0 ? kNoTimeoutSeconds : s;
    } else if (key == "token") {
      if (!v.is_string()) throw ApiError("config: token: expected a string, got " + v.dump());
      options_.token = v.get<std::string>();
    } else if (key == "legacy") {
      if (!v.is_boolean()) throw ApiError("config: legacy: expected true or false");
      options_.legacy = v.get<bool>();
    } else if (key == "dmlc_communicator") {
      if (v != "rabit") {
        throw ApiError("config: dmlc_communicator: only \"rabit\" is supported, got " + v.dump());
      }
    } else if (key == "max_attempts") {
      // Restarted workers (same task id, DMLC_NUM_ATTEMPT > 0) rejoin: recovery epochs.
      if (!v.is_number_integer() || v.get<long long>() < 1 || v.get<long long>() > 1000) {
        throw ApiError("config: max_attempts: expected an integer in 1..1000, got " + v.dump());
      }
      options_.max_attempts = static_cast<std::uint32_t>(v.get<long long>());
    } else if (key == "recovery_timeout") {
      const double s = ReadSeconds(v, "recovery_timeout");
      options_.recovery_timeout_s = s == 0 ? kNoTimeoutSeconds : s;
    } else if (key == "sortby") {
      // Ranks always follow task ids when every worker gives one (arrival order otherwise).
      if (v != 0 && v != 1) throw ApiError("config: sortby: expected 0 or 1, got " + v.dump());
    } else {
      throw ApiError("config: unknown key '" + key +
                     "' (known: n_workers, host, port, timeout, token, legacy, "
                     "dmlc_communicator, sortby, max_attempts, recovery_timeout)");
    }
  }
  if (!have_workers) throw ApiError("config: n_workers is required");
  options_.host_ip = ResolveTrackerHost(host);
  if (options_.token.empty()) options_.token = RandomHexToken();
  // The tracker's own lines (info) and the workers' prints (shown unless verbosity 0) reach
  // the binding's log callback, or stderr without one, at the verbosity of the thread that
  // created the tracker: the serving thread has no configuration of its own.
  const int verbosity = GlobalVerbosity();
  options_.log = [verbosity](const std::string& line) {
    Log(kLogInfo, "[tracker] " + line, verbosity);
  };
  options_.print = [verbosity](const std::string& message) {
    Log(kLogWarning, message, verbosity);
  };
  server_ = std::make_unique<tracker::TrackerServer>(options_);
  const Status started = server_->Start();
  if (!started.ok()) throw ApiError(started.message());
}

TrackerObject::~TrackerObject() {
  if (thread_.joinable()) {
    server_->Stop();
    thread_.join();
  }
}

std::string TrackerObject::WorkerArgs() const {
  Json args = Json::object();
  args["dmlc_tracker_uri"] = options_.host_ip;
  args["dmlc_tracker_port"] = server_->port();
  args["dmlc_num_worker"] = options_.num_workers;
  args["rabit_job_token"] = options_.token;
  // Workers of a job that takes restarts run the robust engine (docs/fault-tolerance.md).
  if (options_.max_attempts > 1) args["rabit_max_attempts"] = options_.max_attempts;
  return args.dump();
}

void TrackerObject::Run() {
  std::lock_guard lock(mutex_);
  if (running_) throw ApiError("the tracker is already running (XGTrackerRun called before)");
  running_ = true;
  thread_ = std::thread([this] {
    Status s;
    try {  // nothing may escape a thread: it would terminate the user's process
      s = server_->Wait();
    } catch (const std::exception& e) {
      s = Status::Internal(std::string("tracker: ") + e.what());
    } catch (...) {
      s = Status::Internal("tracker: unknown error");
    }
    std::lock_guard done_lock(mutex_);
    result_ = std::move(s);
    finished_ = true;
    done_.notify_all();
  });
}

void TrackerObject::WaitFor(double timeout_s) {
  std::unique_lock lock(mutex_);
  if (!running_) throw ApiError("the tracker is not running (call XGTrackerRun first)");
  const auto finished = [this] { return finished_; };
  if (timeout_s > 0) {
    if (!done_.wait_for(lock, std::chrono::duration<double>(timeout_s), finished)) {
      throw ApiError("timeout: the job did not end within " + std::to_string(timeout_s) + " s");
    }
  } else {
    done_.wait(lock, finished);
  }
  if (!result_.ok()) throw ApiError("the job failed: " + result_.message());
}

void TrackerObject::Stop() {
  std::lock_guard lock(mutex_);
  if (running_ && !finished_) server_->Stop();
}

}  // namespace treering::capi
