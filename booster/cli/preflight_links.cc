#include "preflight_links.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <ifaddrs.h>
#include <netdb.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <cstring>

#include "rabit/link_address.h"
#include "rabit/rabit.h"

namespace treering::cli {
namespace {

// "connection refused": strerror's text, lower case, as in a sentence.
std::string Reason(int err) {
  std::string text = std::strerror(err);
  if (!text.empty()) text[0] = static_cast<char>(std::tolower(static_cast<unsigned char>(text[0])));
  return text;
}

std::string Numeric(const sockaddr* sa, socklen_t len, int* port) {
  char host[NI_MAXHOST] = "";
  char serv[NI_MAXSERV] = "";
  if (getnameinfo(sa, len, host, sizeof host, serv, sizeof serv, NI_NUMERICHOST | NI_NUMERICSERV) !=
      0) {
    return "?";
  }
  if (port != nullptr) *port = std::atoi(serv);
  return host;
}

// The interface holding the address `bound` (the family's address bytes compared).
std::string InterfaceOf(const sockaddr_storage& bound) {
  ifaddrs* list = nullptr;
  if (getifaddrs(&list) != 0) return "?";
  std::string name = "?";
  for (ifaddrs* i = list; i != nullptr; i = i->ifa_next) {
    if (i->ifa_addr == nullptr || i->ifa_addr->sa_family != bound.ss_family) continue;
    bool same = false;
    if (bound.ss_family == AF_INET) {
      same = reinterpret_cast<const sockaddr_in*>(i->ifa_addr)->sin_addr.s_addr ==
             reinterpret_cast<const sockaddr_in*>(&bound)->sin_addr.s_addr;
    } else if (bound.ss_family == AF_INET6) {
      same = std::memcmp(&reinterpret_cast<const sockaddr_in6*>(i->ifa_addr)->sin6_addr,
                         &reinterpret_cast<const sockaddr_in6*>(&bound)->sin6_addr,
                         sizeof(in6_addr)) == 0;
    }
    if (same) {
      name = i->ifa_name;
      break;
    }
  }
  freeifaddrs(list);
  return name;
}

// Listens on a fresh port of `address`; fills `e` (its error on failure) and returns the fd.
int Listen(const std::string& address, int backlog, LinkEndpoint* e) {
  e->address = address;
  addrinfo hints{};
  hints.ai_socktype = SOCK_STREAM;
  addrinfo* found = nullptr;
  if (const int rc = getaddrinfo(address.c_str(), "0", &hints, &found); rc != 0) {
    e->error = "cannot resolve " + address + ": " + gai_strerror(rc);
    return -1;
  }
  const int fd = ::socket(found->ai_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
  int err = fd < 0 ? errno : 0;
  if (fd >= 0 &&
      (::bind(fd, found->ai_addr, found->ai_addrlen) != 0 || ::listen(fd, backlog) != 0)) {
    err = errno;
  }
  freeaddrinfo(found);
  if (err != 0) {
    if (fd >= 0) ::close(fd);
    e->error = "cannot listen on " + address + ": " + Reason(err);
    return -1;
  }
  sockaddr_storage bound{};
  socklen_t len = sizeof bound;
  ::getsockname(fd, reinterpret_cast<sockaddr*>(&bound), &len);
  e->address = Numeric(reinterpret_cast<sockaddr*>(&bound), len, &e->port);
  e->interface = InterfaceOf(bound);
  return fd;
}

// What a dial ended with, per peer: 0 connected (or not dialled), an errno, or one of these.
constexpr std::int32_t kNoAnswer = -1;
constexpr std::int32_t kBadAddress = -2;

std::string DialReason(std::int32_t code, double timeout_s) {
  if (code == kBadAddress) return "cannot parse its address";
  if (code == kNoAnswer) {
    char waited[32];
    std::snprintf(waited, sizeof waited, "%g", timeout_s);
    return std::string("no answer within ") + waited + " s";
  }
  return Reason(code);
}

// Dials every endpoint but `self` at once (non-blocking connects, one poll loop) and returns
// each one's outcome within `timeout_s`. The peers' kernels complete the handshakes from their
// listen backlog: nobody needs to accept.
std::vector<std::int32_t> DialAll(const std::vector<LinkEndpoint>& endpoints, int self,
                                  double timeout_s) {
  std::vector<std::int32_t> outcome(endpoints.size(), 0);
  struct Dial {
    int to;
    int fd;
  };
  std::vector<Dial> pending;
  for (int to = 0; to < static_cast<int>(endpoints.size()); ++to) {
    const LinkEndpoint& e = endpoints[to];
    if (to == self || !e.error.empty()) continue;  // a rank that could not listen says so itself
    addrinfo hints{};
    hints.ai_socktype = SOCK_STREAM;
    hints.ai_flags = AI_NUMERICHOST | AI_NUMERICSERV;
    addrinfo* found = nullptr;
    if (getaddrinfo(e.address.c_str(), std::to_string(e.port).c_str(), &hints, &found) != 0) {
      outcome[to] = kBadAddress;
      continue;
    }
    const int fd = ::socket(found->ai_family, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
    int err = fd < 0 ? errno : 0;
    if (fd >= 0 && ::connect(fd, found->ai_addr, found->ai_addrlen) != 0 && errno != EINPROGRESS) {
      err = errno;
    }
    freeaddrinfo(found);
    if (err != 0) {
      if (fd >= 0) ::close(fd);
      outcome[to] = err;
      continue;
    }
    pending.push_back({to, fd});
  }
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(timeout_s);
  while (!pending.empty()) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
                          deadline - std::chrono::steady_clock::now())
                          .count();
    if (left <= 0) break;
    std::vector<pollfd> fds;
    for (const Dial& d : pending) fds.push_back({d.fd, POLLOUT, 0});
    if (::poll(fds.data(), fds.size(), static_cast<int>(left)) < 0 && errno != EINTR) break;
    std::vector<Dial> still;
    for (std::size_t i = 0; i < pending.size(); ++i) {
      if (fds[i].revents == 0) {
        still.push_back(pending[i]);
        continue;
      }
      int err = 0;
      socklen_t len = sizeof err;
      ::getsockopt(pending[i].fd, SOL_SOCKET, SO_ERROR, &err, &len);
      outcome[pending[i].to] = err;
      ::close(pending[i].fd);
    }
    pending.swap(still);
  }
  for (const Dial& d : pending) {
    outcome[d.to] = kNoAnswer;
    ::close(d.fd);
  }
  return outcome;
}

// One rank's endpoint as gathered: fixed-size fields. Fixed sizes matter beyond simplicity:
// the robust engine replays a restarted worker's collectives from the survivors' results, so
// its contribution must have the size of the first run's (a new port may have other digits).
struct EndpointRecord {
  char host[64];
  char interface[32];
  char address[64];
  std::int32_t port;
  char error[124];
};

void Put(char* field, std::size_t size, const std::string& text) {
  std::memset(field, 0, size);
  std::memcpy(field, text.data(), std::min(text.size(), size - 1));
}

std::string Get(const char* field, std::size_t size) {
  return std::string(field, strnlen(field, size));
}

// Every rank's `mine` (the same size on every rank), in rank order.
template <typename T>
std::vector<T> GatherFixed(const std::vector<T>& mine, int world, int self) {
  std::vector<T> all(mine.size() * static_cast<std::size_t>(world));
  std::copy(mine.begin(), mine.end(),
            all.begin() + static_cast<std::ptrdiff_t>(mine.size() * self));
  rabit::Allgather(all.data(), std::vector<std::size_t>(static_cast<std::size_t>(world),
                                                        mine.size() * sizeof(T)));
  return all;
}

}  // namespace

std::string DescribeEndpoint(int rank, const LinkEndpoint& e) {
  const bool v6 = e.address.find(':') != std::string::npos;
  return "rank " + std::to_string(rank) + " (" + e.host + ", " + e.interface + " " +
         (v6 ? "[" + e.address + "]" : e.address) + ":" + std::to_string(e.port) + ")";
}

std::optional<std::string> LinkTestMismatch(const std::vector<LinkEndpoint>& endpoints,
                                            const std::vector<LinkFailure>& failures) {
  constexpr std::size_t kNamed = 8;
  std::string text;
  std::size_t named = 0, total = 0;
  const auto add = [&](const std::string& line) {
    ++total;
    if (named++ < kNamed) text += (text.empty() ? "" : "; ") + line;
  };
  for (std::size_t r = 0; r < endpoints.size(); ++r) {
    if (endpoints[r].error.empty()) continue;
    add("rank " + std::to_string(r) + " (" + endpoints[r].host + ") " + endpoints[r].error);
  }
  for (const LinkFailure& f : failures) {
    add(DescribeEndpoint(f.from, endpoints[f.from]) + " cannot reach " +
        DescribeEndpoint(f.to, endpoints[f.to]) + ": " + f.reason);
  }
  if (total == 0) return std::nullopt;
  if (total > kNamed) text += "; and " + std::to_string(total - kNamed) + " more";
  return text;
}

Status RunLinkTest(double timeout_s) {
  const int world = rabit::GetWorldSize();
  const std::string address = rabit::LinkAddress();
  if (world < 2 || address.empty()) return Status::Ok();
  const int self = rabit::GetRank();
  LinkEndpoint mine;
  char host[256] = "";
  ::gethostname(host, sizeof host - 1);
  mine.host = host;
  int fd = Listen(address, world + 16, &mine);
  // Test hook (tests/cli/preflight_test.py): this rank advertises a port nobody listens on,
  // so its peers' dials are refused as behind a firewall that rejects.
  if (const char* refuse = std::getenv("TREERING_TEST_PREFLIGHT_REFUSE");
      fd >= 0 && refuse && std::string(refuse) == "1") {
    ::close(fd);
    fd = -1;
  }
  EndpointRecord record{};
  Put(record.host, sizeof record.host, mine.host);
  Put(record.interface, sizeof record.interface, mine.interface);
  Put(record.address, sizeof record.address, mine.address);
  record.port = mine.port;
  Put(record.error, sizeof record.error, mine.error);
  std::vector<LinkEndpoint> endpoints;
  for (const EndpointRecord& r : GatherFixed(std::vector<EndpointRecord>{record}, world, self)) {
    endpoints.push_back({Get(r.host, sizeof r.host), Get(r.interface, sizeof r.interface),
                         Get(r.address, sizeof r.address), r.port, Get(r.error, sizeof r.error)});
  }
  // Also the barrier before the listeners close: every rank has dialled when it returns.
  const std::vector<std::int32_t> outcomes =
      GatherFixed(DialAll(endpoints, self, timeout_s), world, self);
  if (fd >= 0) ::close(fd);
  std::vector<LinkFailure> failures;
  for (int from = 0; from < world; ++from) {
    for (int to = 0; to < world; ++to) {
      const std::int32_t code = outcomes[static_cast<std::size_t>(from * world + to)];
      if (code != 0) failures.push_back({from, to, DialReason(code, timeout_s)});
    }
  }
  auto mismatch = LinkTestMismatch(endpoints, failures);
  if (!mismatch) return Status::Ok();
  return Status::Network("pre-flight link test: " + *mismatch);
}

}  // namespace treering::cli
