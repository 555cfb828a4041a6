#!/usr/bin/env bash
# Runs demo/token_ring and demo/sync_sgd under treering-submit with N workers and checks their
# reports: the token's value after the laps, and the p2p SGD weights equal to the allreduce ones.
# usage: run_demos.sh BUILD_DIR N
set -uo pipefail
build=$1 n=$2
submit=$build/bin/treering-submit
log=$(mktemp)
trap 'rm -f "$log"' EXIT
fail() { echo "FAIL (N=$n): $*"; echo "----- job output -----"; cat "$log"; exit 1; }

timeout 120 "$submit" --cluster local --num-workers "$n" -- "$build/bin/token_ring" 5 >"$log" 2>&1 \
  || fail "token_ring exited with $?"
expected=$(( 5 * n * (n - 1) / 2 ))
grep -q "token_ring: $n workers, 5 laps, token $expected (expected $expected)" "$log" \
  || fail "token_ring did not report token $expected"

timeout 120 "$submit" --cluster local --num-workers "$n" -- "$build/bin/sync_sgd" 50 >"$log" 2>&1 \
  || fail "sync_sgd exited with $?"
grep -q "sync_sgd: $n workers, 50 steps: .*(agree)" "$log" || fail "sync_sgd weights differ"
grep "sync_sgd:" "$log"
echo "ok (N=$n)"
