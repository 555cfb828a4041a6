// The status server's HTTP, without I/O: parsing one request header (Boost.Beast's parser, as
// the data server uses) and the answer to it. Read-only: GET and HEAD of `/` (the page) and
// `/status.json`; everything else is 404/405. Every request must carry the job token: in the
// query (`?token=`; the page then sets a cookie and removes it from the address bar, as
// Jupyter does), in the cookie, or as `Authorization: Bearer`; compared in constant time.
// A missing or wrong token is 403 before anything about the job is said.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

namespace treering::tracker {

inline constexpr std::size_t kMaxStatusRequestHeader = 8 * 1024;

struct StatusRequest {
  std::string method;
  std::string target;
  std::string cookie;
  std::string authorization;
};

enum class ParseOutcome { kNeedMore, kDone, kMalformed, kTooLarge, kHasBody };

struct ParsedRequest {
  ParseOutcome outcome = ParseOutcome::kNeedMore;
  StatusRequest request;  // valid when kDone
};

// `bytes` is everything received on the connection so far (its first bytes included).
ParsedRequest ParseStatusRequest(std::string_view bytes);

// What the server answers: `json` is called only for an authorized request that needs it.
struct StatusSite {
  std::string token;
  std::uint16_t port = 0;  // names the cookie, so two jobs on one host keep their own
  std::function<std::string()> json;
};

// A whole HTTP/1.1 response (headers and body), always with `Connection: close`.
std::string AnswerStatusRequest(const StatusRequest& request, const StatusSite& site);
// The error answer for a request that did not parse (400, 413 or 431).
std::string AnswerBadRequest(ParseOutcome outcome);

// Constant time in the contents (it depends only on the lengths).
bool TokenEquals(std::string_view a, std::string_view b);

// The page, with `initial_json` inlined so it draws before its first poll.
std::string StatusPage(const std::string& initial_json);

}  // namespace treering::tracker
