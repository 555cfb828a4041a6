#include "booster/mlp/collective.h"
#include "rabit/rabit.h"

namespace treering::booster::mlp {
namespace {

class RabitCollective final : public Collective {
 public:
  int Rank() const override { return rabit::GetRank(); }
  int WorldSize() const override { return rabit::GetWorldSize(); }
  void SumFloats(float* buf, std::size_t n) override { rabit::Allreduce<rabit::op::Sum>(buf, n); }
  void SumDoubles(double* buf, std::size_t n) override { rabit::Allreduce<rabit::op::Sum>(buf, n); }
  void MaxU64(std::uint64_t* buf, std::size_t n) override {
    rabit::Allreduce<rabit::op::Max>(buf, n);
  }
  void Broadcast(void* buf, std::size_t bytes, int root) override {
    rabit::Broadcast(buf, bytes, root);
  }
};

}  // namespace

std::unique_ptr<Collective> MakeRabitCollective() { return std::make_unique<RabitCollective>(); }

}  // namespace treering::booster::mlp
