#!/usr/bin/env bash
# The README's test command: installs dependencies, builds in Release, runs the whole suite with
# ctest, then runs the unit tests once more under AddressSanitizer + UndefinedBehaviorSanitizer.
# Set TREERING_SKIP_SANITIZE=1 to skip the sanitizer pass (local iteration only).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
scripts/check-style.sh

# Open MPI refuses to run as root unless told; CI runs as root.
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_rmaps_base_oversubscribe=1

scripts/build.sh build
(cd build && ctest -j2 --output-on-failure --timeout 600)

if [ "${TREERING_SKIP_SANITIZE:-0}" != "1" ]; then
  # Sanitized runs: the unit tests only (multi-process tests are covered by the Release pass),
  # so only their binaries are built (tests/CMakeLists.txt, target unit-tests).
  # -O1 -g1 (ASan's recommended level, line tables only): the sanitizer build is half of CI's
  # wall time, and -O2 -g cost 1.66x the compile CPU of -O1 on a sample of 11 files.
  TREERING_BUILD_TARGET=unit-tests \
    scripts/build.sh build-asan -DCMAKE_BUILD_TYPE=RelWithDebInfo -DTREERING_SANITIZE=ON \
    "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O1 -g1 -DNDEBUG"
  (cd build-asan && ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1 \
     ctest -j2 -L unit --output-on-failure --timeout 600)
fi
