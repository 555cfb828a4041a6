// rabit_elastic: an engine says "the world changed" with StatusCode::kWorldChanged, and only
// that code makes rabit::Comm throw rabit::WorldChanged. The text of the message plays no
// part: an Aborted status that happens to quote the old marker stays a plain rabit::Error.
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "base/status.h"
#include "rabit/comm.h"

namespace {

using treering::Status;
using treering::StatusCode;

// Fails every collective with one fixed status, as the robust engine does after a relink.
class FailingEngine final : public rabit::Engine {
 public:
  explicit FailingEngine(Status failure) : failure_(std::move(failure)) {}
  int Rank() const override { return 0; }
  int WorldSize() const override { return 2; }
  Status Allreduce(void*, std::size_t, rabit::DataType, rabit::OpKind,
                   const rabit::PrepareFn&) override {
    return failure_;
  }
  Status Broadcast(void*, std::size_t, int) override { return failure_; }
  Status Allgather(void*, const std::vector<std::size_t>&) override { return failure_; }
  Status TrackerPrint(const std::string&) override { return failure_; }

 private:
  Status failure_;
};

// What the robust engine forwards: the status of Recover with context added on the way up.
Status Forwarded(const Status& s) {
  return s.WithContext("rank 3 re-linking").WithContext("Allreduce #12");
}

TEST(WorldChanged, CodeSurvivesContext) {
  const Status s = Forwarded(Status::WorldChanged("rank 3 of 4 is now rank 2 of 3"));
  EXPECT_EQ(s.code(), StatusCode::kWorldChanged);
  EXPECT_NE(s.message().find("rank 3 of 4 is now rank 2 of 3"), std::string::npos);
}

TEST(WorldChanged, EngineStatusWithTheCodeThrowsWorldChanged) {
  rabit::Comm comm(std::make_unique<FailingEngine>(
      Forwarded(Status::WorldChanged("rank 3 of 4 is now rank 2 of 3"))));
  double x = 1;
  try {
    comm.Allreduce<rabit::op::Sum>(&x, 1);
    FAIL() << "no throw";
  } catch (const rabit::WorldChanged& e) {
    EXPECT_NE(std::string(e.what()).find("rabit Allreduce: "), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("is now rank 2 of 3"), std::string::npos) << e.what();
  }
  EXPECT_THROW(comm.Broadcast(&x, sizeof(x), 0), rabit::WorldChanged);
  EXPECT_THROW(comm.Barrier(), rabit::WorldChanged);
}

TEST(WorldChanged, AbortedQuotingTheOldMarkerIsAPlainError) {
  const Status aborted =
      Forwarded(Status::Aborted("[rabit_elastic: the world changed] rank 3 of 4 is now rank 2"));
  rabit::Comm comm(std::make_unique<FailingEngine>(aborted));
  double x = 1;
  try {
    comm.Allreduce<rabit::op::Sum>(&x, 1);
    FAIL() << "no throw";
  } catch (const rabit::WorldChanged& e) {
    FAIL() << "an Aborted status became WorldChanged: " << e.what();
  } catch (const rabit::Error& e) {
    EXPECT_NE(std::string(e.what()).find("rabit_elastic"), std::string::npos) << e.what();
  }
}

// rabit.h's free functions (LoadCheckPoint, CheckPoint, ...) throw through the same mapping.
TEST(WorldChanged, ThrowForMapsByCodeOnly) {
  EXPECT_THROW(rabit::detail::ThrowFor(Status::WorldChanged("x"), "CheckPoint"),
               rabit::WorldChanged);
  for (const StatusCode code : {StatusCode::kAborted, StatusCode::kNetwork, StatusCode::kTimeout}) {
    try {
      rabit::detail::ThrowFor(Status(code, "[rabit_elastic: the world changed]"), "CheckPoint");
    } catch (const rabit::WorldChanged&) {
      ADD_FAILURE() << "code " << static_cast<int>(code) << " became WorldChanged";
    } catch (const rabit::Error&) {
    }
  }
}

}  // namespace
