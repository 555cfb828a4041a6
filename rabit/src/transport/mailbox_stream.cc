// The Mailbox's bytes on a link (mailbox.h): the outgoing stream of frames, sliced and placed
// (message_header.h says why), and the incoming one parsed into headers, fillers and bodies. What
// a frame means is decided in mailbox.cc (messages) and mailbox_local_put.cc (local puts).
#include <sys/socket.h>
#include <sys/uio.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "transport/mailbox.h"

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

treering::Result<bool> Mailbox::PumpSend(Peer& peer) {
  using Stage = OutMessage::Stage;
  auto granted = PumpGrants(peer);
  if (!granted.ok()) return granted.status();
  bool progressed = granted.value();
  while (!peer.out.empty()) {
    OutMessage& m = peer.out.front();
    if (m.stage == Stage::kOffered) {
      ResolveOffer(peer, m);
      if (m.stage == Stage::kOffered) return progressed;
      progressed = true;
    }
    // The message on the wire: header, lead filler, payload (at most one slice per call), tail;
    // or an offer or put frame alone.
    const bool stream = m.stage == Stage::kStream;
    const std::pair<const std::uint8_t*, std::size_t> parts[] = {
        {m.frame.data(), kHeader},
        {kZeros, stream ? m.message.lead : 0},
        {m.data, stream ? m.message.PayloadBytes() : 0},
        {kZeros, stream ? m.message.tail : 0}};
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
    const std::size_t total = kHeader + parts[1].second + parts[2].second + parts[3].second;
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
    if (m.stage == Stage::kOffer) {
      m.stage = Stage::kOffered;
      m.offered_at = Clock::now();
      m.sent = 0;
      granted = PumpGrants(peer);  // a grant this rank owes may go out while it waits
      if (!granted.ok()) return granted.status();
      continue;
    }
    Complete(m.ticket, peer.rank);
    peer.out.pop_front();
    granted = PumpGrants(peer);
    if (!granted.ok()) return granted.status();
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
    if (peer.header_got == kHeader && peer.lead_got == h.lead && peer.got == h.BodyBytes() &&
        peer.tail_got == h.tail) {
      FinishPayload(peer);
    }
  }
}

// Where the next bytes after the header go: the rest of the lead filler, the next slice of the
// payload (its buffer, or scratch when refused) and, with the payload's last slice, the tail.
std::size_t Mailbox::BodyIov(Peer& peer, iovec* iov) {
  const MessageHeader& h = peer.incoming;
  const std::size_t payload = h.BodyBytes();
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
  const std::size_t payload = std::min<std::size_t>(moved, h.BodyBytes() - peer.got);
  peer.got += payload;
  moved -= payload;
  peer.tail_got += moved;
}

}  // namespace rabit::transport
