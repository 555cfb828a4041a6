#!/usr/bin/env bash
# Loading over HTTP: `treering-data info http://127.0.0.1:PORT/FILE` against `treering-data serve`
# on loopback, the same load from the local file, and curl fetching the same bytes from the
# same server (the transfer ceiling: the loader's counting pass asks the server for counts
# (GET FILE?counts) and its parsing pass reads the file once, in NTHREAD parallel streams, so
# curl fetches the file once in NTHREAD parallel ranges). A second server started with
# --no-counts shows the load that fetches every chunk twice (count, then parse).
# One warm-up of each, then REPEATS alternating runs; prints medians, ratios and the load
# average (the machine's, read before and after: ratios from a busy machine are noisy).
#
# usage: bench/data/http_load.sh [FILE] [REPEATS]      (run from anywhere)
#   FILE     default bench/out/higgs1m.train.libsvm (made with make_synthetic.py if absent)
#   REPEATS  default 5
#   BIN=path/to/treering-data  (default build/bin/treering-data)   NTHREAD=2
# On a busy machine, `chrt -f 10 bench/data/http_load.sh ...` (as root) runs the loader, both
# servers and curl at real-time priority: close to a quiet machine's ratio (docs/benchmarks.md).
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
# serve runs inside $(...), a subshell: the servers' ids go through a file, not a variable.
trap 'kill $(cat "$scratch"/*.pid 2> /dev/null) 2> /dev/null; rm -rf "$scratch"' EXIT

serve() {  # serve NAME [FLAGS...]: starts a server, prints the file's URL on it
  local name=$1
  shift
  "$bin" serve "$(dirname "$file")" --port 0 "$@" > "$scratch/$name.out" 2> /dev/null &
  echo $! > "$scratch/$name.pid"
  for _ in $(seq 50); do grep -qs serving "$scratch/$name.out" && break; sleep 0.1; done
  echo "$(sed -n 's/^serving .* at \(http:.*\)$/\1/p' "$scratch/$name.out")$(basename "$file")"
}
url=$(serve counting)
url_nocount=$(serve fetching --no-counts)
bytes=$(stat -c %s "$file")

load_seconds() { "$bin" info "$1" --nthread "$nthread" | awk '/^load seconds:/ {print $3}'; }

curl_seconds() {  # NTHREAD parallel ranges of the file, once
  local start end t pids=()
  start=$(date +%s.%N)
  for ((t = 0; t < nthread; t++)); do
    local first=$((bytes * t / nthread)) last=$((bytes * (t + 1) / nthread - 1))
    curl -s -o /dev/null -r "$first-$last" "$url" &
    pids+=($!)
  done
  wait "${pids[@]}"
  end=$(date +%s.%N)
  awk -v a="$start" -v b="$end" 'BEGIN {printf "%.3f\n", b - a}'
}

median() { tr ' ' '\n' | sort -g | awk '{v[NR]=$1} END {print v[int((NR+1)/2)]}'; }

load_before=$(cut -d' ' -f1-3 /proc/loadavg)
load_seconds "$file" > /dev/null; load_seconds "$url" > /dev/null
load_seconds "$url_nocount" > /dev/null; curl_seconds > /dev/null
l_times=(); h_times=(); f_times=(); c_times=()
for ((i = 0; i < repeats; i++)); do
  l_times+=("$(load_seconds "$file")")
  h_times+=("$(load_seconds "$url")")
  f_times+=("$(load_seconds "$url_nocount")")
  c_times+=("$(curl_seconds)")
done
load_after=$(cut -d' ' -f1-3 /proc/loadavg)
l=$(echo "${l_times[@]}" | median); h=$(echo "${h_times[@]}" | median)
f=$(echo "${f_times[@]}" | median); c=$(echo "${c_times[@]}" | median)
awk -v f="$file" -v b="$bytes" -v l="$l" -v h="$h" -v fh="$f" -v c="$c" -v n="$repeats" \
    -v th="$nthread" -v lt="${l_times[*]}" -v ht="${h_times[*]}" -v ft="${f_times[*]}" \
    -v ct="${c_times[*]}" -v la="$load_before" -v lb="$load_after" 'BEGIN {
  printf "file %s: %.1f MB, %d threads, median of %d\n", f, b/1e6, th, n
  printf "load average before: %s, after: %s (on %s cores)\n", la, lb, "'"$(nproc)"'"
  printf "runs: local %s | http %s | http --no-counts %s | curl %s\n", lt, ht, ft, ct
  printf "%-32s %10s %10s\n", "", "seconds", "MB/s"
  printf "%-32s %10.3f %10.1f\n", "load, local file", l, b/1e6/l
  printf "%-32s %10.3f %10.1f\n", "load, http loopback", h, b/1e6/h
  printf "%-32s %10.3f %10.1f\n", "load, http, server not counting", fh, b/1e6/fh
  printf "%-32s %10.3f %10.1f\n", "curl, same bytes (1 pass)", c, b/1e6/c
  printf "http load speed / local load speed: %.2fx (goal >= 0.8x)\n", l/h
  printf "  the same with the server not counting (chunks fetched twice): %.2fx\n", l/fh
  printf "curl transfer time / http load time: %.2f (share of the load that is transfer)\n", c/h
}'
