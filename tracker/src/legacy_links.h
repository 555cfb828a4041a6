// The dmlc/rabit link negotiation as pure bookkeeping ("wait_conn" in dmlc's tracker.py).
// A worker reports which peer links it still has; of the missing ones it dials those already
// registered here (listening and waiting for more peers) and accepts the rest. After it
// reports its listening port it is registered itself for as many peers as it will accept.
// Negotiations run one at a time in rank order, so lower ranks are always registered first.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "tracker/protocol.h"

namespace treering::tracker {

struct LinkPlan {
  std::vector<proto::PeerAddress> dial;
  int num_accept = 0;
};

class LegacyLinkBroker {
 public:
  LinkPlan Plan(const std::vector<std::int32_t>& peers,
                const std::vector<std::int32_t>& good) const;
  void Commit(int rank, const std::string& host, int port, const LinkPlan& plan);
  bool IsWaiting(int rank) const { return waiting_.count(rank) != 0; }

 private:
  struct Listener {
    std::string host;
    int port = 0;
    int accepts_left = 0;
  };
  std::map<int, Listener> waiting_;
};

}  // namespace treering::tracker
