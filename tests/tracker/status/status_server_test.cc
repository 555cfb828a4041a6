// The tracker serving its status page on its own port while fake workers send Reports: the
// JSON reflects them, a wrong token gets 403 and changes nothing, a Report from a connection
// that never proved the token is refused, and workers keep being served around HTTP clients.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "../fake_client.h"
#include "../running_tracker.h"

namespace treering::testing {
namespace {

constexpr char kToken[] = "status-token";

TrackerOptions Options(int n) {
  TrackerOptions o;
  o.num_workers = n;
  o.token = kToken;
  o.bootstrap_timeout_s = 20;
  o.hello_timeout_s = 2;
  o.hang_report_s = 1;
  o.log = [](const std::string&) {};
  return o;
}

// One HTTP exchange on the tracker's port: the whole response (the server closes).
std::string Http(std::uint16_t port, const std::string& request) {
  FakeClient c;
  if (!c.Connect("127.0.0.1", port).ok() || !c.SendRaw({request.begin(), request.end()}).ok()) {
    return "";
  }
  std::string out;
  char ch;
  while (c.RecvRaw(&ch, 1, 5).ok()) out += ch;
  return out;
}

std::string Body(const std::string& response) {
  const std::size_t end = response.find("\r\n\r\n");
  return end == std::string::npos ? "" : response.substr(end + 4);
}

std::vector<FakeClient> Join(RunningTracker& t, int n) {
  std::vector<FakeClient> workers(n);
  for (int i = 0; i < n; ++i) {
    EXPECT_TRUE(workers[i].Connect("127.0.0.1", t.port()).ok());
    EXPECT_TRUE(workers[i]
                    .SendHello(kToken, std::to_string(i), "w" + std::to_string(i),
                               static_cast<std::uint16_t>(7000 + i))
                    .ok());
  }
  for (auto& w : workers) EXPECT_TRUE(w.ReadAssign().ok());
  return workers;
}

proto::Report Progress(std::uint32_t pid, std::uint64_t entered, int done_round) {
  proto::Report r;
  r.pid = pid;
  r.round = done_round + 1;
  r.phase = "histogram sync";
  r.op = proto::OpKind::kAllreduce;
  r.entered = entered;
  r.finished = entered;
  r.done_round = done_round;
  r.comp_s = 0.5;
  r.sync_s = 0.125;
  r.metrics = {{"eval-rmse", 1.0 / (done_round + 1)}};
  return r;
}

nlohmann::json StatusJson(std::uint16_t port) {
  const std::string body =
      Body(Http(port, std::string("GET /status.json?token=") + kToken + " HTTP/1.1\r\n\r\n"));
  return nlohmann::json::parse(body, nullptr, false);
}

TEST(StatusServerTest, ReportsShowUpAndTheTokenGuardsThem) {
  RunningTracker t(Options(2));
  ASSERT_TRUE(t.start_status().ok());
  auto workers = Join(t, 2);
  for (int round = 0; round < 3; ++round) {
    for (int r = 0; r < 2; ++r) {
      ASSERT_TRUE(workers[r].SendRaw(proto::Encode(Progress(500 + r, 10 + round, round))).ok());
    }
  }
  nlohmann::json j;
  for (int i = 0; i < 100; ++i) {  // Reports and the HTTP request race: poll briefly
    j = StatusJson(t.port());
    if (j.is_object() && j["rounds_done"] == 3 && j["ranks"][1]["pid"] == 501) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  ASSERT_TRUE(j.is_object());
  EXPECT_EQ(j["rounds_done"], 3);
  EXPECT_EQ(j["ranks"][0]["host"], "w0");
  EXPECT_EQ(j["ranks"][1]["pid"], 501);
  EXPECT_EQ(j["ranks"][1]["entered"], 12);
  EXPECT_EQ(j["metrics"]["eval-rmse"].size(), 3u);

  const std::string denied = Http(t.port(), "GET /status.json?token=wrong HTTP/1.1\r\n\r\n");
  EXPECT_EQ(denied.substr(0, 12), "HTTP/1.1 403");
  EXPECT_EQ(Body(denied).find("rmse"), std::string::npos);
  EXPECT_EQ(Http(t.port(), "GET / HTTP/1.1\r\n\r\n").substr(0, 12), "HTTP/1.1 403");
  EXPECT_EQ(
      Http(t.port(), "GET / HTTP/1.1\r\nX: " + std::string(9000, 'x') + "\r\n\r\n").substr(0, 12),
      "HTTP/1.1 431");
  const std::string page =
      Http(t.port(), std::string("GET /?token=") + kToken + " HTTP/1.1\r\n\r\n");
  EXPECT_EQ(page.substr(0, 15), "HTTP/1.1 200 OK");
  EXPECT_NE(page.find("\"eval-rmse\""), std::string::npos);

  // A stranger's Report (no Hello, no proof) is refused and changes nothing.
  FakeClient stranger;
  ASSERT_TRUE(stranger.Connect("127.0.0.1", t.port()).ok());
  ASSERT_TRUE(stranger.SendRaw(proto::Encode(Progress(666, 99, 40))).ok());
  auto reject = stranger.ReadFrame(5);
  ASSERT_TRUE(reject.ok());
  EXPECT_EQ(reject->header.kind, proto::Kind::kReject);
  j = StatusJson(t.port());
  EXPECT_EQ(j["rounds_done"], 3);
  EXPECT_EQ(j["ranks"][0]["pid"], 500);
  EXPECT_EQ(j["state"], "running");

  for (auto& w : workers) ASSERT_TRUE(w.SendRaw(proto::Encode(proto::Shutdown{})).ok());
  EXPECT_TRUE(t.Result(10).ok());
}

TEST(StatusServerTest, AHangLineNamesTheRankThatDidNotEnter) {
  TrackerOptions o = Options(3);
  auto lines = std::make_shared<std::vector<std::string>>();
  auto mu = std::make_shared<std::mutex>();
  o.log = [lines, mu](const std::string& l) {
    std::lock_guard<std::mutex> lock(*mu);
    lines->push_back(l);
  };
  RunningTracker t(o);
  auto workers = Join(t, 3);
  for (int r = 0; r < 3; ++r) {
    proto::Report p = Progress(700 + r, r == 2 ? 40 : 41, -1);
    p.finished = 40;
    p.round = 7;
    ASSERT_TRUE(workers[r].SendRaw(proto::Encode(p)).ok());
  }
  std::string found;
  for (int i = 0; i < 60 && found.empty(); ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    std::lock_guard<std::mutex> lock(*mu);
    for (const auto& l : *lines) {
      if (l.find("has not entered") != std::string::npos) found = l;
    }
  }
  const std::string expected =
      "rank 2 (w2, pid 702) has not entered Allreduce #41 (round 7, histogram sync); ranks 0-1 "
      "wait for it";
  EXPECT_EQ(found.substr(0, expected.size()), expected);
  EXPECT_EQ(StatusJson(t.port())["hang"], found);
}

}  // namespace
}  // namespace treering::testing
