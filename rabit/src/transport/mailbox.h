// Mailbox: point-to-point messages (rabit's Send/Recv/Isend/Irecv) over one TCP link per pair
// of ranks. These message links are not the collective links: a collective's stream is a strict
// sequence of op headers and data that every algorithm reads without framing, so a message on
// it would be taken for the next op. The links are made once at bootstrap for every pair
// (bootstrap/message_links.h says why not on demand).
//
// Progress is driven from the calling thread, as Exchange does for collectives: Isend queues and
// writes what the kernel takes at once; Wait/Test move bytes on every link from one poll()
// loop. While the caller waits for anything, every link is read: a message whose Recv is posted
// lands straight in its buffer, any other is kept in memory until its Recv comes (MPI's
// "unexpected" queue; a Recv posted while it is still arriving takes the rest straight into its
// buffer). Payloads move in slices (512 KiB per sendmsg, 128 KiB per recv; mailbox.cc says why). So
// a Send completes once the kernel has taken its bytes, whether or not the receiver has posted the
// Recv, provided the receiver is inside some Mailbox call (or the message fits the socket buffers);
// two ranks sending each other large messages at once both complete. Matching is MPI's: by (source,
// tag) in posting / arrival order, so messages from one source with one tag are never overtaken. A
// matched message of another type or count fails the receive with a message naming both ranks and
// is consumed (the stream stays in step).
//
// Local puts: between two ranks of one machine (MailboxOptions::local_peers) a message of
// kPutFromBytes to kPutBelowBytes skips the socket's two kernel copies. The sender sends an offer
// (the message's header, no payload); a receiver that has, or posts, a matching receive answers
// with a grant (its buffer's address); the sender writes the payload there with process_vm_writev
// (one copy, transport/cross_memory.h) and sends a put, which completes the receive. A sender
// with no grant within put_wait_microseconds streams the message as usual after its offer, and
// a late grant is then ignored (grants name the offer they answer), so a Send still never waits
// for its Recv, and the buffering rule above holds with that bound added. A granted receive is
// taken out of the posted list: only that offer's message (put or streamed) can complete it. The
// first grant on a link carries a probe that proves the pid belongs to the receiver; if it or a
// write fails, that link streams for good. A Mailbox that fails while a granted receive is
// open first waits (at most 2 s) for that sender's put, its streamed message or its link's
// end, so no failure is returned while another process may still write the caller's buffer. A
// receiver that may not be written (not a local peer for it: rabit_local_read=false) answers an
// offer with a grant naming no process, which the sender takes as that refusal.
//
// Errors: a peer that closes its link in the middle of a message, a socket failure or no byte
// moving for `timeout_seconds` fail the Mailbox for good (every later call returns the same
// Status, naming the peer). A peer that closed its link between messages (it finished) fails
// only receives from it and sends to it. Not thread-safe: one thread at a time.
#pragma once

#include <sys/uio.h>

#include <array>
#include <deque>
#include <list>
#include <memory>
#include <optional>
#include <unordered_map>
#include <vector>

#include "rabit/point_to_point.h"
#include "transport/exchange.h"
#include "transport/idle_spin.h"
#include "transport/message_header.h"

