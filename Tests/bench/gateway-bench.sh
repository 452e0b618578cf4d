#!/usr/bin/env bash
# make bench: pushcheck's APNs gateway vs nghttpd under the same h2load load at equal thread counts, plus RSS
# over 1M requests. For each loop count L in BENCH_LOOPS: `serve --loops L` and `nghttpd -n L`, one after the
# other under the same h2load flags; the first line of the summary (1 loop vs nghttpd's one thread) is the
# headline ratio, the second (2 loops vs `nghttpd -n 2`) what a user gets from serve's default on 2 cores.
# Usage: Tests/bench/gateway-bench.sh PATH/TO/pushcheck
# Env: BENCH_N (default 200000), BENCH_FLAGS (default "-c 4 -m 64 -t 1"), BENCH_RSS_N (default 1000000; 0 skips),
#      BENCH_LOOPS (default "1 2": serve --loops and nghttpd -n, one phase each).
set -euo pipefail
BIN=${1:?usage: gateway-bench.sh PATH/TO/pushcheck}
N=${BENCH_N:-200000}
FLAGS=${BENCH_FLAGS:--c 4 -m 64 -t 1}
RSS_N=${BENCH_RSS_N:-1000000}
LOOPS_LIST=${BENCH_LOOPS:-1 2}
source "$(dirname "$0")/lib.sh"

apns_bench_config

run_h2load() { # url n -> prints req/s, fails unless every request got 2xx; the TLS cipher goes to $WORK/cipher
  local out; out=$(h2load -n "$2" $FLAGS "${APNS_H[@]}" "$1" 2>&1)
  local ok; ok=$(echo "$out" | awk '/status codes:/{print $3}')
  local rps; rps=$(echo "$out" | awk '/^finished in/{print $4}')
  echo "$out" | awk '/^Cipher:/{print $2}' > "$WORK/cipher"
  if [ "$ok" != "$2" ]; then echo "h2load against $1: only $ok of $2 requests got 2xx" >&2; echo "$out" | tail -8 >&2; return 1; fi
  echo "$rps"
}

echo "== throughput: h2load -n $N $FLAGS, valid push (registered token, ES256 JWT, full validation)"
SUMMARY=()
for LOOPS in $LOOPS_LIST; do
  # nghttpd serves a static 200 for the same path, over TLS with a P-256 certificate like ours, with as many
  # worker threads as serve has event loops. h2load (-t 1) shares the same cores with either server.
  start_serve --loops "$LOOPS"
  SANDBOX=$(ready '["apns"]["sandbox"]')
  start_nghttpd "$TOKEN" "$LOOPS"
  run_h2load "$SANDBOX/3/device/$TOKEN" 20000 > /dev/null   # warm-up
  RSS_WARM=$(rss_kb)
  C0=$(cpu_ms "$SERVE_PID")
  OURS=$(run_h2load "$SANDBOX/3/device/$TOKEN" "$N"); OURS_CIPHER=$(cat "$WORK/cipher")
  OURS_CPU=$(( $(cpu_ms "$SERVE_PID") - C0 )); C0=$(cpu_ms "$NGHTTPD_PID")
  REF=$(run_h2load "https://127.0.0.1:$NPORT/3/device/$TOKEN" "$N"); REF_CIPHER=$(cat "$WORK/cipher")
  REF_CPU=$(( $(cpu_ms "$NGHTTPD_PID") - C0 ))
  RATIO=$(python3 -c "print(f'{$OURS/$REF:.3f}')")
  CPU_RATIO=$(python3 -c "print(f'{$REF_CPU/max($OURS_CPU,1):.3f}')")
  printf 'pushcheck gateway: %s req/s, %s µs CPU/request (%s loops, %s)\n' \
    "$OURS" "$(python3 -c "print(f'{$OURS_CPU*1000/$N:.1f}')")" "$LOOPS" "$OURS_CIPHER"
  printf 'nghttpd (static):  %s req/s, %s µs CPU/request (%s threads, %s)\nratio: %s (req/s), %s (CPU per request)\n' \
    "$REF" "$(python3 -c "print(f'{$REF_CPU*1000/$N:.1f}')")" "$LOOPS" "$REF_CIPHER" "$RATIO" "$CPU_RATIO"
  SUMMARY+=("gateway ratio, $LOOPS loops vs nghttpd -n $LOOPS: $RATIO ($OURS vs $REF req/s); CPU per request: $CPU_RATIO")
  stop_pid "$NGHTTPD_PID"
  # The memory check runs on the last phase's server, then it stops.
  [ "$LOOPS" = "${LOOPS_LIST##* }" ] || stop_pid "$SERVE_PID"
done
printf '%s\n' "${SUMMARY[@]}"
echo "(target: 1 loop vs nghttpd's 1 thread >= 0.80; \"CPU per request\" is nghttpd's CPU time per request over ours)"

[ "$RSS_N" -gt 0 ] || exit 0
echo "== memory: $RSS_N more requests ($LOOPS loops)"
run_h2load "$SANDBOX/3/device/$TOKEN" "$RSS_N" > /dev/null
RSS_END=$(rss_kb)
printf 'RSS after warm-up: %d KiB; after %d more requests: %d KiB (growth %+d KiB); peak (VmHWM): %d KiB\n' \
  "$RSS_WARM" "$RSS_N" "$RSS_END" "$((RSS_END - RSS_WARM))" "$(hwm_kb)"
