#!/usr/bin/env bash
# Loading over HTTP: `treering-data info http://127.0.0.1:PORT/FILE` against `treering-data serve`
# on loopback, the same load from the local file, and curl fetching the same bytes from the
# same server (the transfer ceiling: the loader reads its range twice, once to count and once to
# parse, in NTHREAD parallel streams, so curl fetches the file twice in NTHREAD parallel ranges).
# One warm-up of each, then REPEATS alternating runs; prints medians and ratios.
#
# usage: bench/data/http_load.sh [FILE] [REPEATS]      (run from anywhere)
#   FILE     default bench/out/higgs1m.train.libsvm (made with make_synthetic.py if absent)
#   REPEATS  default 5
#   BIN=path/to/treering-data  (default build/bin/treering-data)   NTHREAD=2
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
file=${1:-$root/bench/out/higgs1m.train.libsvm}
repeats=${2:-5}
bin=${BIN:-$root/build/bin/treering-data}
nthread=${NTHREAD:-2}
synth=$root/../shared/bench/data/make_synthetic.py

if [ ! -s "$file" ]; then
  mkdir -p "$(dirname "$file")"
  echo "making $file"
  /usr/bin/python3 "$synth" "$(dirname "$file")" --rows 1000000
fi
[ -x "$bin" ] || { echo "no $bin: build the treering-data target first" >&2; exit 1; }
command -v curl > /dev/null || { echo "curl is not installed (scripts/install-deps.sh)" >&2; exit 1; }
scratch=$(mktemp -d)
"$bin" serve "$(dirname "$file")" --port 0 > "$scratch/serve.out" 2> /dev/null &
server=$!
trap 'kill $server 2> /dev/null; wait $server 2> /dev/null; rm -rf "$scratch"' EXIT
for _ in $(seq 50); do grep -qs serving "$scratch/serve.out" && break; sleep 0.1; done
base=$(sed -n 's/^serving .* at \(http:.*\)$/\1/p' "$scratch/serve.out")
url=$base$(basename "$file")
bytes=$(stat -c %s "$file")

load_seconds() { "$bin" info "$1" --nthread "$nthread" | awk '/^load seconds:/ {print $3}'; }

curl_seconds() {  # NTHREAD parallel ranges of the file, twice
  local start end t
  start=$(date +%s.%N)
  for pass in 1 2; do
    for ((t = 0; t < nthread; t++)); do
      local first=$((bytes * t / nthread)) last=$((bytes * (t + 1) / nthread - 1))
      curl -s -o /dev/null -r "$first-$last" "$url" &
    done
    wait $(jobs -p | grep -v "^$server$") 2> /dev/null || true
  done
  end=$(date +%s.%N)
  awk -v a="$start" -v b="$end" 'BEGIN {printf "%.3f\n", b - a}'
}

median() { tr ' ' '\n' | sort -g | awk '{v[NR]=$1} END {print v[int((NR+1)/2)]}'; }

load_seconds "$file" > /dev/null; load_seconds "$url" > /dev/null; curl_seconds > /dev/null
l_times=(); h_times=(); c_times=()
for ((i = 0; i < repeats; i++)); do
  l_times+=("$(load_seconds "$file")")
  h_times+=("$(load_seconds "$url")")
  c_times+=("$(curl_seconds)")
done
l=$(echo "${l_times[@]}" | median); h=$(echo "${h_times[@]}" | median)
c=$(echo "${c_times[@]}" | median)
awk -v f="$file" -v b="$bytes" -v l="$l" -v h="$h" -v c="$c" -v n="$repeats" -v th="$nthread" \
    -v lt="${l_times[*]}" -v ht="${h_times[*]}" -v ct="${c_times[*]}" 'BEGIN {
  printf "file %s: %.1f MB, %d threads, median of %d\n", f, b/1e6, th, n
  printf "runs: local %s | http %s | curl %s\n", lt, ht, ct
  printf "%-28s %10s %10s\n", "", "seconds", "MB/s"
  printf "%-28s %10.3f %10.1f\n", "load, local file", l, b/1e6/l
  printf "%-28s %10.3f %10.1f\n", "load, http loopback", h, b/1e6/h
  printf "%-28s %10.3f %10.1f\n", "curl, same bytes (2 passes)", c, 2*b/1e6/c
  printf "http load speed / local load speed: %.2fx (goal >= 0.8x)\n", l/h
  printf "curl transfer time / http load time: %.2f (share of the load that is transfer)\n", c/h
}'