namespace rabit::transport {

// Each sendmsg hands the kernel at most this much of a payload. With one sendmsg of a whole
// 64 MiB message the sender's copy into the socket ran at a third of the speed of the receiver's
// copy (likely cache-cold socket memory, megabytes ahead of the receiver), and ping-pong reached
// 0.6-0.8x Open MPI's bandwidth from 16 MiB. Slices keep both copies at the same speed
// (docs/collectives.md, "Point-to-point speed"; 256 KiB measured a little slower).
constexpr std::size_t kSendSliceBytes = 512 * 1024;
// Messages to a local peer of kPutFromBytes to kPutBelowBytes are offered for a put. Ping-pong
// on the project VM (docs/collectives.md, "Local puts"): at 1-4 MiB the put's one copy beat the
// socket's two by 10-40 %; at 512 KiB the round trip of small frames first cost more than it
// saved; from 8 MiB one core copying the whole message was slower than the socket's two copies
// running on both cores at once (16 MiB 3.7-4.4 vs 2.8-3.3 ms).
constexpr std::size_t kPutFromBytes = 1 << 20;
constexpr std::size_t kPutBelowBytes = 8 << 20;
// How much of a payload of `len` bytes at `data`, from byte `from` on, one sendmsg offers: all
// of it up to kSendSliceBytes, else a slice of up to kSendSliceBytes that ends half a page into
// a page of the buffer (mailbox.cc says why).
std::size_t SendSliceBytes(const std::uint8_t* data, std::size_t from, std::size_t len);

struct MailboxOptions {
  int rank = 0;
  int world = 1;
  double timeout_seconds = 300;  // longest wait without any byte moving on any message link
  AbortWatch* abort_watch = nullptr;
  int spin_microseconds = 50;  // busy-retry this long after the last progress before poll()
  // ...and up to this long while the core is otherwise idle (transport/idle_spin.h).
  int idle_spin_microseconds = 2000;
  // local_peers[r]: rank r's process runs on this machine and may be written to (local puts,
  // above). Empty or false: messages to r always take the socket.
  std::vector<bool> local_peers;
  // How long an offered message waits for its grant before it is streamed instead.
  int put_wait_microseconds = 50;
};

class Mailbox final : public PointToPoint {
 public:
  // links: at most one per other rank (non-blocking sockets); a rank without one cannot be
  // sent to or received from. Messages to this rank itself are copied in memory.
  Mailbox(MailboxOptions options, std::vector<Link> links);

  int rank() const override { return options_.rank; }
  int world() const override { return options_.world; }
  treering::Result<Ticket> Isend(const void* buf, std::size_t count, DataType type, int dest,
                                 int tag) override;
  treering::Result<Ticket> Irecv(void* buf, std::size_t count, DataType type, int source,
                                 int tag) override;
  treering::Result<int> Wait(Ticket ticket) override;
  treering::Result<int> Test(Ticket ticket) override;

  // Closes every message link (shutdown).
  void Close();

  // What became of offered messages (local puts): written by a put, or streamed after all.
  struct PutCounts {
    std::uint64_t put = 0;
    std::uint64_t streamed = 0;
  };
  const PutCounts& put_counts() const { return put_counts_; }

 private:
  struct RequestState {
    bool done = false;
    int peer = -1;  // source of a receive (kAnySource until matched), destination of a send
    bool is_send = false;
    MessageHeader header;  // what was sent / what the receive expects
    treering::Status error;
  };
  struct PostedRecv {
    Ticket ticket;
    std::uint8_t* buf;
    int source;
    MessageHeader expect;
  };
  // A message that arrived (or is arriving) before its receive was posted. Its buffer is not
  // zero-filled: the payload overwrites every byte.
  struct Unexpected {
    int source;
    MessageHeader header;
    std::unique_ptr<std::uint8_t[]> data;
    bool complete = false;
    bool offered = false;  // only its offer arrived: no byte of it yet, data not allocated
  };
  struct OutMessage {
    // kStream: the message itself. A local put goes kOffer (the offer frame is being sent) ->
    // kOffered (waiting for the grant) -> kPut (payload written, the put frame is being sent),
    // or from kOffered to kStream when no grant came in time or the write failed.
    enum class Stage { kStream, kOffer, kOffered, kPut };
    Ticket ticket;
    MessageHeader message;  // with its fillers (message_header.h)
    const std::uint8_t* data;
    Stage stage = Stage::kStream;
    // The header of the frame being sent: the message's own (kStream), or the offer or put.
    std::array<std::uint8_t, MessageHeader::kBytes> frame{};
    std::size_t sent = 0;  // of the frame being sent: header, and for kStream fillers and payload
    std::uint64_t offer = 0;  // its number on the link (a local put)
    Clock::time_point offered_at{};

