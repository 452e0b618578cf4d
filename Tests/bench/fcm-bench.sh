#!/usr/bin/env bash
# make bench: FCM v1 send throughput (valid OAuth bearer from the mock's /token, token target, translation and
# delivery through the APNs gateway) beside the APNs gateway and nghttpd, all under the same h2load load in one run.
# Usage: Tests/bench/fcm-bench.sh PATH/TO/pushcheck
# For each loop count L in BENCH_LOOPS: `serve --loops L` and `nghttpd -n L` (equal threads); the 1-loop line is
# the headline ratio.
# Env: BENCH_N (default 100000), BENCH_FLAGS (default "-c 4 -m 64 -t 1"), BENCH_LOOPS (default "1 2").
set -euo pipefail
BIN=${1:?usage: fcm-bench.sh PATH/TO/pushcheck}
N=${BENCH_N:-100000}
FLAGS=${BENCH_FLAGS:--c 4 -m 64 -t 1}
LOOPS_LIST=${BENCH_LOOPS:-1 2}
source "$(dirname "$0")/lib.sh"

fcm_bench_config
run_h2load() { # url n headers... -> prints req/s, fails unless every request got 2xx
  local url=$1 n=$2; shift 2
  local out; out=$(h2load -n "$n" $FLAGS "$@" "$url" 2>&1)
  local ok; ok=$(echo "$out" | awk '/status codes:/{print $3}')
  if [ "$ok" != "$n" ]; then echo "h2load against $url: only $ok of $n requests got 2xx" >&2; echo "$out" | tail -8 >&2; return 1; fi
  echo "$out" | awk '/^finished in/{print $4}'
}

echo "== FCM: h2load -n $N $FLAGS (OAuth bearer, token target, translated and pushed through the APNs gateway)"
SUMMARY=()
for LOOPS in $LOOPS_LIST; do
  start_serve --loops "$LOOPS"
  SANDBOX=$(ready '["apns"]["sandbox"]'); FCM=$(ready '["fcm"]')
  fcm_bench_headers "$FCM"
  start_nghttpd "$TOKEN" "$LOOPS"
  run_h2load "$FCM/v1/projects/bench-project/messages:send" 10000 "${FCM_H[@]}" > /dev/null   # warm-up
  C0=$(cpu_ms "$SERVE_PID")
  FCM_RPS=$(run_h2load "$FCM/v1/projects/bench-project/messages:send" "$N" "${FCM_H[@]}")
  FCM_CPU=$(( $(cpu_ms "$SERVE_PID") - C0 ))
  APNS_RPS=$(run_h2load "$SANDBOX/3/device/$TOKEN" "$N" "${APNS_H[@]}")
  C0=$(cpu_ms "$NGHTTPD_PID")
  REF_RPS=$(run_h2load "https://127.0.0.1:$NPORT/3/device/$TOKEN" "$N" "${APNS_H[@]}")
  REF_CPU=$(( $(cpu_ms "$NGHTTPD_PID") - C0 ))
  stop_pid "$NGHTTPD_PID"; stop_pid "$SERVE_PID"
  printf 'pushcheck FCM send:     %s req/s (%s loops)\npushcheck APNs gateway: %s req/s (%s loops)\nnghttpd (static):       %s req/s (%s threads)\n' \
    "$FCM_RPS" "$LOOPS" "$APNS_RPS" "$LOOPS" "$REF_RPS" "$LOOPS"
  SUMMARY+=("$(printf 'FCM ratio, %s loops vs nghttpd -n %s: %.3f (%s vs %s req/s); CPU per request: %.3f (%.1f vs %.1f µs); FCM / APNs gateway: %.3f' \
    "$LOOPS" "$LOOPS" "$(python3 -c "print($FCM_RPS/$REF_RPS)")" "$FCM_RPS" "$REF_RPS" \
    "$(python3 -c "print($REF_CPU/max($FCM_CPU,1))")" "$(python3 -c "print($FCM_CPU*1000/$N)")" \
    "$(python3 -c "print($REF_CPU*1000/$N)")" "$(python3 -c "print($FCM_RPS/$APNS_RPS)")")")
done
printf '%s\n' "${SUMMARY[@]}"
echo "(target: 1 loop vs nghttpd's 1 thread >= 0.50; \"CPU per request\" is nghttpd's CPU time per request over FCM's)"
