// rabit::Comm (rabit/comm.h): the typed layer over an Engine. Each entry point makes one engine
// call, counts it in CommStats and turns a failed Status into rabit::Error.
#include "rabit/comm.h"

#include <chrono>

#include "transport/wire_format.h"

namespace rabit {

void detail::ThrowFor(const treering::Status& status, const char* op) {
  std::string what = std::string("rabit ") + op + ": " + status.message();
  if (status.code() == treering::StatusCode::kWorldChanged) throw WorldChanged(what);
  throw Error(what);
}

namespace {

void Check(const treering::Status& status, const char* op) {
  if (!status.ok()) detail::ThrowFor(status, op);
}

template <typename T>
T Value(const treering::Result<T>& result, const char* op) {
  Check(result.status(), op);
  return result.value();
}

std::size_t Total(const std::vector<std::size_t>& slice_bytes) {
  std::size_t total = 0;
  for (const std::size_t b : slice_bytes) total += b;
  return total;
}

// Adds one collective's wall time and payload to the stats when it returns (or throws), so a
// failed call is counted too.
class Timer {
 public:
  Timer(CommStats* stats, std::size_t payload_bytes)
      : stats_(stats), start_(std::chrono::steady_clock::now()) {
    stats_->payload_bytes += payload_bytes;
    stats_->calls += 1;
  }
  ~Timer() {
    const std::chrono::duration<double> spent = std::chrono::steady_clock::now() - start_;
    stats_->seconds += spent.count();
  }
  Timer(const Timer&) = delete;
  Timer& operator=(const Timer&) = delete;

 private:
  CommStats* stats_;
  std::chrono::steady_clock::time_point start_;
};

}  // namespace

std::uint64_t Comm::BroadcastSize(std::uint64_t n, int root) {
  std::uint8_t wire[8];
  transport::PutLe(wire, n, sizeof(wire));
  BroadcastBytes(wire, sizeof(wire), root);
  return transport::GetLe(wire, sizeof(wire));
}

void Comm::Broadcast(std::string* data, int root) {
  const std::uint64_t n = BroadcastSize(data->size(), root);
  data->resize(n);
  if (n != 0) BroadcastBytes(data->data(), n, root);
}

void Comm::TrackerPrint(const std::string& msg) {
  Check(engine_->TrackerPrint(msg), "TrackerPrint");
}

void Comm::AllreduceBytes(void* buf, std::size_t count, DataType type, OpKind op,
                          const PrepareFn& prepare) {
  const Timer timer(&stats_, count * DataTypeSize(type));
  Check(engine_->Allreduce(buf, count, type, op, prepare), "Allreduce");
}

void Comm::BroadcastBytes(void* buf, std::size_t bytes, int root) {
  const Timer timer(&stats_, bytes);
  Check(engine_->Broadcast(buf, bytes, root), "Broadcast");
}

void Comm::AllgatherBytes(void* buf, const std::vector<std::size_t>& slice_bytes) {
  const Timer timer(&stats_, Total(slice_bytes));
  Check(engine_->Allgather(buf, slice_bytes), "Allgather");
}

// Counted as this rank's slice: the summed bytes it receives (an Allreduce counts the whole
// buffer it receives). On the wire a ring reduce-scatter sends (N-1)/N of the whole buffer.
void Comm::ReduceScatterBytes(void* buf, const std::vector<std::size_t>& counts, DataType type,
                              OpKind op) {
  const std::size_t mine =
      Rank() < static_cast<int>(counts.size()) ? counts[Rank()] * DataTypeSize(type) : 0;
  const Timer timer(&stats_, mine);
  stats_.scattered_bytes += mine;
  Check(engine_->ReduceScatter(buf, counts, type, op), "ReduceScatter");
}

void Comm::Barrier() {
  const Timer timer(&stats_, 0);
  Check(engine_->Barrier(), "Barrier");
}

void Comm::ReduceBytes(void* buf, std::size_t count, DataType type, OpKind op, int root) {
  const Timer timer(&stats_, count * DataTypeSize(type));
  Check(engine_->Reduce(buf, count, type, op, root), "Reduce");
}

void Comm::GatherBytes(const void* send, void* recv, const std::vector<std::size_t>& slice_bytes,
                       int root) {
  const Timer timer(&stats_, Total(slice_bytes));
  Check(engine_->Gather(send, recv, slice_bytes, root), "Gather");
}

void Comm::ScatterBytes(const void* send, void* recv, const std::vector<std::size_t>& slice_bytes,
                        int root) {
  const Timer timer(&stats_, Total(slice_bytes));
  Check(engine_->Scatter(send, recv, slice_bytes, root), "Scatter");
}

// Messages are not collectives: they are not counted in CommStats.
PointToPoint& Comm::Messages(const char* call) { return *Value(engine_->Messages(), call); }

Ticket Comm::IsendBytes(const void* buf, std::size_t count, DataType type, int dest, int tag) {
  return Value(Messages("Isend").Isend(buf, count, type, dest, tag), "Isend");
}

Ticket Comm::IrecvBytes(void* buf, std::size_t count, DataType type, int source, int tag) {
  return Value(Messages("Irecv").Irecv(buf, count, type, source, tag), "Irecv");
}

void Comm::SendBytes(const void* buf, std::size_t count, DataType type, int dest, int tag) {
  Check(Messages("Send").Send(buf, count, type, dest, tag), "Send");
}

int Comm::RecvBytes(void* buf, std::size_t count, DataType type, int source, int tag) {
  return Value(Messages("Recv").Recv(buf, count, type, source, tag), "Recv");
}

int Comm::WaitRequest(Ticket ticket) { return Value(Messages("Wait").Wait(ticket), "Wait"); }

int Comm::TestRequest(Ticket ticket) { return Value(Messages("Test").Test(ticket), "Test"); }

void Comm::CheckTag(int tag) {
  if (tag < 0) {
    throw Error("rabit: message tag " + std::to_string(tag) +
                " is negative (user tags are >= 0; negative ones belong to Reduce/Gather/Scatter)");
  }
}

Request& Request::operator=(Request&& other) noexcept {
  if (this != &other) {
    comm_ = std::exchange(other.comm_, nullptr);
    ticket_ = other.ticket_;
    peer_ = other.peer_;
  }
  return *this;
}

Request::~Request() {
  // The transport may still write into (or read from) the caller's buffer: finish first.
  if (comm_ == nullptr) return;
  try {
    (void)Wait();
  } catch (const Error&) {
  }
}

int Request::Wait() {
  if (comm_ == nullptr) return peer_;
  Comm* comm = std::exchange(comm_, nullptr);
  peer_ = comm->WaitRequest(ticket_);
  return peer_;
}

bool Request::Test() {
  if (comm_ == nullptr) return true;
  const int peer = comm_->TestRequest(ticket_);
  if (peer < 0) return false;
  peer_ = peer;
  comm_ = nullptr;
  return true;
}

}  // namespace rabit
