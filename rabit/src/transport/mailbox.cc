#include "transport/mailbox.h"

#include <poll.h>
#include <sched.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <memory>
#include <sstream>

namespace rabit::transport {
namespace {

constexpr std::size_t kHeader = MessageHeader::kBytes;

std::string RankName(int rank) {
  return rank == kAnySource ? std::string("any rank") : "rank " + std::to_string(rank);
}

}  // namespace

bool Mailbox::WouldBlock(int err) { return err == EAGAIN || err == EWOULDBLOCK || err == EINTR; }

std::unique_ptr<std::uint8_t[]> Mailbox::PayloadBuffer(std::uint64_t bytes) {
  if (bytes > SIZE_MAX) return nullptr;
  return std::unique_ptr<std::uint8_t[]>(new (std::nothrow) std::uint8_t[bytes]);
}

Mailbox::Mailbox(MailboxOptions options, std::vector<Link> links) : options_(options) {
  peers_.reserve(links.size());
  for (Link& link : links) {
    Peer& peer = peers_.emplace_back();
    peer.rank = link.peer;
    peer.socket = std::move(link.socket);
    peer.put_allowed = link.peer >= 0 &&
                       static_cast<std::size_t>(link.peer) < options_.local_peers.size() &&
                       options_.local_peers[link.peer];
    peer.put_capable = peer.put_allowed;
  }
}

void Mailbox::Close() {
  for (Peer& peer : peers_) peer.socket.Close();
}

Mailbox::Peer* Mailbox::PeerOf(int rank) {
  for (Peer& peer : peers_) {
    if (peer.rank == rank) return &peer;
  }
  return nullptr;
}

treering::Status Mailbox::CheckRank(int rank, const char* role) const {
  if (rank >= 0 && rank < options_.world) return treering::Status::Ok();
  return treering::Status::InvalidInput(std::string(role) + " " + std::to_string(rank) +
                                        " is not a rank of a world of size " +
                                        std::to_string(options_.world));
}

Ticket Mailbox::NewRequest(bool is_send, int peer, const MessageHeader& header) {
  const Ticket ticket = next_ticket_++;
  RequestState& request = requests_[ticket];
  request.is_send = is_send;
  request.peer = peer;
  request.header = header;
  return ticket;
}

void Mailbox::Complete(Ticket ticket, int peer, treering::Status error) {
  auto it = requests_.find(ticket);
  if (it == requests_.end()) return;
  it->second.done = true;
  it->second.peer = peer;
  it->second.error = std::move(error);
}

std::string Mailbox::Mismatch(const MessageHeader& expect, int source,
                              const MessageHeader& got) const {
  return "rank " + std::to_string(options_.rank) + " posted a receive of " + expect.Describe() +
         " but rank " + std::to_string(source) + " sent " + got.Describe() +
         " (type and count must match)";
}

std::string Mailbox::Describe(const RequestState& request) const {
  if (request.is_send) {
    return "Send of " + request.header.Describe() + " from rank " + std::to_string(options_.rank) +
           " to rank " + std::to_string(request.peer);
  }
  return "Recv of " + request.header.Describe() + " on rank " + std::to_string(options_.rank) +
         " from " + RankName(request.peer);
}

treering::Status Mailbox::Fail(treering::Status status) {
  if (failed_.ok()) {
    failed_ = status;
    SettleGrants();  // before the caller can free a buffer another process may be writing
  }
  return failed_;
}

treering::Result<Ticket> Mailbox::Isend(const void* buf, std::size_t count, DataType type, int dest,
                                        int tag) {
  if (!failed_.ok()) return failed_;
  treering::Status valid = CheckRank(dest, "Send: destination");
  if (!valid.ok()) return valid;
  MessageHeader header{type, tag, count};
  header.Place(buf);
  const Ticket ticket = NewRequest(true, dest, header);
  const auto* data = static_cast<const std::uint8_t*>(buf);
  if (dest == options_.rank) {
    SendToSelf(ticket, data, header);
    return ticket;
  }
  Peer* peer = PeerOf(dest);
  if (peer == nullptr || peer->closed) {
    Complete(ticket, dest,
             treering::Status::Network(
                 Describe(requests_[ticket]) + ": " +
                 (peer == nullptr ? "no message link to it" : "it closed its message link")));
    return ticket;
  }
  OutMessage& m = peer->out.emplace_back(OutMessage{ticket, header, data});
  m.Stream();
  const std::uint64_t bytes = header.PayloadBytes();
  if (peer->put_capable && bytes >= kPutFromBytes && bytes < kPutBelowBytes) {
    m.stage = OutMessage::Stage::kOffer;
    m.frame = header.As(MessageHeader::Kind::kOffer).Encode();
    m.offer = ++peer->offers_out;
  }
  // Small messages (and offers) leave at once, so a sender that computes before waiting still
  // sends early.
  if (peer->out.size() == 1) {
    auto sent = PumpSend(*peer);
    if (!sent.ok()) return Fail(sent.status());
  }
  return ticket;
}

void Mailbox::SendToSelf(Ticket ticket, const std::uint8_t* data, const MessageHeader& header) {
  const std::size_t bytes = header.PayloadBytes();
  for (auto it = posted_.begin(); it != posted_.end(); ++it) {
    if ((it->source != options_.rank && it->source != kAnySource) || it->expect.tag != header.tag) {
      continue;
    }
    if (it->expect.dtype == header.dtype && it->expect.count == header.count) {
      if (bytes != 0) std::memcpy(it->buf, data, bytes);
      Complete(it->ticket, options_.rank);
    } else {
      Complete(it->ticket, options_.rank,
               treering::Status::InvalidInput(Mismatch(it->expect, options_.rank, header)));
    }
    posted_.erase(it);
    Complete(ticket, options_.rank);
    return;
  }
  Unexpected& u = unexpected_.emplace_back();
  u.source = options_.rank;
  u.header = header;
  u.data = std::make_unique_for_overwrite<std::uint8_t[]>(bytes);
  if (bytes != 0) std::memcpy(u.data.get(), data, bytes);
  u.complete = true;
  Complete(ticket, options_.rank);  // buffered: the send is done
}

treering::Result<Ticket> Mailbox::Irecv(void* buf, std::size_t count, DataType type, int source,
                                        int tag) {
  if (!failed_.ok()) return failed_;
  if (source != kAnySource) {
    treering::Status valid = CheckRank(source, "Recv: source");
    if (!valid.ok()) return valid;
  }
  const MessageHeader expect{type, tag, count};
  const Ticket ticket = NewRequest(false, source, expect);
  auto* data = static_cast<std::uint8_t*>(buf);
  if (MatchUnexpected(ticket, data, source, expect)) {
    // Matching an offer queued a grant: it leaves now, while the sender waits for it.
    for (Peer& peer : peers_) {
      if (peer.grants_out.empty() || peer.closed) continue;
      auto sent = PumpSend(peer);
      if (!sent.ok()) return Fail(sent.status());
    }
    return ticket;
  }
  posted_.push_back(PostedRecv{ticket, data, source, expect});
  if (source != kAnySource && source != options_.rank) {
    Peer* peer = PeerOf(source);
    if (peer == nullptr || peer->closed) {
      posted_.pop_back();
      Complete(ticket, source,
               treering::Status::Network(Describe(requests_[ticket]) + ": " +
                                         (peer == nullptr ? "no message link to it"
                                                          : "it closed its message link "
                                                            "(exited or failed)")));
    }
  }
  FailIfNoSenderLeft();
  return ticket;
}

// The first message that arrived from a matching source with this tag, if any.
bool Mailbox::MatchUnexpected(Ticket ticket, std::uint8_t* buf, int source,
                              const MessageHeader& expect) {
  for (auto it = unexpected_.begin(); it != unexpected_.end(); ++it) {
    Unexpected& u = *it;
    if ((source != kAnySource && u.source != source) || u.header.tag != expect.tag) continue;
    const bool fits = u.header.dtype == expect.dtype && u.header.count == expect.count;
    if (!fits) {
      Complete(ticket, u.source,
               treering::Status::InvalidInput(Mismatch(expect, u.source, u.header)));
    }
    if (u.offered) {
      // Only the offer came: grant this receive's buffer, or have the message dropped.
      Peer* peer = PeerOf(u.source);
      peer->offered_entry = nullptr;
      if (fits) {
        Grant(*peer, ticket, buf);
      } else {
        peer->offer = OfferState::kRefused;
      }
    } else if (!u.complete) {
      Redirect(u, fits ? buf : nullptr, fits ? ticket : 0);
    } else if (fits) {
      const std::size_t bytes = u.header.PayloadBytes();
      if (bytes != 0) std::memcpy(buf, u.data.get(), bytes);
      Complete(ticket, u.source);
    }
    unexpected_.erase(it);
    return true;
  }
  return false;
}

// A receive matched a message still arriving: what came so far moves into its buffer and the
// rest of the payload is read straight into it (buf null: the rest is read and dropped).
void Mailbox::Redirect(Unexpected& u, std::uint8_t* buf, Ticket ticket) {
  for (Peer& peer : peers_) {
    if (peer.unexpected != &u) continue;
    if (buf != nullptr && peer.got != 0) std::memcpy(buf, u.data.get(), peer.got);
    peer.into = buf;
    peer.recv_ticket = ticket;
    peer.unexpected = nullptr;
    return;
  }
}

treering::Result<int> Mailbox::Take(Ticket ticket) {
  auto it = requests_.find(ticket);
  RequestState done = std::move(it->second);
  requests_.erase(it);
  if (!done.error.ok()) return done.error;
  return done.peer;
}

treering::Result<int> Mailbox::Test(Ticket ticket) {
  auto it = requests_.find(ticket);
  if (it == requests_.end()) return treering::Status::InvalidInput("unknown message request");
  if (!it->second.done) {
    if (!failed_.ok()) return failed_;
    auto progressed = Progress();
    if (!progressed.ok()) return Fail(progressed.status());
    if (!it->second.done) return -1;
  }
  return Take(ticket);
}

// Nothing but this rank's own Send could complete the receive, and none was posted.
bool Mailbox::OnlySelfCouldSend(const RequestState& request) const {
  if (request.is_send) return false;
  if (request.peer == options_.rank) return true;
  return request.peer == kAnySource &&
         std::none_of(peers_.begin(), peers_.end(), [](const Peer& p) { return !p.closed; });
}

treering::Result<int> Mailbox::Wait(Ticket ticket) {
  auto it = requests_.find(ticket);
  if (it == requests_.end()) return treering::Status::InvalidInput("unknown message request");
  const RequestState& request = it->second;
  auto quiet_since = Clock::now();
  IdleSpin spin(std::chrono::microseconds(options_.spin_microseconds),
                std::chrono::microseconds(options_.idle_spin_microseconds), quiet_since);
  while (true) {
    if (request.done) return Take(ticket);
    if (!failed_.ok()) return failed_;
    if (OnlySelfCouldSend(request)) {
      return treering::Status::InvalidInput(Describe(request) +
                                            ": no matching Send was posted and no other rank "
                                            "can send it (it would wait forever)");
    }
    auto progressed = Progress();
    if (!progressed.ok()) return Fail(progressed.status());
    // A closed link completes requests (with an error) without moving a byte: never block
    // before looking at the request again.
    if (request.done) continue;
    const auto now = Clock::now();
    if (progressed.value()) {
      quiet_since = now;
      spin.Restart(now);
      continue;
    }
    // A peer's next bytes usually follow within microseconds; idle_spin.h says how long to wait.
    if (spin.ShouldSpin(now)) {
      sched_yield();
      spin.OnYield(Clock::now() - now);
      continue;
    }
    treering::Status waited = WaitForIo(ticket, quiet_since);
    if (!waited.ok()) return Fail(waited);
  }
}

treering::Result<bool> Mailbox::Progress() {
  bool progressed = false;
  for (Peer& peer : peers_) {
    if (peer.closed) continue;
    // Receive first: a grant read now is used by this call's PumpSend, before its offer's wait
    // is judged over.
    auto received = PumpRecv(peer);
    if (!received.ok()) return received.status();
    if (peer.closed) continue;
    auto sent = PumpSend(peer);
    if (!sent.ok()) return sent.status();
    progressed = progressed || sent.value() || received.value();
  }
  return progressed;
}

// A header arrived: the payload goes to the first posted receive that matches, else into a new
// unexpected message.
treering::Status Mailbox::StartPayload(Peer& peer) {
  auto header = MessageHeader::Decode(peer.header_in.data());
  if (!header) {
    return treering::Status::Protocol("rank " + std::to_string(peer.rank) +
                                      " sent bytes that are not a message header to rank " +
                                      std::to_string(options_.rank) + " (out of step)");
  }
  peer.incoming = *header;
  peer.got = 0;
  peer.lead_got = 0;
  peer.tail_got = 0;
  peer.into = nullptr;
  peer.recv_ticket = 0;
  peer.unexpected = nullptr;
  switch (header->kind) {
    case MessageHeader::Kind::kGrant:
      peer.into = peer.grant_in.data();
      return treering::Status::Ok();
    case MessageHeader::Kind::kOffer:
      return OnOffer(peer);
    case MessageHeader::Kind::kPut:
      return OnPut(peer);
    case MessageHeader::Kind::kMessage:
      if (peer.offer != OfferState::kNone) return StreamOffered(peer);
      break;
  }
  for (auto it = posted_.begin(); it != posted_.end(); ++it) {
    if ((it->source != peer.rank && it->source != kAnySource) || it->expect.tag != header->tag) {
      continue;
    }
    if (it->expect.dtype == header->dtype && it->expect.count == header->count) {
      peer.into = it->buf;
      peer.recv_ticket = it->ticket;
    } else {
      Complete(it->ticket, peer.rank,
               treering::Status::InvalidInput(Mismatch(it->expect, peer.rank, *header)));
    }
    posted_.erase(it);
    return treering::Status::Ok();
  }
  auto data = PayloadBuffer(header->PayloadBytes());
  if (data == nullptr) return TooLarge(peer, *header);
  Unexpected& u = unexpected_.emplace_back();
  u.source = peer.rank;
  u.header = *header;
  u.data = std::move(data);
  peer.into = u.data.get();
  peer.unexpected = &u;
  return treering::Status::Ok();
}

void Mailbox::FinishPayload(Peer& peer) {
  if (peer.incoming.kind == MessageHeader::Kind::kGrant) {
    peer.grant = PutGrant::Decode(peer.grant_in.data());
  }
  if (peer.recv_ticket != 0) Complete(peer.recv_ticket, peer.rank);
  if (peer.unexpected != nullptr) peer.unexpected->complete = true;
  peer.header_got = 0;
  peer.got = 0;
  peer.lead_got = 0;
  peer.tail_got = 0;
  peer.into = nullptr;
  peer.recv_ticket = 0;
  peer.unexpected = nullptr;
}

// A peer that closes between messages has finished: only what needs it fails. In the middle of
// a message it died (or was killed): the Mailbox fails.
treering::Status Mailbox::OnClosed(Peer& peer) {
  if (peer.header_got > 0 || peer.offer != OfferState::kNone) {
    const std::string what =
        peer.header_got == 0 ? "a message of " + peer.offered.Describe() + " it had offered"
        : peer.header_got < kHeader
            ? "a message header"
            : std::to_string(peer.got) + " of " + std::to_string(peer.incoming.BodyBytes()) +
                  " B of a message of " + peer.incoming.Describe();
    return treering::Status::Network(
        "rank " + std::to_string(peer.rank) + " closed its message link (died?) while rank " +
        std::to_string(options_.rank) + " was receiving " + what + " from it");
  }
  peer.closed = true;
  peer.socket.Close();
  const std::string why =
      ": rank " + std::to_string(peer.rank) + " closed its message link (exited or failed) first";
  for (auto it = posted_.begin(); it != posted_.end();) {
    if (it->source == peer.rank) {
      Complete(it->ticket, peer.rank,
               treering::Status::Network(Describe(requests_[it->ticket]) + why));
      it = posted_.erase(it);
    } else {
      ++it;
    }
  }
  for (const OutMessage& m : peer.out) {
    Complete(m.ticket, peer.rank, treering::Status::Network(Describe(requests_[m.ticket]) + why));
  }
  peer.out.clear();
  FailIfNoSenderLeft();
  return treering::Status::Ok();
}

// A receive from any rank cannot complete once every other rank has closed its link.
void Mailbox::FailIfNoSenderLeft() {
  const bool open =
      std::any_of(peers_.begin(), peers_.end(), [](const Peer& p) { return !p.closed; });
  if (open) return;
  for (auto it = posted_.begin(); it != posted_.end();) {
    if (it->source == kAnySource && options_.world > 1) {
      Complete(it->ticket, kAnySource,
               treering::Status::Network(Describe(requests_[it->ticket]) +
                                         ": every other rank closed its message link"));
      it = posted_.erase(it);
    } else {
      ++it;
    }
  }
}

treering::Status Mailbox::WaitForIo(Ticket ticket, Clock::time_point quiet_since) {
  std::vector<pollfd> fds;
  fds.reserve(peers_.size() + 1);
  for (const Peer& peer : peers_) {
    if (peer.closed) continue;
    const bool writing = !peer.out.empty() || !peer.grants_out.empty();
    const short events = static_cast<short>(POLLIN | (writing ? POLLOUT : 0));
    fds.push_back({peer.socket.fd(), events, 0});
  }
  AbortWatch* watch = options_.abort_watch;
  const bool watching = watch != nullptr && watch->fd() >= 0;
  if (watching) fds.push_back({watch->fd(), POLLIN, 0});
  const auto timeout = std::chrono::duration_cast<Clock::duration>(
      std::chrono::duration<double>(options_.timeout_seconds));
  const Deadline deadline = quiet_since + timeout;
  const int rc = ::poll(fds.data(), fds.size(), MillisecondsLeft(deadline));
  if (rc < 0 && errno != EINTR) {
    return treering::Status::Network(std::string("message poll failed: ") + std::strerror(errno));
  }
  const RequestState& request = requests_[ticket];
  if (watching && fds.back().revents != 0) {
    treering::Status aborted = watch->OnReadable();
    if (!aborted.ok()) return aborted.WithContext(Describe(request));
  }
  if (rc != 0 || Clock::now() < deadline) return treering::Status::Ok();
  std::ostringstream what;
  what << Describe(request) << ": no progress within rabit_timeout (" << options_.timeout_seconds
       << " s); ";
  if (request.is_send)
    what << "rank " << request.peer << " accepted no data (frozen, or not receiving?)";
  else
    what << RankName(request.peer) << " sent nothing (frozen, dead, or no such Send?)";
  return treering::Status::Timeout(what.str());
}

}  // namespace rabit::transport
