// The status page's model without sockets: JobStatus's JSON, the hang watch's lines and
// back-off, the HTTP answers (token, cookie, methods, paths) and the page's escaping.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "status/hang_watch.h"
#include "status/job_status.h"
#include "status/progress_line.h"
#include "status/status_http.h"
#include "tracker/status_url.h"

namespace treering::tracker {
namespace {

using std::chrono::seconds;

proto::Report At(std::uint64_t entered, std::uint64_t finished, int round = 41,
                 const char* phase = "histogram sync") {
  proto::Report r;
  r.pid = 4100;
  r.round = round;
  r.phase = phase;
  r.op = proto::OpKind::kAllreduce;
  r.entered = entered;
  r.finished = finished;
  return r;
}

JobStatus Job(int n, SteadyTime t0) {
  JobStatus job(n);
  for (int r = 0; r < n; ++r) job.OnAssigned(r, "h" + std::to_string(r), std::to_string(r), t0);
  return job;
}

TEST(JobStatusTest, JsonHasRanksRoundsMetricsAndTimeline) {
  const SteadyTime t0{};
  JobStatus job = Job(2, t0);
  for (int round = 0; round < 3; ++round) {
    for (int rank = 0; rank < 2; ++rank) {
      proto::Report r = At(10 * round + 5, 10 * round + 5, round + 1, "training");
      r.pid = 100 + rank;
      r.done_round = round;
      r.comp_s = 0.5 + rank;
      r.sync_s = 0.25;
      r.bytes = 1000;
      r.metrics = {{"eval-rmse", 1.0 / (round + 1)}, {"train-rmse", 0.5 / (round + 1)}};
      job.OnReport(rank, r, t0 + seconds(round));
    }
  }
  job.OnLost(1);
  job.OnRestarted(1, 1);
  job.OnRecoveryDone(1);
  const auto j = nlohmann::json::parse(job.ToJson(t0 + seconds(5), t0));
  EXPECT_EQ(j["world_size"], 2);
  EXPECT_EQ(j["rounds_done"], 3);
  EXPECT_EQ(j["restarts"], 1);
  EXPECT_EQ(j["recoveries"], 1);
  ASSERT_EQ(j["ranks"].size(), 2u);
  EXPECT_EQ(j["ranks"][1]["host"], "h1");
  EXPECT_EQ(j["ranks"][1]["pid"], 101);
  EXPECT_EQ(j["ranks"][1]["state"], "running");
  EXPECT_EQ(j["ranks"][0]["entered"], 25);
  EXPECT_DOUBLE_EQ(j["ranks"][1]["comp_s"].get<double>(), 4.5);
  EXPECT_DOUBLE_EQ(j["ranks"][0]["sync_s"].get<double>(), 0.75);
  ASSERT_EQ(j["metrics"]["eval-rmse"].size(), 3u);
  EXPECT_DOUBLE_EQ(j["metrics"]["eval-rmse"][2][1].get<double>(), 1.0 / 3);
  ASSERT_EQ(j["timeline"].size(), 3u);
  EXPECT_DOUBLE_EQ(j["timeline"][1]["comp_s"][1].get<double>(), 1.5);
}

TEST(JobStatusTest, ARoundReportedTwiceCountsOnceAndNanIsNull) {
  const SteadyTime t0{};
  JobStatus job = Job(1, t0);
  proto::Report r = At(1, 1);
  r.done_round = 0;
  r.comp_s = 1;
  r.metrics = {{"eval-logloss", std::nan("")}};
  job.OnReport(0, r, t0);
  job.OnReport(0, r, t0);  // a restarted rank reports its rounds again
  const auto j = nlohmann::json::parse(job.ToJson(t0, t0));
  EXPECT_DOUBLE_EQ(j["ranks"][0]["comp_s"].get<double>(), 1.0);
  EXPECT_TRUE(j["metrics"]["eval-logloss"][0][1].is_null());
}

TEST(JobStatusTest, KeepsAtMostMaxRounds) {
  const SteadyTime t0{};
  JobStatus job = Job(1, t0);
  for (int round = 0; round < static_cast<int>(JobStatus::kMaxRounds) + 10; ++round) {
    proto::Report r = At(round, round);
    r.done_round = round;
    job.OnReport(0, r, t0);
  }
  EXPECT_EQ(job.rounds().size(), JobStatus::kMaxRounds);
  EXPECT_EQ(job.rounds().begin()->first, 10);
}

TEST(HangWatchTest, NamesTheRankThatDidNotEnterThenBacksOff) {
  const SteadyTime t0{};
  JobStatus job = Job(8, t0);
  for (int r = 0; r < 8; ++r) job.OnReport(r, r == 3 ? At(811, 811) : At(812, 811), t0);
  HangWatch watch(30);
  EXPECT_FALSE(watch.Check(job.ranks(), t0 + seconds(29)));
  auto line = watch.Check(job.ranks(), t0 + seconds(30));
  ASSERT_TRUE(line);
  const std::string expected =
      "rank 3 (h3, pid 4100) has not entered Allreduce #812 (round 41, histogram sync); "
      "ranks 0-2,4-7 wait for it; rank 3 (h3";
  EXPECT_EQ(line->substr(0, expected.size()), expected);
  EXPECT_NE(line->find("; rank 3 (h3, pid 4100) has sent nothing for 30 s"), std::string::npos)
      << *line;
  EXPECT_FALSE(watch.Check(job.ranks(), t0 + seconds(45)));  // back-off: next at 60 s
  EXPECT_TRUE(watch.Check(job.ranks(), t0 + seconds(60)));
  EXPECT_FALSE(watch.Check(job.ranks(), t0 + seconds(100)));
  EXPECT_TRUE(watch.Check(job.ranks(), t0 + seconds(120)));
  // Rank 3 catches up: the stall is over, nothing more is said.
  job.OnReport(3, At(812, 812), t0 + seconds(121));
  for (int r = 0; r < 8; ++r) job.OnReport(r, At(812, 812), t0 + seconds(121));
  EXPECT_FALSE(watch.Check(job.ranks(), t0 + seconds(200)));
  EXPECT_FALSE(watch.stalled());
}

TEST(HangWatchTest, ALiveLateRankIsDescribedByItsPhase) {
  const SteadyTime t0{};
  JobStatus job = Job(2, t0);
  job.OnReport(0, At(5, 4), t0);
  job.OnReport(1, At(4, 4, 41, "loading data"), t0 + seconds(9));
  HangWatch watch(2);
  auto line = watch.Check(job.ranks(), t0 + seconds(10));
  ASSERT_TRUE(line);
  EXPECT_NE(line->find("rank 1 (h1, pid 4100) has not entered Allreduce #5"), std::string::npos);
  EXPECT_NE(line->find("rank 0 waits for it; rank 1 is at: loading data"), std::string::npos)
      << *line;
}

TEST(HangWatchTest, ACollectiveEveryRankEnteredButNoneFinished) {
  const SteadyTime t0{};
  JobStatus job = Job(4, t0);
  for (int r = 0; r < 4; ++r) job.OnReport(r, At(9, r < 2 ? 9 : 8), t0);
  // Heartbeats go on (the same progress): nobody is silent, the op just does not finish.
  for (int r = 0; r < 4; ++r) job.OnReport(r, At(9, r < 2 ? 9 : 8), t0 + seconds(2));
  // Ranks 0 and 1 finished 9: nobody waits inside it for a rank that has not entered.
  HangWatch watch(3);
  auto line = watch.Check(job.ranks(), t0 + seconds(3));
  ASSERT_TRUE(line);
  EXPECT_EQ(*line,
            "ranks 2-3 are inside Allreduce #9 (round 41, histogram sync), entered by every rank, "
            "and have not finished it for 3 s; ranks 0-1 finished it");
}

TEST(HangWatchTest, SilentWhileRanksAreNotAllRunning) {
  const SteadyTime t0{};
  JobStatus job = Job(2, t0);
  job.OnReport(0, At(5, 4), t0);  // rank 1 never reported
  HangWatch watch(1);
  EXPECT_FALSE(watch.Check(job.ranks(), t0 + seconds(100)));
}

TEST(HangWatchTest, RankRanges) {
  EXPECT_EQ(RankRanges({0, 1, 2, 4, 5, 6, 7}), "0-2,4-7");
  EXPECT_EQ(RankRanges({3}), "3");
  EXPECT_EQ(RankRanges({1, 3, 5}), "1,3,5");
  EXPECT_EQ(RankRanges({}), "");
}

const std::string kToken(64, 'a');

StatusSite Site() {
  return {kToken, 9091, [] { return std::string(R"({"state":"running"})"); }};
}

std::string Ask(const std::string& target, const std::string& method = "GET",
                const std::string& cookie = "", const std::string& auth = "") {
  return AnswerStatusRequest({method, target, cookie, auth}, Site());
}

TEST(StatusHttpTest, WithoutTheRightTokenEverythingIs403) {
  for (const std::string& target : std::vector<std::string>{
           "/", "/status.json", "/?token=", "/?token=" + kToken.substr(1),
           "/?token=" + kToken + "b", "/nothing", "/status.json?tok=" + kToken}) {
    EXPECT_EQ(Ask(target).substr(0, 12), "HTTP/1.1 403") << target;
  }
  EXPECT_EQ(Ask("/", "GET", "treering_token_9092=" + kToken).substr(0, 12), "HTTP/1.1 403");
  EXPECT_EQ(Ask("/", "POST").substr(0, 12), "HTTP/1.1 403");
}

TEST(StatusHttpTest, TheTokenInQueryCookieOrBearerOpensThePage) {
  const std::string page = Ask("/?token=" + kToken);
  EXPECT_EQ(page.substr(0, 15), "HTTP/1.1 200 OK");
  EXPECT_NE(page.find("Set-Cookie: treering_token_9091=" + kToken +
                      "; Path=/; HttpOnly; SameSite=Strict"),
            std::string::npos);
  EXPECT_NE(page.find("Content-Security-Policy: default-src 'none'"), std::string::npos);
  EXPECT_NE(page.find("Referrer-Policy: no-referrer"), std::string::npos);
  // Self-contained: no script, style or image from anywhere (the SVG namespace is a name).
  EXPECT_EQ(page.find(" src="), std::string::npos);
  EXPECT_EQ(page.find("http", page.find("\r\n\r\n")), page.find("http://www.w3.org/2000/svg"));
  const std::string by_cookie = Ask("/", "GET", "x=1; treering_token_9091=" + kToken);
  EXPECT_EQ(by_cookie.substr(0, 15), "HTTP/1.1 200 OK");
  EXPECT_EQ(by_cookie.find("Set-Cookie"), std::string::npos);
  const std::string json = Ask("/status.json", "GET", "", "Bearer " + kToken);
  EXPECT_NE(json.find("Content-Type: application/json"), std::string::npos);
  EXPECT_EQ(json.substr(json.find("\r\n\r\n") + 4), R"({"state":"running"})");
  const std::string head = Ask("/status.json?token=" + kToken, "HEAD");
  EXPECT_EQ(head.substr(head.size() - 4), "\r\n\r\n");
}

TEST(StatusHttpTest, ReadOnlyAndOnlyTwoPaths) {
  EXPECT_EQ(Ask("/?token=" + kToken, "POST").substr(0, 12), "HTTP/1.1 405");
  EXPECT_EQ(Ask("/?token=" + kToken, "DELETE").substr(0, 12), "HTTP/1.1 405");
  EXPECT_EQ(Ask("/abort?token=" + kToken).substr(0, 12), "HTTP/1.1 404");
  EXPECT_EQ(Ask("/../etc/passwd?token=" + kToken).substr(0, 12), "HTTP/1.1 404");
}

TEST(StatusHttpTest, TokenEquals) {
  EXPECT_TRUE(TokenEquals("abc", "abc"));
  EXPECT_FALSE(TokenEquals("abc", "abd"));
  EXPECT_FALSE(TokenEquals("abc", "abcd"));
  EXPECT_FALSE(TokenEquals("", ""));  // an empty token never opens anything
}

TEST(StatusHttpTest, ThePageCannotBeBrokenOutOfByAWorkersStrings) {
  const std::string page = StatusPage(R"({"phase":"</script><script>alert(1)</script><!--"})");
  EXPECT_EQ(page.find("</script><script>alert"), std::string::npos);
  EXPECT_NE(page.find(R"(\u003c/script>\u003cscript>alert(1)\u003c/script>\u003c!--)"),
            std::string::npos);
}

TEST(StatusHttpTest, ParsesOneRequestHeader) {
  auto p =
      ParseStatusRequest("GET /status.json?token=x HTTP/1.1\r\nHost: h\r\nCookie: a=b\r\n\r\n");
  ASSERT_EQ(p.outcome, ParseOutcome::kDone);
  EXPECT_EQ(p.request.method, "GET");
  EXPECT_EQ(p.request.target, "/status.json?token=x");
  EXPECT_EQ(p.request.cookie, "a=b");
  EXPECT_EQ(ParseStatusRequest("GET / HTTP/1.1\r\nHost:").outcome, ParseOutcome::kNeedMore);
  EXPECT_EQ(ParseStatusRequest("GET / HTTP/1.1\r\nContent-Length: 5\r\n\r\n").outcome,
            ParseOutcome::kHasBody);
  EXPECT_EQ(ParseStatusRequest("GET / HTTX\r\n\r\n").outcome, ParseOutcome::kMalformed);
  EXPECT_EQ(ParseStatusRequest("GET / HTTP/1.1\r\nX: " + std::string(9000, 'x')).outcome,
            ParseOutcome::kTooLarge);
}

TEST(StatusUrlTest, PrintsTheUrlAndATunnelInsideSsh) {
  auto lines = StatusLines("127.0.0.1", 9091, "t0k", false, "head");
  ASSERT_EQ(lines.size(), 1u);
  EXPECT_EQ(lines[0], "status: http://127.0.0.1:9091/?token=t0k");
  lines = StatusLines("::1", 9091, "t0k", true, "head");
  ASSERT_EQ(lines.size(), 2u);
  EXPECT_EQ(lines[0], "status: http://[::1]:9091/?token=t0k");
  EXPECT_EQ(lines[1],
            "status from your machine: ssh -N -L 9091:[::1]:9091 head  then open "
            "http://localhost:9091/?token=t0k");
}

}  // namespace
}  // namespace treering::tracker

