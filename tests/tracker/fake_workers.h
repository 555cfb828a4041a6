// Fake workers for the tracker's recovery and elastic tests: a job bootstrapped with n of them,
// and the recover Hello a surviving or restarted worker says.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "fake_client.h"
#include "running_tracker.h"

namespace treering::testing {

// `rank` -1 is a restarted process (it does not know its rank); `port` its new listening port.
inline proto::Hello RecoverHello(const std::string& task, int rank, std::uint32_t attempt,
                                 std::uint16_t port) {
  proto::Hello h;
  h.task_id = task;
  h.command = proto::Command::kRecover;
  h.rank = rank;
  h.attempt = attempt;
  h.host = "127.0.0.1";
  h.port = port;
  return h;
}

// n workers with task ids 0..n-1 (ports 7000+i), all holding their epoch-0 Assign.
inline std::vector<FakeClient> Bootstrapped(RunningTracker& t, int n, const std::string& token) {
  std::vector<FakeClient> w(n);
  for (int i = 0; i < n; ++i) {
    EXPECT_TRUE(w[i].Connect("127.0.0.1", t.port()).ok());
    EXPECT_TRUE(w[i].SendHello(token, std::to_string(i), "127.0.0.1", 7000 + i).ok());
  }
  for (int i = 0; i < n; ++i) {
    auto a = w[i].ReadAssign();
    EXPECT_TRUE(a.ok());
    if (!a.ok()) continue;
    EXPECT_EQ(a->epoch, 0u);
    EXPECT_EQ(a->rank, i);
  }
  return w;
}

}  // namespace treering::testing
