// Saved files get the permissions a plain open(O_CREAT, 0666) would give them under the
// process umask (the temporary that is renamed into place starts at mkstemp's 0600).
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <string>

#include <gtest/gtest.h>

#include "booster/atomic_file.h"

namespace treering::booster {
namespace {

// Sets the umask for one test and puts the old one back.
class ScopedUmask {
 public:
  explicit ScopedUmask(mode_t mask) : old_(::umask(mask)) {}
  ~ScopedUmask() { ::umask(old_); }

 private:
  mode_t old_;
};

mode_t SavedMode(mode_t mask) {
  const std::filesystem::path dir =
      std::filesystem::temp_directory_path() / ("treering_mode_" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  const std::string path = (dir / "m.json").string();
  mode_t mode = 0;
  {
    ScopedUmask scoped(mask);
    EXPECT_TRUE(WriteFileAtomic(path, "{}").ok());
    struct stat st {};
    EXPECT_EQ(::stat(path.c_str(), &st), 0);
    mode = st.st_mode & 07777;
  }
  std::filesystem::remove_all(dir);
  return mode;
}

TEST(AtomicFileMode, FollowsTheUmask) {
  EXPECT_EQ(SavedMode(077), 0600u);
  EXPECT_EQ(SavedMode(022), 0644u);
  EXPECT_EQ(SavedMode(002), 0664u);
}

}  // namespace
}  // namespace treering::booster
