#include "http_chunk_count.h"

#include <string>

#include <nlohmann/json.hpp>

namespace treering::data::detail {
namespace {

bool ReadCount(const nlohmann::json& body, const char* key, std::uint64_t* value) {
  const auto it = body.find(key);
  if (it == body.end() || !it->is_number_unsigned()) return false;
  *value = it->get<std::uint64_t>();
  return true;
}

bool ReadFlag(const nlohmann::json& body, const char* key, bool* value) {
  const auto it = body.find(key);
  if (it == body.end() || !it->is_boolean()) return false;
  *value = it->get<bool>();
  return true;
}

}  // namespace

Result<std::optional<ChunkCounts>> CountOnServer(net::HttpRangeReader* reader, std::uint64_t begin,
                                                 std::uint64_t end, TextFormat format,
                                                 std::uint64_t label_column) {
  if (begin >= end) return std::optional<ChunkCounts>(ChunkCounts{});
  std::string query = "counts";
  if (format == TextFormat::kCsv)
    query += "&format=csv&label_column=" + std::to_string(label_column);
  Result<net::QueryReply> reply = reader->Query(query, begin, end - 1);
  if (!reply.ok()) return reply.status();
  // 400: a server that does not know the query; 200/206 with file bytes: one that ignored it.
  if (reply->status == 400 || reply->content_type.rfind("application/json", 0) != 0) {
    return std::optional<ChunkCounts>();
  }
  if (reply->status != 200) {
    // The same answer a read would get (401, 404, 412 ...): let the read report it.
    return std::optional<ChunkCounts>();
  }
  const nlohmann::json body = nlohmann::json::parse(reply->body, nullptr, false);
  ChunkCounts counts;
  if (body.is_discarded() || !body.is_object() || !ReadCount(body, "rows", &counts.rows) ||
      !ReadCount(body, "entries", &counts.entries) ||
      !ReadFlag(body, "has_weight", &counts.has_weight) ||
      !ReadFlag(body, "has_qid", &counts.has_qid)) {
    return std::optional<ChunkCounts>();
  }
  // A row takes at least two bytes ("1\n") and an entry at least two more (" 0:1" shares its
  // separator): counts past that are not from this range, and would size the matrix wrongly.
  const std::uint64_t bytes = end - begin;
  if (counts.rows > bytes || counts.entries > bytes / 2) {
    return Status::IoError(reader->url() + ": the server's counts for bytes " +
                           std::to_string(begin) + "-" + std::to_string(end - 1) +
                           " are impossible (" + std::to_string(counts.rows) + " rows, " +
                           std::to_string(counts.entries) + " entries)");
  }
  return std::optional<ChunkCounts>(counts);
}

}  // namespace treering::data::detail
