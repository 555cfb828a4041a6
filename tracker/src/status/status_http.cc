#include "status/status_http.h"

#include <utility>  // before Asio: Boost 1.74 awaitable.hpp uses std::exchange unincluded
#include <vector>

#include <boost/beast/http.hpp>

namespace treering::tracker {
namespace http = boost::beast::http;
namespace {

using Headers = std::vector<std::pair<std::string, std::string>>;

std::string Response(unsigned status, const char* reason, const std::string& content_type,
                     const std::string& body, bool head, const Headers& extra = {}) {
  std::string out = "HTTP/1.1 " + std::to_string(status) + " " + reason + "\r\n";
  out += "Content-Type: " + content_type + "\r\n";
  out += "Content-Length: " + std::to_string(body.size()) + "\r\n";
  out += "Connection: close\r\nCache-Control: no-store\r\nX-Content-Type-Options: nosniff\r\n";
  // The token may sit in the page's URL: never send it on as a Referer.
  out += "Referrer-Policy: no-referrer\r\n";
  for (const auto& [name, value] : extra) out += name + ": " + value + "\r\n";
  out += "\r\n";
  if (!head) out += body;
  return out;
}

std::string TextReply(unsigned status, const char* reason, bool head = false) {
  return Response(status, reason, "text/plain; charset=utf-8", std::string(reason) + "\n", head);
}

// The value of `name` in a "k=v&k=v" query or a "k=v; k=v" cookie header.
std::string_view Field(std::string_view text, std::string_view name, char separator) {
  while (!text.empty()) {
    const std::size_t end = text.find(separator);
    std::string_view item = text.substr(0, end);
    while (!item.empty() && item.front() == ' ') item.remove_prefix(1);
    if (item.size() > name.size() && item.substr(0, name.size()) == name &&
        item[name.size()] == '=') {
      return item.substr(name.size() + 1);
    }
    if (end == std::string_view::npos) break;
    text.remove_prefix(end + 1);
  }
  return {};
}

}  // namespace

bool TokenEquals(std::string_view a, std::string_view b) {
  // Every byte of the longer string is looked at whatever the contents, and a length
  // difference is folded in, so the time leaks the lengths only.
  const std::size_t n = std::max(a.size(), b.size());
  unsigned diff = a.size() == b.size() ? 0u : 1u;
  for (std::size_t i = 0; i < n; ++i) {
    const unsigned char x = i < a.size() ? static_cast<unsigned char>(a[i]) : 0;
    const unsigned char y = i < b.size() ? static_cast<unsigned char>(b[i]) : 0;
    diff |= static_cast<unsigned>(x ^ y);
  }
  return diff == 0 && !a.empty();
}

ParsedRequest ParseStatusRequest(std::string_view bytes) {
  ParsedRequest out;
  http::request_parser<http::empty_body> parser;
  parser.header_limit(kMaxStatusRequestHeader);
  parser.eager(false);
  boost::beast::error_code ec;
  parser.put(boost::asio::buffer(bytes.data(), bytes.size()), ec);
  if (ec == http::error::header_limit) {
    out.outcome = ParseOutcome::kTooLarge;
    return out;
  }
  if (ec && ec != http::error::need_more) {
    out.outcome = ParseOutcome::kMalformed;
    return out;
  }
  if (!parser.is_header_done()) {
    out.outcome =
        bytes.size() > kMaxStatusRequestHeader ? ParseOutcome::kTooLarge : ParseOutcome::kNeedMore;
    return out;
  }
  if (!parser.is_done() || parser.chunked()) {
    out.outcome = ParseOutcome::kHasBody;
    return out;
  }
  const auto& req = parser.get();
  out.outcome = ParseOutcome::kDone;
  out.request = {std::string(req.method_string()), std::string(req.target()),
                 std::string(req[http::field::cookie]),
                 std::string(req[http::field::authorization])};
  return out;
}

std::string AnswerBadRequest(ParseOutcome outcome) {
  switch (outcome) {
    case ParseOutcome::kTooLarge:
      return TextReply(431, "Request Header Fields Too Large");
    case ParseOutcome::kHasBody:
      return TextReply(413, "Content Too Large");
    default:
      return TextReply(400, "Bad Request");
  }
}

std::string AnswerStatusRequest(const StatusRequest& request, const StatusSite& site) {
  const bool head = request.method == "HEAD";
  const std::string_view target = request.target;
  const std::size_t q = target.find('?');
  const std::string_view path = target.substr(0, q);
  const std::string_view query = q == std::string_view::npos ? "" : target.substr(q + 1);
  const std::string cookie_name = "treering_token_" + std::to_string(site.port);
  const std::string_view from_query = Field(query, "token", '&');
  std::string_view bearer = request.authorization;
  bearer = bearer.substr(0, 7) == "Bearer " ? bearer.substr(7) : std::string_view();
  const bool authorized = TokenEquals(from_query, site.token) ||
                          TokenEquals(Field(request.cookie, cookie_name, ';'), site.token) ||
                          TokenEquals(bearer, site.token);
  if (!authorized) return TextReply(403, "Forbidden", head);
  if (request.method != "GET" && !head) {
    return Response(405, "Method Not Allowed", "text/plain; charset=utf-8", "Method Not Allowed\n",
                    false, {{"Allow", "GET, HEAD"}});
  }
  if (path == "/status.json") {
    return Response(200, "OK", "application/json", site.json(), head);
  }
  if (path != "/" && path != "/index.html") return TextReply(404, "Not Found", head);
  Headers extra = {
      // Inline script and style only, requests to this origin only: nothing is loaded from
      // elsewhere and nothing can be sent elsewhere.
      {"Content-Security-Policy",
       "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; "
       "connect-src 'self'; img-src data:; base-uri 'none'; form-action 'none'"}};
  if (!from_query.empty()) {
    extra.emplace_back("Set-Cookie",
                       cookie_name + "=" + site.token + "; Path=/; HttpOnly; SameSite=Strict");
  }
  return Response(200, "OK", "text/html; charset=utf-8", StatusPage(site.json()), head, extra);
}

}  // namespace treering::tracker
