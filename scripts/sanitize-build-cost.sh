#!/usr/bin/env bash
# What the sanitizer pass of scripts/test.sh saves by building only `unit-tests`: CPU seconds of
# a clean RelWithDebInfo + ASan/UBSan build (no ccache) of that target, then of the rest of
# `all` in the same directory (what the pass used to build on top). CPU, not wall time, so a
# busy machine still gives comparable numbers; run it on a quiet one all the same.
# usage: scripts/sanitize-build-cost.sh [BUILD_DIR]   (default /tmp/treering-sanitize-cost; wiped)
set -euo pipefail
src=$(cd "$(dirname "$0")/.." && pwd)
dir=${1:-/tmp/treering-sanitize-cost}
export CCACHE_DISABLE=1
rm -rf "$dir"
cmake -S "$src" -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DTREERING_SANITIZE=ON \
  >/dev/null
echo "edges: unit-tests $(ninja -C "$dir" -t commands unit-tests | wc -l)," \
  "all $(ninja -C "$dir" -t commands all | wc -l)"
echo "load before: $(uptime)"
cpu() {  # cpu NAME TARGET: builds TARGET, prints its user+sys CPU seconds and wall time
  /usr/bin/time -f "%U %S %e" -o "$dir/$1.time" cmake --build "$dir" -j "$(nproc)" --target "$2" \
    >"$dir/$1.log" 2>&1
  awk -v n="$1" '{printf "%-10s cpu %7.0f s (user %.0f + sys %.0f), wall %.0f s\n", n, $1 + $2, $1, $2, $3}' \
    "$dir/$1.time"
}
cpu unit-tests unit-tests
cpu rest all
echo "load after: $(uptime)"
