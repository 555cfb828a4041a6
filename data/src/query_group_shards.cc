#include "data/query_group_shards.h"

#include <algorithm>
#include <cstdint>
#include <unordered_map>
#include <vector>

#include "data/query_groups.h"

namespace treering::data {
namespace {

using Ids = std::vector<std::uint64_t>;

// Every row's group id: its group's index in FILE.group, given the part's first global row.
Result<Ids> IdsFromGroupFile(const std::string& path, std::uint64_t offset, std::uint64_t rows,
                             std::uint64_t total_rows) {
  auto sizes = ReadGroupSizes(path);
  if (!sizes.ok()) return sizes.status();
  std::uint64_t sum = 0;  // stops past the rows: sizes of up to 18 digits cannot wrap it
  for (std::size_t g = 0; g < sizes.value().size() && sum <= total_rows; ++g) {
    sum += sizes.value()[g];
  }
  if (sum != total_rows) {
    return Status::InvalidInput(
        path + ": the query group sizes add up to " +
        (sum > total_rows ? "more than " + std::to_string(total_rows) : std::to_string(sum)) +
        " rows, the data has " + std::to_string(total_rows));
  }
  Ids ids(rows);
  if (rows == 0) return ids;  // also an empty file for empty data
  std::uint64_t group = 0, group_end = sizes.value()[0];
  for (std::uint64_t r = 0; r < rows; ++r) {
    while (offset + r >= group_end) group_end += sizes.value()[++group];
    ids[r] = group;
  }
  return ids;
}

// One part's rows [0, n) in flat arrays, to move them to another rank.
struct RowPiece {
  Ids lengths, ids;
  std::vector<std::uint32_t> index;
  std::vector<float> value, label, weight;
};

RowPiece TakeHead(const DMatrix& m, const Ids& ids, std::uint64_t n) {
  RowPiece p;
  const std::uint64_t nnz = m.row_ptr[n];
  for (std::uint64_t r = 0; r < n; ++r) p.lengths.push_back(m.row_ptr[r + 1] - m.row_ptr[r]);
  p.ids.assign(ids.begin(), ids.begin() + n);
  p.index.assign(m.index.begin(), m.index.begin() + nnz);
  p.value.assign(m.value.begin(), m.value.begin() + nnz);
  p.label.assign(m.label.begin(), m.label.begin() + n);
  if (!m.weight.empty()) p.weight.assign(m.weight.begin(), m.weight.begin() + n);
  return p;
}

void DropHead(std::uint64_t n, DMatrix* m, Ids* ids) {
  const std::uint64_t nnz = m->row_ptr[n];
  m->index.erase(m->index.begin(), m->index.begin() + nnz);
  m->value.erase(m->value.begin(), m->value.begin() + nnz);
  m->label.erase(m->label.begin(), m->label.begin() + n);
  if (!m->weight.empty()) m->weight.erase(m->weight.begin(), m->weight.begin() + n);
  ids->erase(ids->begin(), ids->begin() + n);
  m->row_ptr.erase(m->row_ptr.begin(), m->row_ptr.begin() + n);
  for (auto& p : m->row_ptr) p -= nnz;
}

// Appends rows [row0, row0 + rows) of the gathered pieces (entries from nnz0 on).
Status AppendRows(const RowPiece& all, std::uint64_t row0, std::uint64_t rows, std::uint64_t nnz0,
                  DMatrix* m, Ids* ids) {
  if ((m->weight.empty() != all.weight.empty() && m->NumRows() != 0) ||
      (!all.weight.empty() && all.weight.size() != all.label.size())) {
    return Status::InvalidInput("some parts have row weights and others not");
  }
  std::uint64_t nnz = nnz0;
  for (std::uint64_t r = row0; r < row0 + rows; ++r) {
    const std::uint64_t len = all.lengths[r];
    m->index.insert(m->index.end(), all.index.begin() + nnz, all.index.begin() + nnz + len);
    m->value.insert(m->value.end(), all.value.begin() + nnz, all.value.begin() + nnz + len);
    m->row_ptr.push_back(m->row_ptr.back() + len);
    m->label.push_back(all.label[r]);
    if (!all.weight.empty()) m->weight.push_back(all.weight[r]);
    ids->push_back(all.ids[r]);
    nnz += len;
  }
  return Status::Ok();
}

// Moves the rows at the start of each rank that continue the group of the previous non-empty
// rank to the rank where that group starts; *offset becomes the global index of this rank's
// first row afterwards. Rows keep their global order.
Status ShardOnGroups(rabit::Comm& comm, DMatrix* m, Ids* ids, std::uint64_t* offset) {
  // Rows move between ranks with their feature ids: a dense part loaded without them
  // (implicit_index) gets them back first, whether or not this rank sends rows.
  RestoreDenseIndex(m);
  const int world = comm.WorldSize(), rank = comm.Rank();
  const std::uint64_t rows = m->NumRows();
  const Ids ends = comm.AllgatherV(Ids{rows, rows ? ids->front() : 0, rows ? ids->back() : 0});
  // head[p]: rows of rank p that continue the group open at the end of earlier ranks.
  Ids head(world, 0);
  std::vector<int> owner(world, -1);
  int last = -1;  // the last earlier rank that keeps rows
  for (int p = 0; p < world; ++p) {
    const std::uint64_t n = ends[3 * p];
    if (n == 0) continue;
    if (last >= 0 && ends[3 * p + 1] == ends[3 * last + 2]) {
      owner[p] = last;
      if (p == rank) {
        while (head[p] < n && (*ids)[head[p]] == ends[3 * last + 2]) ++head[p];
      }
    }
    // head[p] is known on rank p only: a rank whose rows all continue the group gives all.
    const bool all_head = ends[3 * p + 1] == ends[3 * p + 2] && owner[p] >= 0;
    if (!all_head) last = p;
  }
  comm.Allreduce<rabit::op::Sum>(head.data(), head.size());
  const RowPiece mine = TakeHead(*m, *ids, head[rank]);
  RowPiece all;
  all.lengths = comm.AllgatherV(mine.lengths);
  all.ids = comm.AllgatherV(mine.ids);
  all.index = comm.AllgatherV(mine.index);
  all.value = comm.AllgatherV(mine.value);
  all.label = comm.AllgatherV(mine.label);
  all.weight = comm.AllgatherV(mine.weight);
  if (head[rank] != 0) DropHead(head[rank], m, ids);
  *offset += head[rank];
  std::uint64_t row0 = 0, nnz0 = 0;
  for (int p = 0; p < world; ++p) {
    std::uint64_t nnz = 0;
    for (std::uint64_t r = row0; r < row0 + head[p]; ++r) nnz += all.lengths[r];
    if (owner[p] == rank && head[p] != 0) {
      if (Status st = AppendRows(all, row0, head[p], nnz0, m, ids); !st.ok()) return st;
    }
    row0 += head[p];
    nnz0 += nnz;
  }
  return Status::Ok();
}

// A qid whose rows come in two runs (XGBoost would silently make two groups of it).
Status CheckContiguous(const std::string& uri, const Ids& ids, std::uint64_t offset,
                       const std::vector<std::uint64_t>& group_ptr, bool distributed,
                       rabit::Comm& comm) {
  Ids run_ids, run_rows;
  for (std::size_t g = 0; g + 1 < group_ptr.size(); ++g) {
    run_ids.push_back(ids[group_ptr[g]]);
    run_rows.push_back(offset + group_ptr[g]);
  }
  if (distributed) {
    run_ids = comm.AllgatherV(run_ids);
    run_rows = comm.AllgatherV(run_rows);
  }
  std::unordered_map<std::uint64_t, std::uint64_t> first_row;
  for (std::size_t i = 0; i < run_ids.size(); ++i) {
    const auto [it, fresh] = first_row.emplace(run_ids[i], run_rows[i]);
    if (fresh) continue;
    auto here = LocateRow(uri, run_rows[i]);
    auto there = LocateRow(uri, it->second);
    return Status::InvalidInput((here.ok() ? here.value() : uri) + ": qid " +
                                std::to_string(run_ids[i]) +
                                " appears again after other query groups (its first rows are at " +
                                (there.ok() ? there.value() : "an earlier line") +
                                "); a query group's rows must be contiguous: sort the file by qid");
  }
  return Status::Ok();
}

}  // namespace

Status AttachQueryGroups(const std::string& key, const std::string& uri, bool sharded,
                         rabit::Comm& comm, DMatrix* m) {
  const bool distributed = sharded && comm.IsDistributed();
  auto group_file = GroupFilePath(uri);
  if (!group_file.ok()) return group_file.status();
  const std::string& path = group_file.value();
  std::uint64_t any_qid = m->qid.empty() ? 0 : 1;
  if (distributed) comm.Allreduce<rabit::op::Max>(&any_qid, 1);
  if (path.empty() && any_qid == 0) return Status::Ok();

  const std::uint64_t rows = m->NumRows();
  const Ids counts = distributed ? comm.AllgatherV(Ids{rows}) : Ids{rows};
  std::uint64_t offset = 0, total = 0;
  for (int p = 0; p < static_cast<int>(counts.size()); ++p) {
    if (p < (distributed ? comm.Rank() : 0)) offset += counts[p];
    total += counts[p];
  }
  Ids ids;
  if (!path.empty()) {
    auto from_file = IdsFromGroupFile(path, offset, rows, total);
    if (!from_file.ok()) return from_file.status().WithContext(key + " = " + uri);
    ids = std::move(from_file).value();
  } else {
    ids = m->qid.empty() ? Ids(rows, 0) : m->qid;
  }
  if (distributed) {
    if (Status st = ShardOnGroups(comm, m, &ids, &offset); !st.ok()) {
      return st.WithContext(key + " = " + uri);
    }
  }
  m->group_ptr = GroupsFromIds(ids);
  if (path.empty()) {
    m->qid = ids;
    Status st = CheckContiguous(uri, ids, offset, m->group_ptr, distributed, comm);
    if (!st.ok()) return st.WithContext(key + " = " + uri);
  } else {
    m->qid.clear();  // the groups are the file's
  }
  return Status::Ok();
}

}  // namespace treering::data
