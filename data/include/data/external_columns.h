// External memory (XGBoost's `data = train.libsvm?format=libsvm#cacheprefix` URI): the training
// rows are read a slice at a time and each feature's values are spilled to a column file under
// the cache prefix, so the float matrix is never whole in memory. The histogram learner then
// makes the cuts one column at a time and writes the binned pages (booster/tree/sketch/
// page_matrix.h). docs/data.md, "External memory".
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "base/status.h"

namespace treering::data {

// For a program's main (the treering CLI): SIGTERM, SIGINT and SIGHUP remove the live caches'
// files, then the signal's earlier action runs. The library never installs these itself: its
// host owns the signals (Python turns SIGINT into KeyboardInterrupt and the DMatrix, with its
// cache, lives on), and there the files go with their last owner or at exit.
void RemoveCachesOnTermination();

// `uri` split at its '#': the data URI and the cache prefix (empty: no cache).
struct CacheUri {
  std::string data;
  std::string prefix;
};
Result<CacheUri> SplitCacheUri(const std::string& uri);

// XGBoost's rank suffix: "dir/cache.ext" of rank r of n (n > 1) is "dir/cache.r<r>-<n>.ext".
std::string RankedCachePrefix(const std::string& prefix, int rank, int world);

// The spilled columns of one rank's rows: files[f] holds feature f's value of every row, as
// raw floats in row order. The files are removed when the last owner lets go (XGBoost 1.7
// removes its cache files too); so are any pages registered with AdoptFile, and, at a normal
// exit, those of caches never destroyed. On SIGTERM, SIGINT and SIGHUP only in a program that
// called RemoveCachesOnTermination.
class ExternalColumns {
 public:
  ExternalColumns(std::string prefix, std::uint32_t cols);
  // The streamed in-memory load (docs/data.md, "Streamed load"): Create makes a private
  // directory under $TMPDIR (else /tmp) with mkdtemp and the files go there; the directory is
  // removed with them. The learner bins such columns into memory, not into pages.
  static std::shared_ptr<ExternalColumns> Temporary(std::uint32_t cols);
  bool temporary() const { return temporary_; }
  ~ExternalColumns();
  ExternalColumns(const ExternalColumns&) = delete;
  ExternalColumns& operator=(const ExternalColumns&) = delete;

  const std::string& prefix() const { return prefix_; }
  std::uint64_t rows() const { return rows_; }
  std::uint32_t cols() const { return cols_; }
  const std::string& file(std::uint32_t f) const { return files_[f]; }

  // Creates the column files (truncating old ones). Errors name the file (a temporary
  // cache's: the directory it could not make).
  Status Create();
  // Appends `n` rows of a dense row-major block (n x cols floats).
  Status AppendRows(const float* values, std::uint64_t n);
  // Flushes and closes the files; after it ReadColumn may be called.
  Status Finish();
  // Reads rows [first, first + n) of feature f. A file shorter than the rows spilled (truncated
  // behind our back) is an error naming it.
  Status ReadColumn(std::uint32_t f, std::uint64_t first, std::uint64_t n, float* out) const;
  // Removes the column files now (the pages made from them are all training needs).
  void RemoveColumns();
  // A file made from these columns (a page), removed with them at the end.
  void AdoptFile(const std::string& path) { adopted_.push_back(path); }

 private:
  std::string prefix_;
  std::uint32_t cols_;
  bool temporary_ = false;
  std::string dir_;  // the private directory of a temporary cache (removed at the end)
  std::uint64_t rows_ = 0;
  std::vector<std::string> files_;
  std::vector<int> fds_;
  std::vector<std::string> adopted_;
  std::vector<float> transpose_;
  void* tracked_ = nullptr;  // this cache's entry for the termination handler
};

}  // namespace treering::data
