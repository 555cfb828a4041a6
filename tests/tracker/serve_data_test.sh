#!/usr/bin/env bash
# treering-submit --serve-data runs `treering-data serve` as a child process: its workers get
# `?counts` and `?summary` answers (checked against counts made here with awk, over raw HTTP),
# the child is gone after a job that succeeded, failed on SIGTERM or was SIGKILLed, and a
# treering-data that is missing or that cannot bind fails the job with one line before any
# worker starts; treering-data on PATH is the fallback.
# usage: serve_data_test.sh TREERING_SUBMIT FAKE_WORKER (treering-data beside TREERING_SUBMIT)
# Exit codes: 0 every check passed, 1 a check failed, 77 skipped (/usr/bin or /bin hold a
# treering-data, so "missing" cannot be arranged).
set -uo pipefail
SUBMIT=$(realpath "$1") WORKER=$(realpath "$2")
DATA=$(dirname "$SUBMIT")/treering-data
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

# 400 LibSVM rows of 1..8 features; the expected counts come from awk, not from treering.
mkdir "$WORK/data"
awk 'BEGIN { srand(7); for (i = 0; i < 400; i++) { n = 1 + int(rand() * 8); s = int(rand() * 2)
       for (j = 1; j <= n; j++) s = s " " (j * 3) ":" int(rand() * 100) / 10; print s } }' \
  >"$WORK/data/train.libsvm"
rows=$(wc -l <"$WORK/data/train.libsvm")
entries=$(awk '{ e += NF - 1 } END { print e }' "$WORK/data/train.libsvm")
last_byte=$(($(stat -c %s "$WORK/data/train.libsvm") - 1))

