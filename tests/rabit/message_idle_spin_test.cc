// IdleSpin, the Mailbox's choice between yielding and sleeping in poll(): it always spins for
// `spin` after the last progress, goes on up to `idle_spin` while yields come back quickly (the
// core is idle), stops at `spin` once one yield was slow (the core is shared), and starts over
// when bytes move.
#include <gtest/gtest.h>

#include "transport/idle_spin.h"

namespace rabit::transport {
namespace {

using std::chrono::microseconds;
constexpr auto kSpin = microseconds(50);
constexpr auto kIdleSpin = microseconds(2000);
constexpr auto kFastYield = microseconds(1);
constexpr auto kSlowYield = microseconds(500);

TEST(MessageIdleSpin, IdleCoreSpinsUntilIdleSpin) {
  const auto t0 = IdleSpin::Clock::now();
  IdleSpin spin(kSpin, kIdleSpin, t0);
  for (auto t = microseconds(0); t < kIdleSpin; t += microseconds(100)) {
    ASSERT_TRUE(spin.ShouldSpin(t0 + t)) << t.count() << " us";
    spin.OnYield(kFastYield);
  }
  EXPECT_FALSE(spin.ShouldSpin(t0 + kIdleSpin));
}

TEST(MessageIdleSpin, SharedCoreSleepsAfterSpin) {
  const auto t0 = IdleSpin::Clock::now();
  IdleSpin spin(kSpin, kIdleSpin, t0);
  spin.OnYield(kSlowYield);
  EXPECT_TRUE(spin.ShouldSpin(t0 + microseconds(10)));  // the fixed spin still holds
  EXPECT_FALSE(spin.ShouldSpin(t0 + kSpin));
  EXPECT_FALSE(spin.ShouldSpin(t0 + microseconds(1000)));
}

TEST(MessageIdleSpin, ProgressStartsOver) {
  const auto t0 = IdleSpin::Clock::now();
  IdleSpin spin(kSpin, kIdleSpin, t0);
  spin.OnYield(kSlowYield);
  const auto t1 = t0 + microseconds(3000);
  EXPECT_FALSE(spin.ShouldSpin(t1));
  spin.Restart(t1);
  EXPECT_TRUE(spin.ShouldSpin(t1 + microseconds(1000)));  // idle again: spins past `spin`
  EXPECT_FALSE(spin.ShouldSpin(t1 + kIdleSpin));
}

TEST(MessageIdleSpin, NoIdleSpinBehavesLikeTheFixedSpin) {
  const auto t0 = IdleSpin::Clock::now();
  IdleSpin spin(kSpin, microseconds(0), t0);
  EXPECT_TRUE(spin.ShouldSpin(t0 + microseconds(49)));
  EXPECT_FALSE(spin.ShouldSpin(t0 + kSpin));
}

}  // namespace
}  // namespace rabit::transport
