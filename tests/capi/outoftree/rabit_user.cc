// A C++ user of the collective API as installed (<rabit/rabit.h>, linked with libtreering.a)
// that also calls the C API from C++ (<treering/c_api.h>). In a world of one (no tracker),
// which is where such a program starts: Init, typed Allreduce and Broadcast, Finalize.
#include <rabit/rabit.h>
#include <treering/c_api.h>

#include <cstdio>
#include <string>
#include <vector>

int main() {
  rabit::Init({});
  std::vector<double> v = {1.5, -2.0, 4.25};
  rabit::Allreduce<rabit::op::Sum>(v.data(), v.size());
  std::string s = rabit::GetRank() == 0 ? "from rank 0" : "";
  rabit::Broadcast(&s, 0);
  const bool ok = rabit::GetWorldSize() == 1 && v[2] == 4.25 && s == "from rank 0";
  rabit::Finalize();
  int major = 0, minor = 0, patch = 0;
  XGBoostVersion(&major, &minor, &patch);
  std::printf("rabit_user: world 1, allreduce and broadcast %s; C API %d.%d.%d\n",
              ok ? "ok" : "WRONG", major, minor, patch);
  return ok && major == 1 && minor == 7 ? 0 : 1;
}
