// How idle OpenMP threads of a treering program wait (issue 33 goal 4: share the machine with
// other jobs). See base/src/omp_wait_policy.cc for the policy and why it is set this way.
#pragma once

namespace treering {

// libgomp's spin budget for treering's programs (GOMP_SPINCOUNT; libgomp's own default is
// 300000).
inline constexpr const char* kOmpSpinCount = "10000";

// Called first thing in a program's main(): unless OMP_WAIT_POLICY or GOMP_SPINCOUNT is set,
// sets GOMP_SPINCOUNT to kOmpSpinCount and executes the program again (/proc/self/exe, the same
// argv), because libgomp reads its environment only once, when it is loaded. Returns (and the
// program runs as it is) when the variables are set already or the exec fails.
void ApplyOmpWaitPolicy(char** argv);

}  // namespace treering