    void Stream() {  // sends the message itself from its first byte
      stage = Stage::kStream;
      frame = message.Encode();
      sent = 0;
    }
  };
  using GrantFrame = std::array<std::uint8_t, MessageHeader::kBytes + PutGrant::kBytes>;
  // The receiver's side of the offer a peer made last, until its message (put or streamed) came.
  enum class OfferState { kNone, kWaiting, kGranted, kRefused };
  struct Peer {
    int rank = -1;
    TcpSocket socket;
    bool closed = false;
    std::deque<OutMessage> out;
    std::array<std::uint8_t, MessageHeader::kBytes> header_in{};
    std::size_t header_got = 0;
    MessageHeader incoming;
    std::uint8_t* into = nullptr;  // where the payload lands; null: discarded
    std::size_t got = 0;           // payload bytes
    std::size_t lead_got = 0;      // filler bytes before and after the payload
    std::size_t tail_got = 0;
    std::vector<std::uint8_t> filler = std::vector<std::uint8_t>(MessageHeader::kPage);  // scratch
    Ticket recv_ticket = 0;               // the posted receive it lands in, or
    Unexpected* unexpected = nullptr;     // the unexpected message it fills
    std::vector<std::uint8_t> discarded;  // scratch for a refused payload
    // Local puts, as the sender.
    bool put_allowed = false;  // local_peers: this rank may put to / be put into by the peer
    bool put_capable = false;  // large messages are offered (off for good after a refusal)
    std::int64_t put_pid = 0;  // the receiver's process, once its probe was read back
    std::uint64_t offers_out = 0;
    std::optional<PutGrant> grant;  // the last grant read, until used or found stale
    // ...and as the receiver.
    std::uint64_t offers_in = 0;
    OfferState offer = OfferState::kNone;
    MessageHeader offered;                // the open offer's message
    Unexpected* offered_entry = nullptr;  // kWaiting: its place in the unexpected queue
    Ticket granted_ticket = 0;            // kGranted: the receive it will complete
    std::uint8_t* granted_buf = nullptr;
    std::array<std::uint8_t, PutGrant::kBytes> grant_in{};
    std::deque<GrantFrame> grants_out;  // sent between frames of the outgoing stream
    std::size_t grant_sent = 0;
  };

  Ticket NewRequest(bool is_send, int peer, const MessageHeader& header);
  treering::Result<int> Take(Ticket ticket);
  bool OnlySelfCouldSend(const RequestState& request) const;
  void Complete(Ticket ticket, int peer, treering::Status error = treering::Status::Ok());
  Peer* PeerOf(int rank);
  treering::Status CheckRank(int rank, const char* role) const;
  void SendToSelf(Ticket ticket, const std::uint8_t* data, const MessageHeader& header);
  bool MatchUnexpected(Ticket ticket, std::uint8_t* buf, int source, const MessageHeader& expect);
  void Redirect(Unexpected& u, std::uint8_t* buf, Ticket ticket);
  std::string Mismatch(const MessageHeader& expect, int source, const MessageHeader& got) const;
  std::string Describe(const RequestState& request) const;

  static bool WouldBlock(int err);
  // An unexpected message's payload, not zero-filled (the payload overwrites every byte); null
  // when it does not fit in memory (a header's count is the peer's word).
  static std::unique_ptr<std::uint8_t[]> PayloadBuffer(std::uint64_t bytes);

  treering::Result<bool> Progress();
  treering::Result<bool> PumpSend(Peer& peer);
  treering::Result<bool> PumpRecv(Peer& peer);
  static std::size_t BodyIov(Peer& peer, iovec* iov);
  static void CountBody(Peer& peer, std::size_t moved);
  treering::Status StartPayload(Peer& peer);
  treering::Status TooLarge(const Peer& peer, const MessageHeader& header) const;
  treering::Status OnOffer(Peer& peer);
  treering::Status OnPut(Peer& peer);
  treering::Status StreamOffered(Peer& peer);
  void Grant(Peer& peer, Ticket ticket, std::uint8_t* buf);
  void SettleGrants();
  static void QueueGrant(Peer& peer, const PutGrant& grant);
  void ResolveOffer(Peer& peer, OutMessage& m);
  static bool AtFrameBoundary(const Peer& peer);
  treering::Result<bool> PumpGrants(Peer& peer);
  void FinishPayload(Peer& peer);
  treering::Status OnClosed(Peer& peer);
  void FailIfNoSenderLeft();
  treering::Status WaitForIo(Ticket ticket, Clock::time_point quiet_since);
  treering::Status Fail(treering::Status status);

  MailboxOptions options_;
  std::vector<Peer> peers_;
  std::unordered_map<Ticket, RequestState> requests_;
  std::list<PostedRecv> posted_;
  std::list<Unexpected> unexpected_;
  Ticket next_ticket_ = 1;
  treering::Status failed_;
  PutCounts put_counts_;
};

}  // namespace rabit::transport
