#include "legacy_links.h"

#include <algorithm>

namespace treering::tracker {

LinkPlan LegacyLinkBroker::Plan(const std::vector<std::int32_t>& peers,
                                const std::vector<std::int32_t>& good) const {
  LinkPlan plan;
  for (std::int32_t peer : peers) {
    if (std::find(good.begin(), good.end(), peer) != good.end()) continue;
    auto it = waiting_.find(peer);
    if (it == waiting_.end()) {
      ++plan.num_accept;
    } else {
      plan.dial.push_back({peer, it->second.host, static_cast<std::uint16_t>(it->second.port)});
    }
  }
  return plan;
}

void LegacyLinkBroker::Commit(int rank, const std::string& host, int port, const LinkPlan& plan) {
  for (const proto::PeerAddress& p : plan.dial) {
    auto it = waiting_.find(p.rank);
    if (it != waiting_.end() && --it->second.accepts_left <= 0) waiting_.erase(it);
  }
  if (plan.num_accept > 0) waiting_[rank] = Listener{host, port, plan.num_accept};
}

}  // namespace treering::tracker
