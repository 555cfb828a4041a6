// Who owns the signals when external memory runs (data/external_columns.h, booster/tree/sketch/
// page_mapping.h): the library installs no SIGTERM/SIGINT/SIGHUP handler (a host like Python
// keeps its own; KeyboardInterrupt must not delete a live DMatrix's cache), a program's main
// opts in with RemoveCachesOnTermination, caches never destroyed go at a normal exit (but not
// a forked child's exit), and the SIGBUS handler lives only while a page is mapped.
#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include <cstdlib>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "booster/tree/sketch/page_mapping.h"
#include "data/external_columns.h"

namespace {

using treering::data::ExternalColumns;

class CacheSignalsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    char tmpl[] = "/tmp/treering-cache-signals-XXXXXX";
    ASSERT_NE(::mkdtemp(tmpl), nullptr);
    dir_ = tmpl;
  }
  void TearDown() override {
    for (const std::string& f : Files()) ::unlink(f.c_str());
    ::rmdir(dir_.c_str());
  }
  std::string Prefix() const { return dir_ + "/c"; }
  std::vector<std::string> Files() const {
    return {Prefix() + ".col0.spill", Prefix() + ".col1.spill"};
  }
  bool AnyFileLeft() const {
    for (const std::string& f : Files()) {
      if (::access(f.c_str(), F_OK) == 0) return true;
    }
    return false;
  }
  // A cache whose owner is never destroyed (as a DMatrix a host never frees). Kept reachable
  // from a global so that LeakSanitizer, which checks at exit too, does not fail the child.
  void LeakCache() const {
    g_never_destroyed = new ExternalColumns(Prefix(), 2);
    ASSERT_TRUE(g_never_destroyed->Create().ok());
  }
  static inline ExternalColumns* g_never_destroyed = nullptr;

  std::string dir_;
};

void* HandlerOf(int sig) {
  struct sigaction now = {};
  sigaction(sig, nullptr, &now);
  return reinterpret_cast<void*>(now.sa_handler);
}

TEST_F(CacheSignalsTest, TheLibraryInstallsNoTerminationHandler) {
  const int sigs[] = {SIGTERM, SIGINT, SIGHUP};
  std::vector<void*> before;
  for (int s : sigs) before.push_back(HandlerOf(s));
  {
    ExternalColumns cols(Prefix(), 2);
    ASSERT_TRUE(cols.Create().ok());
    for (int i = 0; i < 3; ++i) EXPECT_EQ(HandlerOf(sigs[i]), before[i]) << "signal " << sigs[i];
  }
  EXPECT_FALSE(AnyFileLeft()) << "the destructor removes the files";
}

TEST_F(CacheSignalsTest, ANormalExitRemovesACacheNeverDestroyed) {
  EXPECT_EXIT(
      {
        LeakCache();
        std::exit(0);
      },
      ::testing::ExitedWithCode(0), "");
  EXPECT_FALSE(AnyFileLeft());
}

TEST_F(CacheSignalsTest, AForkedChildsExitLeavesItsParentsCache) {
  auto* cols = new ExternalColumns(Prefix(), 2);
  ASSERT_TRUE(cols->Create().ok());
  EXPECT_EXIT(std::exit(0), ::testing::ExitedWithCode(0), "");
  EXPECT_TRUE(AnyFileLeft()) << "the child removed its parent's cache at exit";
  delete cols;
  EXPECT_FALSE(AnyFileLeft());
}

TEST_F(CacheSignalsTest, AProgramThatOptsInRemovesTheCacheOnSigterm) {
  EXPECT_EXIT(
      {
        treering::data::RemoveCachesOnTermination();
        LeakCache();
        ::raise(SIGTERM);
      },
      ::testing::KilledBySignal(SIGTERM), "");
  EXPECT_FALSE(AnyFileLeft());
}

TEST_F(CacheSignalsTest, TheBusHandlerLivesOnlyWhileAPageIsMapped) {
  const std::string page = Prefix() + ".col0.spill";  // removed by TearDown
  const int fd = ::open(page.c_str(), O_RDWR | O_CREAT | O_TRUNC, 0644);
  ASSERT_GE(fd, 0);
  ASSERT_EQ(::ftruncate(fd, 4096), 0);
  void* const before = HandlerOf(SIGBUS);
  {
    treering::booster::PageMapping mapping;
    ASSERT_TRUE(mapping.Map(fd, page, 4096).ok());
    EXPECT_NE(HandlerOf(SIGBUS), before) << "no SIGBUS handler while mapped";
    treering::booster::PageMapping second;
    ASSERT_TRUE(second.Map(fd, page, 4096).ok());
  }
  EXPECT_EQ(HandlerOf(SIGBUS), before) << "the previous SIGBUS action is not back";
  ::close(fd);
}

}  // namespace
