// The status server's request parser on mutated and random bytes: it never crashes or reads
// past what it is given, every answer is a well-formed HTTP response whose Content-Length is
// its body's size, and nothing but a request carrying the exact token gets a 200.
#include <random>

#include <gtest/gtest.h>

#include "status/status_http.h"

namespace treering::tracker {
namespace {

const std::string kToken = "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef";

std::vector<std::string> Corpus() {
  return {"GET /?token=" + kToken + " HTTP/1.1\r\nHost: x\r\n\r\n",
          "GET /status.json HTTP/1.1\r\nCookie: treering_token_7=" + kToken + "\r\n\r\n",
          "HEAD /status.json HTTP/1.0\r\nAuthorization: Bearer " + kToken + "\r\n\r\n",
          "GET / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n",
          "GET /index.html?a=1&token=" + kToken + "&b HTTP/1.1\r\n\r\n"};
}

void Mutate(std::string& s, std::mt19937& rng) {
  const int n_ops = 1 + static_cast<int>(rng() % 4);
  for (int i = 0; i < n_ops; ++i) {
    const std::size_t at = s.empty() ? 0 : rng() % s.size();
    switch (rng() % 4) {
      case 0:
        if (!s.empty()) s[at] = static_cast<char>(rng() % 256);
        break;
      case 1:
        s.insert(s.begin() + static_cast<std::ptrdiff_t>(at), static_cast<char>(rng() % 256));
        break;
      case 2:
        if (!s.empty()) s.erase(at, 1 + rng() % 8);
        break;
      default:
        s.resize(at);
        break;
    }
  }
}

// Checks the response framing and returns its status code.
int CheckResponse(const std::string& response, bool head) {
  EXPECT_EQ(response.substr(0, 9), "HTTP/1.1 ");
  const std::size_t end = response.find("\r\n\r\n");
  EXPECT_NE(end, std::string::npos);
  const std::size_t cl = response.find("Content-Length: ");
  EXPECT_LT(cl, end);
  const std::size_t length = std::stoul(response.substr(cl + 16));
  if (!head) EXPECT_EQ(response.size() - end - 4, length);
  return std::stoi(response.substr(9, 3));
}

TEST(StatusHttpFuzzTest, MutatedRequestsNeverCrashAndNeedTheToken) {
  std::mt19937 rng(20261129);
  const auto corpus = Corpus();
  const StatusSite site{kToken, 7, [] { return std::string("{}"); }};
  int done = 0, refused = 0, ok = 0;
  for (int iter = 0; iter < 20000; ++iter) {
    std::string request = corpus[iter % corpus.size()];
    Mutate(request, rng);
    const ParsedRequest parsed = ParseStatusRequest(request);
    if (parsed.outcome == ParseOutcome::kNeedMore) continue;
    if (parsed.outcome != ParseOutcome::kDone) {
      const int code = CheckResponse(AnswerBadRequest(parsed.outcome), false);
      EXPECT_TRUE(code == 400 || code == 413 || code == 431) << code;
      ++refused;
      continue;
    }
    ++done;
    const StatusRequest& r = parsed.request;
    const int code = CheckResponse(AnswerStatusRequest(r, site), r.method == "HEAD");
    if (code == 200) {
      ++ok;
      const bool carries = r.target.find(kToken) != std::string::npos ||
                           r.cookie.find(kToken) != std::string::npos ||
                           r.authorization.find(kToken) != std::string::npos;
      ASSERT_TRUE(carries) << "iteration " << iter << ": " << r.target;
      ASSERT_TRUE(r.method == "GET" || r.method == "HEAD");
    }
  }
  EXPECT_GT(done, 1000);
  EXPECT_GT(refused, 1000);
  EXPECT_GT(ok, 20);  // most mutations hit the token or the request line
}

TEST(StatusHttpFuzzTest, RandomBytesAndByteByByteArrival) {
  std::mt19937 rng(7);
  for (int iter = 0; iter < 5000; ++iter) {
    std::string bytes(rng() % 300, '\0');
    for (char& c : bytes) c = static_cast<char>(rng() % 256);
    if (iter % 2) bytes = "GET " + bytes;
    const ParsedRequest parsed = ParseStatusRequest(bytes);
    if (parsed.outcome == ParseOutcome::kDone) {
      CheckResponse(AnswerStatusRequest(parsed.request, {kToken, 7, [] { return "{}"; }}),
                    parsed.request.method == "HEAD");
    }
  }
  // What the session does: parse everything received so far after each read.
  const std::string whole = Corpus()[0];
  for (std::size_t n = 1; n < whole.size(); ++n) {
    EXPECT_EQ(ParseStatusRequest(whole.substr(0, n)).outcome, ParseOutcome::kNeedMore) << n;
  }
  EXPECT_EQ(ParseStatusRequest(whole).outcome, ParseOutcome::kDone);
}

}  // namespace
}  // namespace treering::tracker
