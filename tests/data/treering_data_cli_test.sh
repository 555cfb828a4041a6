#!/usr/bin/env bash
# treering-data info: the facts it prints for a known file, and its behaviour on bad input
# (one line on stderr, nothing on stdout, exit code 2).   usage: treering_data_cli_test.sh BIN
set -u
bin=$1
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
failures=0
check() {  # check NAME ACTUAL EXPECTED
  if [ "$2" != "$3" ]; then
    echo "FAIL $1: got [$2], expected [$3]"
    failures=$((failures + 1))
  fi
}

printf '1:1 0:1 3:2\n0:3 1:1\n1:2 qid:4 2:5\n' > "$dir/a.libsvm"  # weights: all rows or none
out=$("$bin" info "$dir/a.libsvm" --nthread 2); rc=$?
check "exit code" "$rc" 0
check rows "$(grep '^rows:' <<< "$out")" "rows: 3"
check columns "$(grep '^columns:' <<< "$out")" "columns: 4"
check non-zeros "$(grep '^non-zeros:' <<< "$out")" "non-zeros: 4"
check labels "$(grep '^labels:' <<< "$out")" "labels: 0:1 1:2"
check weights "$(grep '^weights:' <<< "$out")" "weights: yes"
check qids "$(grep '^qids:' <<< "$out")" "qids: yes"
# 4 row_ptr x 8 + 4 index x 4 + 4 value x 4 + 3 labels x 4 + 3 weights x 4 + 3 qids x 8
check bytes "$(grep '^bytes:' <<< "$out")" "bytes: 112"
check "input bytes" "$(grep '^input bytes:' <<< "$out")" "input bytes: $(stat -c %s "$dir/a.libsvm")"
check MB/s "$(grep -c '^MB/s: [0-9.]*$' <<< "$out")" 1

printf '0.5 0:1\n1.5 0:2\n' > "$dir/r.libsvm"
out=$("$bin" info "$dir/r.libsvm")
check "regression labels" "$(grep '^labels:' <<< "$out")" "labels: min 0.5, max 1.5, mean 1"

out=$("$bin" info "$dir/a.libsvm" --part 1 --nparts 2)
check "part 1 of 2" "$(grep -E '^(part|rows):' <<< "$out" | tr '\n' ' ')" "part: 1 of 2 rows: 1 "

printf '1 0:1\n0 x:1\n' > "$dir/bad.libsvm"
out=$("$bin" info "$dir/bad.libsvm" 2> "$dir/err"); rc=$?
check "bad input exit code" "$rc" 2
check "bad input stdout" "$out" ""
check "bad input stderr" "$(cat "$dir/err")" \
  "treering-data: $dir/bad.libsvm:2:3: expected index:value, got 'x:1'"

out=$("$bin" info "$dir/absent.libsvm" 2> "$dir/err"); rc=$?
check "missing file exit code" "$rc" 2
check "missing file stderr" "$(cat "$dir/err")" "treering-data: $dir/absent.libsvm: no such file"

"$bin" info "$dir/a.libsvm" --nparts 0 > "$dir/out" 2> "$dir/err"; rc=$?
check "bad flag exit code" "$rc" 2
check "bad flag stdout" "$(cat "$dir/out")" ""
check "bad flag stderr lines" "$(wc -l < "$dir/err")" 1

"$bin" info "$dir/a.libsvm" --part 2 --nparts 2 > "$dir/out" 2> "$dir/err"; rc=$?
check "part out of range exit code" "$rc" 2

[ "$failures" -eq 0 ] && echo "treering-data CLI: all checks passed"
exit $((failures > 0))
