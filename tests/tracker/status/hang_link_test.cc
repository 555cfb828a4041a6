// The hang watch's per-link lines and the workers' rabit_hang_report (docs/status.md): a rank
// inside a collective whose link carried nothing is named with that link; a worker's key
// overrides the tracker's --hang-report.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "status/hang_watch.h"
#include "status/job_status.h"

namespace treering::tracker {
namespace {

using std::chrono::seconds;

proto::Report Inside(std::uint64_t entered, std::uint64_t finished,
                     std::vector<proto::LinkReport> links = {}, double hang_report_s = -1) {
  proto::Report r;
  r.pid = 4100 + static_cast<std::uint32_t>(links.empty() ? 0 : links[0].peer);
  r.round = 41;
  r.phase = "histogram sync";
  r.op = proto::OpKind::kAllreduce;
  r.entered = entered;
  r.finished = finished;
  r.links = std::move(links);
  r.hang_report_s = hang_report_s;
  return r;
}

JobStatus Job(int n, SteadyTime t0) {
  JobStatus job(n);
  for (int r = 0; r < n; ++r) job.OnAssigned(r, "h" + std::to_string(r), std::to_string(r), t0);
  return job;
}

TEST(HangLinkTest, NamesTheRankAndItsSilentLink) {
  const SteadyTime t0{};
  JobStatus job = Job(4, t0);
  // Ranks 2 and 3 lost their link to each other inside op #812; 0 and 1 wait on theirs, which
  // still move (a heartbeat later their idle time is small).
  const auto at = t0 + seconds(40);
  job.OnReport(0, Inside(812, 811, {{1, 10, 10, 0.5, true}}), t0);
  job.OnReport(1, Inside(812, 811, {{0, 10, 10, 0.5, true}}), t0);
  job.OnReport(2, Inside(812, 811, {{1, 9, 9, 0.1, false}, {3, 5, 5, 40, true}}), t0);
  job.OnReport(3, Inside(812, 811, {{2, 5, 5, 39, true}}), t0);
  for (int r = 0; r < 4; ++r) {
    auto report = job.ranks()[r].last;
    for (auto& l : report.links) l.idle_s = l.peer + r == 5 ? 40 : 0.5;  // 2<->3 silent
    job.OnReport(r, report, at);
  }
  HangWatch watch(30);
  auto line = watch.Check(job.ranks(), at);
  ASSERT_TRUE(line);
  EXPECT_EQ(*line,
            "rank 2 (h2, pid 4101) is inside Allreduce #812 (round 41, histogram sync); its link "
            "to rank 3 has carried no bytes for 40 s; rank 3 (h3, pid 4102): its link to rank 2 "
            "has carried no bytes for 40 s");
  // The page shows each rank's links, idle counted on to now.
  const auto json = nlohmann::json::parse(job.ToJson(at + seconds(2), t0));
  const auto& links = json["ranks"][2]["links"];
  ASSERT_EQ(links.size(), 2u);
  EXPECT_EQ(links[1]["peer"], 3);
  EXPECT_EQ(links[1]["sent"], 5);
  EXPECT_EQ(links[1]["waiting"], true);
  EXPECT_DOUBLE_EQ(links[1]["idle_s"].get<double>(), 42.0);
}

TEST(HangLinkTest, ALateRankStuckOnASilentLinkLeadsTheLine) {
  // Rank 0 finished #191 (its bytes left it) and waits in #192; rank 1 never got them and
  // still reports from inside #191 (the cut in tests/cluster/link_stall_test.py).
  const SteadyTime t0{};
  JobStatus job = Job(2, t0);
  for (const int at : {0, 5}) {  // a heartbeat at 0 s and at 5 s, the same op each
    job.OnReport(0, Inside(192, 191, {{1, 50, 40, at + 0.0, true}}), t0 + seconds(at));
    job.OnReport(1, Inside(191, 190, {{0, 40, 45, at + 0.0, true}}), t0 + seconds(at));
  }
  HangWatch watch(3);
  auto line = watch.Check(job.ranks(), t0 + seconds(5));
  ASSERT_TRUE(line);
  EXPECT_EQ(*line,
            "rank 1 (h1, pid 4100) is inside Allreduce #191 (round 41, histogram sync); its link "
            "to rank 0 has carried no bytes for 5 s; rank 0 waits in Allreduce #192 (round 41, "
            "histogram sync)");
}

TEST(HangLinkTest, MovingLinksGiveTheGeneralLine) {
  const SteadyTime t0{};
  JobStatus job = Job(2, t0);
  for (int r = 0; r < 2; ++r) job.OnReport(r, Inside(9, 8, {{1 - r, 1, 1, 0.2, true}}), t0);
  HangWatch watch(3);
  auto line = watch.Check(job.ranks(), t0 + seconds(3));
  ASSERT_TRUE(line);
  EXPECT_EQ(line->find("its link"), std::string::npos) << *line;
  EXPECT_NE(line->find("ranks 0-1 are inside Allreduce #9"), std::string::npos) << *line;
}

TEST(HangLinkTest, AWorkersHangReportOverridesTheTrackers) {
  const SteadyTime t0{};
  JobStatus job = Job(2, t0);
  job.OnReport(0, Inside(5, 4, {}, 2), t0);  // rank 0's rabit_hang_report=2
  job.OnReport(1, Inside(4, 4), t0);
  EXPECT_EQ(HangReportAfter(job.ranks(), 30), 2);
  HangWatch watch(30);
  EXPECT_FALSE(watch.Check(job.ranks(), t0 + seconds(1)));
  EXPECT_TRUE(watch.Check(job.ranks(), t0 + seconds(2)));
  // rabit_hang_report=0 on a worker turns the lines off, even with the tracker's at 1.
  JobStatus off = Job(2, t0);
  off.OnReport(0, Inside(5, 4, {}, 0), t0);
  off.OnReport(1, Inside(4, 4), t0);
  HangWatch watch_off(1);
  EXPECT_FALSE(watch_off.Check(off.ranks(), t0 + seconds(100)));
  // No worker sets it: the tracker's value.
  JobStatus plain = Job(2, t0);
  plain.OnReport(0, Inside(5, 4), t0);
  plain.OnReport(1, Inside(4, 4), t0);
  EXPECT_EQ(HangReportAfter(plain.ranks(), 30), 30);
}

}  // namespace
}  // namespace treering::tracker
