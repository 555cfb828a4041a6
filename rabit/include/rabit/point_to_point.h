// PointToPoint: an engine's messages (rabit::Comm's Send/Recv/Isend/Irecv, and the binomial
// trees behind Reduce/Gather/Scatter), implemented by the socket transport's Mailbox and by MPI.
// Errors are Status values naming both ranks; rabit::Comm turns them into rabit::Error.
//
// Semantics (MPI's): messages from one source with one tag are received in the order they were
// sent; a receive matches a message of the same type and count only (otherwise the receive
// fails naming both ranks); a ticket is waited on or tested to completion exactly once.
#pragma once

#include <cstddef>
#include <cstdint>

#include "base/status.h"
#include "rabit/data_type.h"

namespace rabit {

// Receive from whichever rank's message matches first (MPI_ANY_SOURCE).
inline constexpr int kAnySource = -1;

// Names one request of one PointToPoint.
using Ticket = std::uint64_t;

class PointToPoint {
 public:
  virtual ~PointToPoint() = default;

  virtual int rank() const = 0;
  virtual int world() const = 0;

  virtual treering::Result<Ticket> Isend(const void* buf, std::size_t count, DataType type,
                                         int dest, int tag) = 0;
  // source may be kAnySource.
  virtual treering::Result<Ticket> Irecv(void* buf, std::size_t count, DataType type, int source,
                                         int tag) = 0;
  // Blocks until the request is complete; returns the peer (a receive's source rank).
  virtual treering::Result<int> Wait(Ticket ticket) = 0;
  // The peer once complete, -1 while pending; never blocks.
  virtual treering::Result<int> Test(Ticket ticket) = 0;

  // Blocking forms; MPI maps them to MPI_Send / MPI_Recv.
  virtual treering::Status Send(const void* buf, std::size_t count, DataType type, int dest,
                                int tag);
  virtual treering::Result<int> Recv(void* buf, std::size_t count, DataType type, int source,
                                     int tag);
};

inline treering::Status PointToPoint::Send(const void* buf, std::size_t count, DataType type,
                                           int dest, int tag) {
  auto ticket = Isend(buf, count, type, dest, tag);
  if (!ticket.ok()) return ticket.status();
  return Wait(ticket.value()).status();
}

inline treering::Result<int> PointToPoint::Recv(void* buf, std::size_t count, DataType type,
                                                int source, int tag) {
  auto ticket = Irecv(buf, count, type, source, tag);
  if (!ticket.ok()) return ticket.status();
  return Wait(ticket.value());
}

}  // namespace rabit