namespace treering::tracker {
namespace {

TEST(ProgressLineTest, PaceAndText) {
  const SteadyTime t0{};
  JobStatus job = Job(1, t0);
  EXPECT_FALSE(job.Pace());
  for (int round = 0; round < 3; ++round) {
    proto::Report r = At(round, round);
    r.done_round = round;
    r.total_rounds = 100;
    job.OnReport(0, r, t0 + std::chrono::milliseconds(500 * round));
    if (round == 0) EXPECT_FALSE(job.Pace());
  }
  const auto pace = job.Pace();
  ASSERT_TRUE(pace);
  EXPECT_EQ(pace->rounds_done, 3);
  EXPECT_DOUBLE_EQ(pace->seconds_per_round, 0.5);
  EXPECT_DOUBLE_EQ(pace->eta_s, 48.5);
  EXPECT_EQ(FormatProgress(*pace), "round 3/100, 0.5 s/round, about 48 s left");
  EXPECT_EQ(FormatProgress({10, -1, 2.5, -1}), "round 10, 2.5 s/round");
  EXPECT_EQ(FormatProgress({10, 500, 2, 980}), "round 10/500, 2 s/round, about 17 min left");
  EXPECT_EQ(FormatProgress({10, 5000, 2, 9980}), "round 10/5000, 2 s/round, about 2.8 h left");
  const auto j = nlohmann::json::parse(job.ToJson(t0, t0));
  EXPECT_EQ(j["total_rounds"], 100);
  EXPECT_DOUBLE_EQ(j["eta_s"].get<double>(), 48.5);
}

TEST(ProgressLineTest, RedrawsAroundOtherLinesOnlyWhenEnabled) {
  char* text = nullptr;
  std::size_t size = 0;
  std::FILE* out = open_memstream(&text, &size);
  {
    ProgressLine off(false, out);
    off.Show("x");
    off.Clear();
    ProgressLine on(true, out);
    on.Clear();  // nothing shown yet: nothing to erase
    on.Show("round 3/10");
    on.Clear();
    on.Restore();
    on.Finish();
  }
  std::fclose(out);
  EXPECT_EQ(std::string(text, size), "\r\033[Kround 3/10\r\033[Kround 3/10\r\033[K");
  std::free(text);
}

}  // namespace
}  // namespace treering::tracker
