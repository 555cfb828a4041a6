#include "status/hang_watch.h"

#include <algorithm>
#include <cstdio>

namespace treering::tracker {
namespace {

double Seconds(SteadyTime from, SteadyTime to) {
  return std::chrono::duration<double>(to - from).count();
}

// A rank the watch can reason about: running and heard from since its (re)assignment.
bool Watchable(const RankStatus& s) { return s.state == RankState::kRunning && s.reported; }

std::string Who(const RankStatus& s) {
  return "rank " + std::to_string(s.rank) + " (" + (s.host.empty() ? "?" : s.host) + ", pid " +
         std::to_string(s.last.pid) + ")";
}

// "Allreduce #812 (round 41, histogram sync)" as the rank inside it reported it.
std::string OpText(const RankStatus& inside, std::uint64_t seq) {
  std::string text = proto::OpName(inside.last.op) + " #" + std::to_string(seq);
  std::string where;
  if (inside.last.round >= 0) where = "round " + std::to_string(inside.last.round);
  if (!inside.last.phase.empty()) where += (where.empty() ? "" : ", ") + inside.last.phase;
  return where.empty() ? text : text + " (" + where + ")";
}

std::string Plural(std::size_t n, const char* one, const char* many) { return n == 1 ? one : many; }

// A rank whose heartbeats (one a second by default) stopped this long ago is not running.
constexpr double kSilentSeconds = 3;

// "; rank 1 (h1, pid 42) has sent nothing for 12 s (...)" for each of `ranks` gone silent.
std::string SilentOnes(const std::vector<const RankStatus*>& ranks, SteadyTime now) {
  std::string text;
  for (const RankStatus* s : ranks) {
    const double silent = Seconds(s->last_report, now);
    if (silent < kSilentSeconds) continue;
    char seconds[32];
    std::snprintf(seconds, sizeof seconds, "%.0f", silent);
    text += "; " + Who(*s) + " has sent nothing for " + seconds +
            " s (stopped, or its host is unreachable?)";
  }
  return text;
}

// "its link to rank 3 has carried no bytes for 40 s" for the link `s` waits on that has been
// silent longest, once that is at least `after_s`; "" when its links move (a slow op, not a
// stuck one) or it sent no link counters (a worker of an earlier version 4).
std::string SilentLink(const RankStatus& s, SteadyTime now, double after_s) {
  const proto::LinkReport* worst = nullptr;
  for (const proto::LinkReport& l : s.last.links) {
    if (l.waiting && (worst == nullptr || l.idle_s > worst->idle_s)) worst = &l;
  }
  if (worst == nullptr) return "";
  const double idle = worst->idle_s + Seconds(s.last_report, now);
  if (idle < after_s) return "";
  char seconds[32];
  std::snprintf(seconds, sizeof seconds, "%.0f", idle);
  return "its link to rank " + std::to_string(worst->peer) + " has carried no bytes for " +
         seconds + " s";
}

// "rank 2 (h2, pid 9) is inside Allreduce #812 (...); its link to rank 3 has carried no bytes
// for 40 s; rank 3 (...): its link ..." for those of `ranks` that still report, are inside a
// collective and wait on a silent link; "" when none does.
std::string StuckOnLinks(const std::vector<const RankStatus*>& ranks, SteadyTime now,
                         double after_s) {
  std::string text;
  for (const RankStatus* s : ranks) {
    if (Seconds(s->last_report, now) >= kSilentSeconds) continue;
    if (s->last.finished >= s->last.entered) continue;
    const std::string link = SilentLink(*s, now, after_s);
    if (link.empty()) continue;
    text += text.empty() ? Who(*s) + " is inside " + OpText(*s, s->last.entered) + "; " + link
                         : "; " + Who(*s) + ": " + link;
  }
  return text;
}

}  // namespace

double HangReportAfter(const std::vector<RankStatus>& ranks, double tracker_s) {
  double after = -1;
  for (const RankStatus& s : ranks) {
    if (s.reported && s.last.hang_report_s >= 0 && (after < 0 || s.last.hang_report_s < after)) {
      after = s.last.hang_report_s;
    }
  }
  return after >= 0 ? after : tracker_s;
}

std::string RankRanges(const std::vector<int>& ranks) {
  std::string out;
  for (std::size_t i = 0; i < ranks.size();) {
    std::size_t j = i;
    while (j + 1 < ranks.size() && ranks[j + 1] == ranks[j] + 1) ++j;
    if (!out.empty()) out += ",";
    out += std::to_string(ranks[i]);
    if (j > i) out += "-" + std::to_string(ranks[j]);
    i = j + 1;
  }
  return out;
}

std::optional<std::string> HangWatch::Due(const std::string& key, double waited_s, std::string line,
                                          double after_s) {
  if (key != key_) {
    key_ = key;
    next_s_ = after_s;
  }
  if (waited_s < next_s_) return std::nullopt;
  next_s_ *= 2;
  return line;
}

std::optional<std::string> HangWatch::Check(const std::vector<RankStatus>& ranks, SteadyTime now) {
  const bool all_watchable = ranks.size() > 1 && std::all_of(ranks.begin(), ranks.end(), Watchable);
  const double after = HangReportAfter(ranks, after_s_);
  if (!all_watchable || after <= 0) {
    key_.clear();
    return std::nullopt;
  }
  std::uint64_t top = 0;
  for (const RankStatus& s : ranks) top = std::max(top, s.last.entered);
  std::vector<const RankStatus*> behind, waiting;
  for (const RankStatus& s : ranks) {
    if (s.last.entered < top) behind.push_back(&s);
    if (s.last.entered == top && s.last.finished < top) waiting.push_back(&s);
  }
  if (top == 0 || waiting.empty()) {
    key_.clear();
    return std::nullopt;
  }
  const std::string op = OpText(*waiting.front(), top);
  if (!behind.empty()) {
    // Some ranks wait inside op `top` for ranks that never entered it.
    SteadyTime since = waiting.front()->entered_at;
    for (const RankStatus* s : waiting) since = std::min(since, s->entered_at);
    std::vector<int> waiters;
    for (const RankStatus& s : ranks) {
      if (s.last.entered == top) waiters.push_back(s.rank);
    }
    std::string line, key = "behind " + std::to_string(top);
    for (const RankStatus* s : behind) key += " " + std::to_string(s->rank);
    // A late rank still reporting, stuck inside an earlier collective on a silent link (its
    // peer finished that one and moved on; the bytes between them were lost): that is the
    // cause, so the line leads with it.
    std::string link_line = StuckOnLinks(behind, now, after);
    if (!link_line.empty()) {
      link_line += "; " + std::string(Plural(waiters.size(), "rank ", "ranks ")) +
                   RankRanges(waiters) + Plural(waiters.size(), " waits", " wait") + " in " + op;
      return Due(key, Seconds(since, now), link_line + SilentOnes(behind, now), after);
    }
    for (const RankStatus* s : behind) line += (line.empty() ? "" : ", ") + Who(*s);
    line += Plural(behind.size(), " has", " have") + " not entered " + op + "; " +
            Plural(waiters.size(), "rank ", "ranks ") + RankRanges(waiters) +
            Plural(waiters.size(), " waits for ", " wait for ") +
            Plural(behind.size(), "it", "them");
    // Say what the late ranks are doing, or that they went silent (a stopped process).
    line += SilentOnes(behind, now);
    for (const RankStatus* s : behind) {
      if (Seconds(s->last_report, now) >= kSilentSeconds || s->last.phase.empty()) continue;
      line += "; rank " + std::to_string(s->rank) + " is " +
              (s->last.entered > s->last.finished
                   ? "inside " + proto::OpName(s->last.op) + " #" + std::to_string(s->last.entered)
                   : "at: " + s->last.phase);
    }
    return Due(key, Seconds(since, now), line, after);
  }
  // Every rank entered op `top` and some never finished it: the op itself does not progress
  // (a cut link, a peer that stopped inside it).
  SteadyTime since = ranks.front().entered_at;
  for (const RankStatus& s : ranks) since = std::max(since, s.entered_at);
  std::vector<int> stuck, done;
  std::vector<const RankStatus*> stuck_ranks;
  for (const RankStatus& s : ranks) {
    (s.last.finished < top ? stuck : done).push_back(s.rank);
    if (s.last.finished < top) stuck_ranks.push_back(&s);
  }
  const double waited = Seconds(since, now);
  // A rank still reporting whose link has gone quiet: the line names it and the link (a cut
  // link between two hosts whose tracker connections still work).
  std::string link_line = StuckOnLinks(stuck_ranks, now, after);
  if (!link_line.empty()) {
    if (!done.empty()) {
      link_line += "; " + std::string(Plural(done.size(), "rank ", "ranks ")) + RankRanges(done) +
                   " finished it";
    }
    link_line += SilentOnes(stuck_ranks, now);
    return Due("inside " + std::to_string(top), waited, link_line, after);
  }
  char waited_text[32];
  std::snprintf(waited_text, sizeof waited_text, "%.0f", waited);
  std::string line = Plural(stuck.size(), "rank ", "ranks ") + RankRanges(stuck) +
                     Plural(stuck.size(), " is", " are") + " inside " + op +
                     ", entered by every rank, and " + Plural(stuck.size(), "has", "have") +
                     " not finished it for " + waited_text + " s";
  if (!done.empty()) {
    line += "; " + std::string(Plural(done.size(), "rank ", "ranks ")) + RankRanges(done) +
            " finished it";
  }
  line += SilentOnes(stuck_ranks, now);
  return Due("inside " + std::to_string(top), waited, line, after);
}

}  // namespace treering::tracker
