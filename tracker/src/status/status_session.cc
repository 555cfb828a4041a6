#include "status/status_session.h"

#include <array>

#include "status/status_http.h"

namespace treering::tracker {

void StatusSession::Start() {
  asio::co_spawn(
      conn_->executor(),
      [self = std::static_pointer_cast<StatusSession>(shared_from_this())]() {
        return self->Run();
      },
      asio::detached);
}

asio::awaitable<void> StatusSession::Run() {
  const Millis deadline(static_cast<long long>(job_.options().hello_timeout_s * 1000));
  ParsedRequest parsed = ParseStatusRequest(received_);
  while (parsed.outcome == ParseOutcome::kNeedMore) {
    std::array<std::uint8_t, 2048> block{};
    auto got = co_await conn_->ReadSome(block, deadline);
    if (!got.ok()) {
      conn_->Close();
      sessions_.Remove(id());
      co_return;
    }
    received_.append(reinterpret_cast<const char*>(block.data()), got.value());
    parsed = ParseStatusRequest(received_);
  }
  std::string answer;
  if (parsed.outcome == ParseOutcome::kDone) {
    const StatusSite site{job_.options().token, job_.port(), [this] { return job_.StatusJson(); }};
    answer = AnswerStatusRequest(parsed.request, site);
  } else {
    answer = AnswerBadRequest(parsed.outcome);
  }
  conn_->Send(std::vector<std::uint8_t>(answer.begin(), answer.end()), deadline);
  conn_->CloseAfterSends();
  sessions_.Remove(id());
}

}  // namespace treering::tracker