# probe.sh TARGET OUT [LAST_BYTE]: GET TARGET from the job's data server with the job's URL and
# token (the workers' environment), raw HTTP through bash's /dev/tcp; the whole reply into OUT.
cat >"$WORK/probe.sh" <<'PROBE'
#!/usr/bin/env bash
u=${TREERING_DATA_URL#http://}
exec 3<>"/dev/tcp/${u%:*}/${u##*:}" || exit 21
range=${3:+$'Range: bytes=0-'$3$'\r\n'}
printf 'GET %s HTTP/1.1\r\nHost: %s\r\nAuthorization: Bearer %s\r\n%sConnection: close\r\n\r\n' \
  "$1" "$u" "$TREERING_DATA_TOKEN" "$range" >&3
tr -d '\r' <&3 >"$2"
PROBE
chmod +x "$WORK/probe.sh"

child_pid() {  # stderr file of a DEBUG run -> pid of its treering-data serve
  sed -n 's/^\[submit\] data server: .* serve (pid \([0-9]*\))$/\1/p' "$1"
}
expect_gone() {  # name, pid, port: no such process, nothing listening
  local alive=1
  for _ in $(seq 50); do
    grep -qs treering-data "/proc/$2/cmdline" || { alive=0; break; }
    sleep 0.1
  done
  [ "$alive" = 0 ] || fail "$1: treering-data serve (pid $2) outlived treering-submit"
  if [ -n "$3" ] && (exec 3<>"/dev/tcp/127.0.0.1/$3") 2>/dev/null; then
    fail "$1: something still listens on $3"
  fi
}

# 1. A worker asks the job's server for ?counts and ?summary of the whole file, then joins.
timeout 60 "$SUBMIT" --cluster local --num-workers 1 --log-level DEBUG --serve-data "$WORK/data" \
  -- bash -c '"$1" "/train.libsvm?counts" "$2/counts.reply" "$3" &&
              "$1" "/train.libsvm?summary" "$2/summary.reply" && exec "$0"' \
  "$WORKER" "$WORK/probe.sh" "$WORK" "$last_byte" >"$WORK/ok.out" 2>"$WORK/ok.err"
rc=$?
[ "$rc" = 0 ] || fail "counts job: exit code $rc: $(tail -3 "$WORK/ok.err")"
port=$(sed -n "s|^\[submit\] serving $WORK/data at http://127.0.0.1:\([0-9]*\)/\$|\1|p" "$WORK/ok.err")
[ -n "$port" ] || fail "counts job: no '[submit] serving' line: $(cat "$WORK/ok.err")"
# One JSON member per line: `"rows": 400,` (no comma on the last one).
for want in "HTTP/1.1 200 OK" "\"rows\": $rows,?" "\"entries\": $entries,?"; do
  grep -qxE " *$want" "$WORK/counts.reply" || fail "?counts: no '$want' in $(cat "$WORK/counts.reply")"
done
for want in "HTTP/1.1 200 OK" "\"rows\": $rows,?" "\"non_zeros\": $entries,?"; do
  grep -qxE " *$want" "$WORK/summary.reply" || fail "?summary: no '$want' in $(cat "$WORK/summary.reply")"
done
grep -q '"GET /train.libsvm?counts" 200' "$WORK/ok.err" || fail "counts job: no access-log line"
pid=$(child_pid "$WORK/ok.err")
[ -n "$pid" ] || fail "counts job: no data server pid line"
[ -n "$pid" ] && expect_gone "after success" "$pid" "$port"

# 2. SIGTERM to treering-submit mid-job: workers stopped, job failed, the child stopped too.
# 3. SIGKILL: the kernel's parent-death signal stops the child.
for sig in TERM KILL; do
  "$SUBMIT" --cluster local --num-workers 2 --grace 1 --log-level DEBUG \
    --serve-data "$WORK/data" -- "$WORKER" --hang >"$WORK/$sig.out" 2>"$WORK/$sig.err" &
  sub_pid=$!
  for _ in $(seq 100); do grep -qs "rank=1" "$WORK/$sig.out" && break; sleep 0.1; done
  pid=$(child_pid "$WORK/$sig.err")
  grep -qs treering-data "/proc/$pid/cmdline" || fail "SIG$sig: no data server running mid-job"
  kill -"$sig" "$sub_pid"
  wait "$sub_pid" 2>/dev/null
  rc=$?
  [ "$rc" != 0 ] || fail "SIG$sig: exit code 0"
  if [ -n "$pid" ]; then expect_gone "SIG$sig" "$pid" ""; else fail "SIG$sig: no pid line"; fi
done

# 4. No treering-data beside treering-submit nor on PATH: one line, exit 1, no worker started.
mkdir "$WORK/lonely"
cp "$SUBMIT" "$WORK/lonely/treering-submit"
if PATH=/usr/bin:/bin command -v treering-data >/dev/null; then
  echo "SKIP: /usr/bin or /bin has a treering-data"
  exit 77
fi
PATH=/usr/bin:/bin timeout 30 "$WORK/lonely/treering-submit" --cluster local --num-workers 1 \
  --serve-data "$WORK/data" -- touch "$WORK/missing.ran" >/dev/null 2>"$WORK/missing.err"
rc=$?
[ "$rc" = 1 ] || fail "missing treering-data: exit code $rc"
want="treering-submit: --serve-data $WORK/data: cannot find treering-data (neither beside"
want+=" $WORK/lonely/treering-submit nor on PATH)"
[ "$(cat "$WORK/missing.err")" = "$want" ] || fail "missing treering-data: $(cat "$WORK/missing.err")"
[ ! -e "$WORK/missing.ran" ] || fail "missing treering-data: a worker ran"

# 5. The fallback: treering-data found on PATH.
PATH="$(dirname "$DATA"):/usr/bin:/bin" timeout 60 "$WORK/lonely/treering-submit" \
  --cluster local --num-workers 1 --log-level DEBUG --serve-data "$WORK/data" -- "$WORKER" \
  >/dev/null 2>"$WORK/path.err"
rc=$?
[ "$rc" = 0 ] || fail "treering-data on PATH: exit code $rc: $(tail -3 "$WORK/path.err")"
grep -q "^\[submit\] data server: $DATA serve (pid" "$WORK/path.err" \
  || fail "treering-data on PATH: $(cat "$WORK/path.err")"

# 6. The child exits before serving (its port is taken): its reason in one line, no worker.
"$DATA" serve "$WORK/data" --port 0 >"$WORK/blocker.out" 2>/dev/null &
blocker=$!
for _ in $(seq 100); do grep -q "^serving" "$WORK/blocker.out" && break; sleep 0.1; done
taken=$(sed -n 's|^serving .* at http://127.0.0.1:\([0-9]*\)/$|\1|p' "$WORK/blocker.out")
timeout 30 "$SUBMIT" --cluster local --num-workers 1 --serve-data "$WORK/data" \
  --serve-data-port "$taken" -- touch "$WORK/taken.ran" >/dev/null 2>"$WORK/taken.err"
rc=$?
kill -TERM "$blocker"
wait "$blocker"
[ "$rc" = 1 ] || fail "port taken: exit code $rc"
[ "$(wc -l <"$WORK/taken.err")" = 1 ] || fail "port taken: not one line: $(cat "$WORK/taken.err")"
grep -qE "^treering-submit: --serve-data $WORK/data: treering-data serve exited with code 1 before serving: treering-data: .*$taken" \
  "$WORK/taken.err" || fail "port taken: $(cat "$WORK/taken.err")"
[ ! -e "$WORK/taken.ran" ] || fail "port taken: a worker ran"

[ "$failures" = 0 ] && echo "all serve-data checks passed"
[ "$failures" = 0 ]
