#!/usr/bin/env bash
# Configures and builds treering. usage: scripts/build.sh [BUILD_DIR] [extra cmake args...]
# Every executable ends up in BUILD_DIR/bin (default build/bin). TREERING_BUILD_TARGET=T builds
# only target T (and what it needs) instead of everything.
set -euo pipefail
cd "$(dirname "$0")/.."
dir=${1:-build}
shift || true
gen=()
command -v ninja >/dev/null && gen=(-G Ninja)
if [ ! -f "$dir/CMakeCache.txt" ]; then
  cmake -S . -B "$dir" "${gen[@]}" -DCMAKE_BUILD_TYPE=Release "$@"
elif [ $# -gt 0 ]; then
  cmake -S . -B "$dir" "$@"
fi
cmake --build "$dir" -j "$(nproc)" ${TREERING_BUILD_TARGET:+--target "$TREERING_BUILD_TARGET"}
