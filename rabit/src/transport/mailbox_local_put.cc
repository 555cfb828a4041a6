// The Mailbox's local puts (mailbox.h, "Local puts"): the sender's offer, wait and write, the
// receiver's grant, and the frames that end an offer (a put, or the message streamed after
// all). The rest of the Mailbox is in mailbox.cc.
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "transport/cross_memory.h"
#include "transport/mailbox.h"

namespace rabit::transport {
namespace {

constexpr std::size_t kHeader = MessageHeader::kBytes;
// The longest a failing Mailbox waits for a granted write to end (SettleGrants). A sender
// writes within microseconds of reading the grant, or never (it streamed after its wait).
constexpr auto kSettleTime = std::chrono::seconds(2);

// A local-put frame that breaks the protocol (mailbox.h, "Local puts").
std::string OfferError(int from, int to, const std::string& what) {
  return "rank " + std::to_string(from) + " " + what + " to rank " + std::to_string(to) +
         " (out of step)";
}

}  // namespace

// Grants may be sent only between two frames of the outgoing stream: nothing sent yet of the
// frame at its head, or a message waiting for a grant (its offer is out whole).
bool Mailbox::AtFrameBoundary(const Peer& peer) {
  return peer.out.empty() || peer.out.front().sent == 0 ||
         peer.out.front().stage == OutMessage::Stage::kOffered;
}

treering::Result<bool> Mailbox::PumpGrants(Peer& peer) {
  bool progressed = false;
  while (!peer.grants_out.empty() && AtFrameBoundary(peer)) {
    const GrantFrame& frame = peer.grants_out.front();
    const ssize_t moved = ::send(peer.socket.fd(), frame.data() + peer.grant_sent,
                                 frame.size() - peer.grant_sent, MSG_NOSIGNAL | MSG_DONTWAIT);
    if (moved < 0) {
      if (WouldBlock(errno)) return progressed;
      return treering::Status::Network("rank " + std::to_string(options_.rank) +
                                       " granting a put to rank " + std::to_string(peer.rank) +
                                       " failed: " + std::strerror(errno));
    }
    progressed = progressed || moved > 0;
    peer.grant_sent += static_cast<std::size_t>(moved);
    if (peer.grant_sent < frame.size()) return progressed;
    peer.grants_out.pop_front();
    peer.grant_sent = 0;
  }
  return progressed;
}

// An offered message's next step: written and put if its grant came (and the write worked),
// streamed if the write failed or no grant came in put_wait_microseconds, else it waits on.
void Mailbox::ResolveOffer(Peer& peer, OutMessage& m) {
  using Stage = OutMessage::Stage;
  if (peer.grant && peer.grant->offer < m.offer) peer.grant.reset();  // for an earlier offer
  if (peer.grant && peer.grant->offer == m.offer) {
    const PutGrant g = *peer.grant;
    peer.grant.reset();
    // The first grant's probe shows that its pid is the receiver's process; later grants must
    // name the same process (never write into another).
    if (peer.put_pid == 0) {
      std::uint64_t seen = 0;
      const auto pid = static_cast<pid_t>(g.pid);
      if (g.pid != 0 && static_cast<std::uint64_t>(pid) == g.pid &&
          ReadFromProcess(pid, g.probe_address, &seen, sizeof seen) && seen == g.probe_value) {
        peer.put_pid = pid;
      }
    }
    if (peer.put_pid != 0 && static_cast<std::uint64_t>(peer.put_pid) == g.pid &&
        WriteToProcess(static_cast<pid_t>(peer.put_pid), g.address, m.data,
                       m.message.PayloadBytes())) {
      m.stage = Stage::kPut;
      m.frame = m.message.As(MessageHeader::Kind::kPut).Encode();
      m.sent = 0;
      ++put_counts_.put;
    } else {
      ++put_counts_.streamed;
      peer.put_capable = false;  // refused: this message and every later one take the socket
      m.Stream();
    }
    return;
  }
  const auto wait = std::chrono::microseconds(options_.put_wait_microseconds);
  if (Clock::now() - m.offered_at >= wait) {
    m.Stream();
    ++put_counts_.streamed;
  }
}

treering::Status Mailbox::TooLarge(const Peer& peer, const MessageHeader& header) const {
  return treering::Status::Protocol(
      "rank " + std::to_string(peer.rank) + " sent rank " + std::to_string(options_.rank) +
      " a message of " + header.Describe() +
      " before its receive was posted, and it does not fit in memory");
}

// An offer: grant the first posted receive that matches (as a message would be matched), fail
// one that matches by tag only (the message will be dropped), or queue it as unexpected.
treering::Status Mailbox::OnOffer(Peer& peer) {
  if (peer.offer != OfferState::kNone) {
    return treering::Status::Protocol(
        OfferError(peer.rank, options_.rank, "offered a message while its last offer was open"));
  }
  ++peer.offers_in;
  if (!peer.put_allowed) {
    // This process may not be written by that rank: a grant naming no process refuses the put,
    // and the message that follows is matched as any other.
    QueueGrant(peer, PutGrant{peer.offers_in, 0, 0, 0, 0});
    return treering::Status::Ok();
  }
  peer.offered = peer.incoming.As(MessageHeader::Kind::kMessage);
  const MessageHeader& header = peer.offered;
  for (auto it = posted_.begin(); it != posted_.end(); ++it) {
    if ((it->source != peer.rank && it->source != kAnySource) || it->expect.tag != header.tag) {
      continue;
    }
    if (it->expect.dtype == header.dtype && it->expect.count == header.count) {
      Grant(peer, it->ticket, it->buf);
    } else {
      Complete(it->ticket, peer.rank,
               treering::Status::InvalidInput(Mismatch(it->expect, peer.rank, header)));
      peer.offer = OfferState::kRefused;
    }
    posted_.erase(it);
    return treering::Status::Ok();
  }
  Unexpected& u = unexpected_.emplace_back();
  u.source = peer.rank;
  u.header = header;
  u.offered = true;
  peer.offer = OfferState::kWaiting;
  peer.offered_entry = &u;
  return treering::Status::Ok();
}

// The receive `ticket` takes the offered message: tell the sender where to write it.
void Mailbox::Grant(Peer& peer, Ticket ticket, std::uint8_t* buf) {
  peer.offer = OfferState::kGranted;
  peer.granted_ticket = ticket;
  peer.granted_buf = buf;
  const std::uint64_t& probe = ProcessProbe();
  QueueGrant(peer, PutGrant{peer.offers_in, static_cast<std::uint64_t>(getpid()),
                            reinterpret_cast<std::uint64_t>(buf),
                            reinterpret_cast<std::uint64_t>(&probe), probe});
}

void Mailbox::QueueGrant(Peer& peer, const PutGrant& grant) {
  const MessageHeader frame{DataType::kUInt8,           0, PutGrant::kBytes, 0, 0,
                            MessageHeader::Kind::kGrant};
  GrantFrame& out = peer.grants_out.emplace_back();
  const auto head = frame.Encode();
  const auto body = grant.Encode();
  std::copy(head.begin(), head.end(), out.begin());
  std::copy(body.begin(), body.end(), out.begin() + kHeader);
}

// The sender wrote the granted message into this process: its receive is complete.
treering::Status Mailbox::OnPut(Peer& peer) {
  if (peer.offer != OfferState::kGranted || !peer.incoming.SameMessage(peer.offered)) {
    return treering::Status::Protocol(
        OfferError(peer.rank, options_.rank, "put a message no grant was sent for"));
  }
  peer.recv_ticket = peer.granted_ticket;
  peer.offer = OfferState::kNone;
  peer.granted_ticket = 0;
  peer.granted_buf = nullptr;
  return treering::Status::Ok();
}

// The sender streams the message it offered (no grant in time, or its write failed): it goes
// where the offer's answer said.
treering::Status Mailbox::StreamOffered(Peer& peer) {
  if (!peer.incoming.SameMessage(peer.offered)) {
    return treering::Status::Protocol(
        OfferError(peer.rank, options_.rank, "sent another message than it offered"));
  }
  switch (peer.offer) {
    case OfferState::kGranted:
      peer.into = peer.granted_buf;
      peer.recv_ticket = peer.granted_ticket;
      break;
    case OfferState::kWaiting: {
      Unexpected& u = *peer.offered_entry;
      u.data = PayloadBuffer(u.header.PayloadBytes());
      if (u.data == nullptr) return TooLarge(peer, u.header);
      u.offered = false;
      peer.into = u.data.get();
      peer.unexpected = &u;
      break;
    }
    case OfferState::kRefused:
    case OfferState::kNone:
      break;  // dropped
  }
  peer.offer = OfferState::kNone;
  peer.offered_entry = nullptr;
  peer.granted_ticket = 0;
  peer.granted_buf = nullptr;
  return treering::Status::Ok();
}

// Before a failure is returned: a sender that read this rank's grant may be writing the granted
// receive's buffer (the put frame follows the write), and the caller could free that buffer
// once the failure is returned. Each such sender's next message frame is awaited: a put (the
// write is over) or the message itself (it streamed: no write comes), or its link's end (it
// has exited or failed; its writes precede its close). Grants it sends meanwhile are dropped.
// At most kSettleTime per sender; nothing else is read.
void Mailbox::SettleGrants() {
  for (Peer& peer : peers_) {
    if (peer.closed || peer.offer != OfferState::kGranted) continue;
    std::size_t skip = 0;  // bytes of a grant's body to drop
    if (peer.header_got == kHeader) {
      // A frame after the grant is under way: only a grant of its own keeps the put pending.
      if (peer.incoming.kind != MessageHeader::Kind::kGrant) continue;
      skip = PutGrant::kBytes - peer.got;
      peer.header_got = 0;
    }
    const auto deadline = Clock::now() + kSettleTime;
    std::array<std::uint8_t, PutGrant::kBytes> dropped{};
    while (Clock::now() < deadline) {
      const ssize_t moved = skip > 0
                                ? ::recv(peer.socket.fd(), dropped.data(), skip, MSG_DONTWAIT)
                                : ::recv(peer.socket.fd(), peer.header_in.data() + peer.header_got,
                                         kHeader - peer.header_got, MSG_DONTWAIT);
      if (moved == 0) break;  // the link ended
      if (moved < 0) {
        if (!WouldBlock(errno)) break;
        pollfd readable{peer.socket.fd(), POLLIN, 0};
        (void)::poll(&readable, 1, 1);
        continue;
      }
      if (skip > 0) {
        skip -= static_cast<std::size_t>(moved);
        continue;
      }
      peer.header_got += static_cast<std::size_t>(moved);
      if (peer.header_got < kHeader) continue;
      peer.header_got = 0;
      const auto header = MessageHeader::Decode(peer.header_in.data());
      if (header && header->kind == MessageHeader::Kind::kGrant) {
        skip = PutGrant::kBytes;
        continue;
      }
      break;  // a put, the message, or bytes out of step: no write is pending either way
    }
  }
}

}  // namespace rabit::transport
