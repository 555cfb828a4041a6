#include "transport/mailbox.h"

#include <poll.h>
#include <sched.h>
#include <sys/socket.h>
#include <sys/uio.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <memory>
#include <sstream>

namespace rabit::transport {
namespace {

constexpr std::size_t kHeader = MessageHeader::kBytes;
// A refused payload is read through a buffer of this size, not allocated whole.
constexpr std::size_t kDiscardChunk = 1 << 20;
// Each recv takes at most this much of a payload (the loop goes on while bytes are there).
// Measured 11-15 % faster at 16 and 64 MiB, the same at 1-4 MiB (256 and 512 KiB gained less);
// likely because a recv of a whole large message holds the socket lock while it copies, and the
// sender's segments wait in the socket backlog meanwhile.
constexpr std::size_t kRecvSliceBytes = 128 * 1024;

// The filler bytes around payloads (message_header.h says why).
constexpr std::uint8_t kZeros[MessageHeader::kPage] = {};

bool WouldBlock(int err) { return err == EAGAIN || err == EWOULDBLOCK || err == EINTR; }

std::string RankName(int rank) {
  return rank == kAnySource ? std::string("any rank") : "rank " + std::to_string(rank);
}

}  // namespace

// Why a slice ends half a page into a page of the user's buffer: a sendmsg that starts after the
// receiver has freed all of the sender's current page fragment restarts it at offset 0 (it happens
// between slices whenever the receiver keeps up), and a slice starting at a page-aligned buffer
// address then sat at the same page offsets in socket memory as in the user's buffer: for a buffer
// at page offset 16 the receiver's copy was 16 bytes ahead of its source, in `rep movsb`'s slow
// band, for the rest of the message (perf, DI - SI of the copy; message_header.h). Starting each
// slice half a page into the user's page keeps the half-page distance Place() gives the message's
// first bytes, whether or not the fragment restarts.
std::size_t SendSliceBytes(const std::uint8_t* data, std::size_t from, std::size_t len) {
  std::size_t end = from + kSendSliceBytes;
  if (end >= len) return len - from;
  const auto address = reinterpret_cast<std::uintptr_t>(data + end);
  end -= (address + MessageHeader::kPage / 2) % MessageHeader::kPage;
  return end - from;
}

Mailbox::Mailbox(MailboxOptions options, std::vector<Link> links) : options_(options) {
  peers_.reserve(links.size());
  for (Link& link : links) {
    Peer& peer = peers_.emplace_back();
    peer.rank = link.peer;
    peer.socket = std::move(link.socket);
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
  if (failed_.ok()) failed_ = status;
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
  peer->out.push_back(
      OutMessage{ticket, header.Encode(), data, header.PayloadBytes(), header.lead, header.tail});
  // Small messages leave at once, so a sender that computes before waiting still sends early.
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
  if (MatchUnexpected(ticket, data, source, expect)) return ticket;
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
    if (!u.complete) {
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
    auto sent = PumpSend(peer);
    if (!sent.ok()) return sent.status();
    auto received = PumpRecv(peer);
    if (!received.ok()) return received.status();
    progressed = progressed || sent.value() || received.value();
  }
  return progressed;
}

treering::Result<bool> Mailbox::PumpSend(Peer& peer) {
  bool progressed = false;
  while (!peer.out.empty()) {
    OutMessage& m = peer.out.front();
    // The message on the wire: header, lead filler, payload (at most one slice per call), tail.
    const std::pair<const std::uint8_t*, std::size_t> parts[] = {
        {m.header.data(), kHeader}, {kZeros, m.lead}, {m.data, m.bytes}, {kZeros, m.tail}};
    iovec iov[4];
    std::size_t n = 0;
    std::size_t asked = 0;
    std::size_t start = 0;
    for (std::size_t i = 0; i < 4; ++i) {
      const auto [base, len] = parts[i];
      if (m.sent < start + len) {
        const std::size_t from = m.sent > start ? m.sent - start : 0;
        const std::size_t take = i == 2 ? SendSliceBytes(base, from, len) : len - from;
        iov[n++] = {const_cast<std::uint8_t*>(base) + from, take};
        asked += take;
        if (from + take < len) break;  // the slice ends inside the payload
      }
      start += len;
    }
    const std::size_t total = kHeader + m.lead + m.bytes + m.tail;
    msghdr msg{};
    msg.msg_iov = iov;
    msg.msg_iovlen = n;
    const ssize_t moved = ::sendmsg(peer.socket.fd(), &msg, MSG_NOSIGNAL | MSG_DONTWAIT);
    if (moved < 0) {
      if (WouldBlock(errno)) return progressed;
      return treering::Status::Network(Describe(requests_[m.ticket]) +
                                       " failed: " + std::strerror(errno) + " (rank " +
                                       std::to_string(peer.rank) + " exited or failed?)");
    }
    progressed = progressed || moved > 0;
    m.sent += static_cast<std::size_t>(moved);
    if (m.sent < total) {
      if (static_cast<std::size_t>(moved) < asked) return progressed;  // the socket is full
      continue;  // the kernel took the whole slice: offer the next
    }
    Complete(m.ticket, peer.rank);
    peer.out.pop_front();
  }
  return progressed;
}

treering::Result<bool> Mailbox::PumpRecv(Peer& peer) {
  bool progressed = false;
  while (true) {
    const bool in_header = peer.header_got < kHeader;
    iovec iov[3];
    std::size_t n = 0;
    if (in_header) {
      iov[n++] = {peer.header_in.data() + peer.header_got, kHeader - peer.header_got};
    } else {
      n = BodyIov(peer, iov);
    }
    msghdr msg{};
    msg.msg_iov = iov;
    msg.msg_iovlen = n;
    const ssize_t moved = ::recvmsg(peer.socket.fd(), &msg, MSG_DONTWAIT);
    if (moved == 0) {
      treering::Status closed = OnClosed(peer);
      if (!closed.ok()) return closed;
      return progressed;
    }
    if (moved < 0) {
      if (WouldBlock(errno)) return progressed;
      return treering::Status::Network(
          "rank " + std::to_string(options_.rank) + " receiving a message from rank " +
          std::to_string(peer.rank) + " failed: " + std::strerror(errno));
    }
    progressed = true;
    if (in_header) {
      peer.header_got += static_cast<std::size_t>(moved);
      if (peer.header_got < kHeader) continue;
      treering::Status started = StartPayload(peer);
      if (!started.ok()) return started;
    } else {
      CountBody(peer, static_cast<std::size_t>(moved));
    }
    const MessageHeader& h = peer.incoming;
    if (peer.header_got == kHeader && peer.lead_got == h.lead && peer.got == h.PayloadBytes() &&
        peer.tail_got == h.tail) {
      FinishPayload(peer);
    }
  }
}

// Where the next bytes after the header go: the rest of the lead filler, the next slice of the
// payload (its buffer, or scratch when refused) and, with the payload's last slice, the tail.
std::size_t Mailbox::BodyIov(Peer& peer, iovec* iov) {
  const MessageHeader& h = peer.incoming;
  const std::size_t payload = h.PayloadBytes();
  std::size_t n = 0;
  if (peer.lead_got < h.lead) iov[n++] = {peer.filler.data(), h.lead - peer.lead_got};
  if (peer.got < payload) {
    const std::size_t left = payload - peer.got;
    std::size_t want;
    std::uint8_t* dst;
    if (peer.into != nullptr) {
      want = std::min(kRecvSliceBytes, left);
      dst = peer.into + peer.got;
    } else {
      want = std::min(kDiscardChunk, left);
      peer.discarded.resize(std::max(peer.discarded.size(), want));
      dst = peer.discarded.data();
    }
    iov[n++] = {dst, want};
    if (want < left) return n;
  }
  // Lead and tail share the scratch: their bytes are never read.
  if (peer.tail_got < h.tail) iov[n++] = {peer.filler.data(), h.tail - peer.tail_got};
  return n;
}

// `moved` body bytes arrived: they filled the lead first, then the payload, then the tail.
void Mailbox::CountBody(Peer& peer, std::size_t moved) {
  const MessageHeader& h = peer.incoming;
  const std::size_t lead = std::min<std::size_t>(moved, h.lead - peer.lead_got);
  peer.lead_got += lead;
  moved -= lead;
  const std::size_t payload = std::min<std::size_t>(moved, h.PayloadBytes() - peer.got);
  peer.got += payload;
  moved -= payload;
  peer.tail_got += moved;
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
  Unexpected& u = unexpected_.emplace_back();
  u.source = peer.rank;
  u.header = *header;
  u.data = std::make_unique_for_overwrite<std::uint8_t[]>(header->PayloadBytes());
  peer.into = u.data.get();
  peer.unexpected = &u;
  return treering::Status::Ok();
}

void Mailbox::FinishPayload(Peer& peer) {
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
  if (peer.header_got > 0) {
    const std::string what = peer.header_got < kHeader
                                 ? "a message header"
                                 : std::to_string(peer.got) + " of " +
                                       std::to_string(peer.incoming.PayloadBytes()) +
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
    const short events = static_cast<short>(POLLIN | (peer.out.empty() ? 0 : POLLOUT));
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
