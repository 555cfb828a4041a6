// The public API: one owned Engine behind free functions, as Rabit users expect.
#include "rabit/rabit.h"

#include <chrono>
#include <cstdlib>
#include <cstring>
#include <memory>

#include "engines/engine.h"
#include "engines/single/single_engine.h"

namespace rabit {
namespace {

// The one engine the API fronts (the design's only process-wide state). Before Init and
// after Finalize it is a SingleEngine, so library code may call collectives unconditionally.
std::unique_ptr<engine::Engine>& TheEngine() {
  static std::unique_ptr<engine::Engine> engine = std::make_unique<engine::SingleEngine>();
  return engine;
}

void Check(const treering::Status& status, const char* op) {
  if (!status.ok()) throw Error(std::string("rabit ") + op + ": " + status.message());
}

// The handle every free function of rabit.h goes through: forwards to whatever engine is
// current (Init replaces it) and counts each collective's wall time and payload.
class EngineComm final : public Comm {
 public:
  int Rank() const override { return TheEngine()->Rank(); }
  int WorldSize() const override { return TheEngine()->WorldSize(); }
  void TrackerPrint(const std::string& msg) override {
    Check(TheEngine()->TrackerPrint(msg), "TrackerPrint");
  }
  CommStats Stats() const override { return stats_; }

  void AllreduceBytes(void* buf, std::size_t count, DataType type, OpKind op,
                      const PrepareFn& prepare) override {
    const Timer timer(&stats_, count * DataTypeSize(type));
    Check(TheEngine()->Allreduce(buf, count, type, op, prepare), "Allreduce");
  }
  void BroadcastBytes(void* buf, std::size_t bytes, int root) override {
    const Timer timer(&stats_, bytes);
    Check(TheEngine()->Broadcast(buf, bytes, root), "Broadcast");
  }
  void AllgatherBytes(void* buf, const std::vector<std::size_t>& slice_bytes) override {
    std::size_t total = 0;
    for (const std::size_t b : slice_bytes) total += b;
    const Timer timer(&stats_, total);
    Check(TheEngine()->Allgather(buf, slice_bytes), "Allgather");
  }

  // Messages are not collectives: they are not counted in CommStats.
  std::uint64_t IsendBytes(const void* buf, std::size_t count, DataType type, int dest,
                           int tag) override {
    return Value(Messages("Isend")->Isend(buf, count, type, dest, tag), "Isend");
  }
  std::uint64_t IrecvBytes(void* buf, std::size_t count, DataType type, int source,
                           int tag) override {
    return Value(Messages("Irecv")->Irecv(buf, count, type, source, tag), "Irecv");
  }
  int WaitRequest(std::uint64_t ticket) override {
    return Value(Messages("Wait")->Wait(ticket), "Wait");
  }
  int TestRequest(std::uint64_t ticket) override {
    return Value(Messages("Test")->Test(ticket), "Test");
  }
  void SendBytes(const void* buf, std::size_t count, DataType type, int dest, int tag) override {
    Check(Messages("Send")->Send(buf, count, type, dest, tag), "Send");
  }
  int RecvBytes(void* buf, std::size_t count, DataType type, int source, int tag) override {
    return Value(Messages("Recv")->Recv(buf, count, type, source, tag), "Recv");
  }

  void Barrier() override {
    const Timer timer(&stats_, 0);
    Check(TheEngine()->Barrier(), "Barrier");
  }
  void ReduceBytes(void* buf, std::size_t count, DataType type, OpKind op, int root) override {
    const Timer timer(&stats_, count * DataTypeSize(type));
    Check(TheEngine()->Reduce(buf, count, type, op, root), "Reduce");
  }
  void GatherBytes(const void* send, void* recv, const std::vector<std::size_t>& slice_bytes,
                   int root) override {
    const Timer timer(&stats_, Total(slice_bytes));
    Check(TheEngine()->Gather(send, recv, slice_bytes, root), "Gather");
  }
  void ScatterBytes(const void* send, void* recv, const std::vector<std::size_t>& slice_bytes,
                    int root) override {
    const Timer timer(&stats_, Total(slice_bytes));
    Check(TheEngine()->Scatter(send, recv, slice_bytes, root), "Scatter");
  }

  // Counted as this rank's slice: the summed bytes it receives (an Allreduce counts the whole
  // buffer it receives). On the wire a ring reduce-scatter sends (N-1)/N of the whole buffer.
  void ReduceScatterBytes(void* buf, const std::vector<std::size_t>& counts, DataType type,
                          OpKind op) override {
    const std::size_t mine =
        Rank() < static_cast<int>(counts.size()) ? counts[Rank()] * DataTypeSize(type) : 0;
    const Timer timer(&stats_, mine);
    stats_.scattered_bytes += mine;
    Check(TheEngine()->ReduceScatter(buf, counts, type, op), "ReduceScatter");
  }

 private:
  static transport::PointToPoint* Messages(const char* call) {
    transport::PointToPoint* p2p = TheEngine()->Messages();
    if (p2p == nullptr) {
      throw Error(std::string("rabit ") + call + ": " + TheEngine()->NoMessagesReason());
    }
    return p2p;
  }
  template <typename T>
  static T Value(const treering::Result<T>& result, const char* call) {
    Check(result.status(), call);
    return result.value();
  }
  static std::size_t Total(const std::vector<std::size_t>& slice_bytes) {
    std::size_t total = 0;
    for (const std::size_t b : slice_bytes) total += b;
    return total;
  }

  // Adds one collective's wall time and payload to the stats when it returns (or throws).
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

  CommStats stats_;
};

}  // namespace

Comm& DefaultComm() {
  static EngineComm comm;
  return comm;
}

CommStats GetCommStats() { return DefaultComm().Stats(); }

void Init(int argc, char* argv[]) {
  std::vector<std::pair<std::string, std::string>> params;
  for (int i = 1; i < argc; ++i) {
    const char* eq = std::strchr(argv[i], '=');
    if (eq == nullptr || eq == argv[i]) continue;
    params.emplace_back(std::string(static_cast<const char*>(argv[i]), eq), std::string(eq + 1));
  }
  Init(params);
}

void Init(const std::vector<std::pair<std::string, std::string>>& params) {
  auto created = engine::CreateEngine(params);
  Check(created.status(), "Init");
  TheEngine() = std::move(created.value());
}

void Finalize() {
  auto& engine = TheEngine();
  const treering::Status status = engine->Shutdown();
  engine = std::make_unique<engine::SingleEngine>();
  Check(status, "Finalize");
}

int GetRank() { return TheEngine()->Rank(); }
int GetWorldSize() { return TheEngine()->WorldSize(); }
bool IsDistributed() { return TheEngine()->WorldSize() > 1; }
std::string GetProcessorName() { return TheEngine()->ProcessorName(); }
void TrackerPrint(const std::string& msg) { DefaultComm().TrackerPrint(msg); }

int LoadCheckPoint(Serializable* global, Serializable* local) {
  auto version = TheEngine()->LoadCheckPoint(global, local);
  Check(version.status(), "LoadCheckPoint");
  return version.value();
}

void CheckPoint(const Serializable* global, const Serializable* local) {
  Check(TheEngine()->CheckPoint(global, local), "CheckPoint");
}

int VersionNumber() { return TheEngine()->VersionNumber(); }

}  // namespace rabit
