#!/usr/bin/env bash
# make bench: pushcheck's APNs gateway vs nghttpd under the same h2load load, plus RSS over 1M requests.
# Usage: Tests/bench/gateway-bench.sh PATH/TO/pushcheck
# Env: BENCH_N (default 200000), BENCH_FLAGS (default "-c 4 -m 64 -t 1"), BENCH_RSS_N (default 1000000),
#      BENCH_LOOPS (serve --loops; default: serve's own default, one per core).
set -euo pipefail
BIN=${1:?usage: gateway-bench.sh PATH/TO/pushcheck}
N=${BENCH_N:-200000}
FLAGS=${BENCH_FLAGS:--c 4 -m 64 -t 1}
RSS_N=${BENCH_RSS_N:-1000000}
LOOPS=${BENCH_LOOPS:-$(nproc)}
source "$(dirname "$0")/lib.sh"

apns_bench_config
printf '{"aps":{"alert":{"title":"bench","body":"hello"},"badge":1},"url":"https://example.com/a"}' > "$WORK/payload.json"

start_serve --loops "$LOOPS"
SANDBOX=$(ready '["apns"]["sandbox"]')

# nghttpd serves a static 200 for the same path, over TLS with a P-256 certificate like ours.
start_nghttpd "$TOKEN"

H=(-H "authorization: bearer $JWT" -H "apns-topic: $TOPIC" -H "apns-push-type: alert" -H "apns-priority: 10" -d "$WORK/payload.json")
run_h2load() { # url n -> prints req/s, fails unless every request got 2xx; the TLS cipher goes to $WORK/cipher
  local out; out=$(h2load -n "$2" $FLAGS "${H[@]}" "$1" 2>&1)
  local ok; ok=$(echo "$out" | awk '/status codes:/{print $3}')
  local rps; rps=$(echo "$out" | awk '/^finished in/{print $4}')
  echo "$out" | awk '/^Cipher:/{print $2}' > "$WORK/cipher"
  if [ "$ok" != "$2" ]; then echo "h2load against $1: only $ok of $2 requests got 2xx" >&2; echo "$out" | tail -8 >&2; return 1; fi
  echo "$rps"
}

echo "== throughput: h2load -n $N $FLAGS, valid push (registered token, ES256 JWT, full validation)"
run_h2load "$SANDBOX/3/device/$TOKEN" 20000 > /dev/null   # warm-up
RSS_WARM=$(rss_kb)
OURS=$(run_h2load "$SANDBOX/3/device/$TOKEN" "$N"); OURS_CIPHER=$(cat "$WORK/cipher")
REF=$(run_h2load "https://127.0.0.1:$NPORT/3/device/$TOKEN" "$N"); REF_CIPHER=$(cat "$WORK/cipher")
# serve runs one event loop per core unless BENCH_LOOPS says otherwise; nghttpd runs one thread (no -n).
# h2load (-t 1) shares the same cores with either server.
printf 'pushcheck gateway: %s req/s (%s loops, %s)\nnghttpd (static):  %s req/s (1 thread, %s)\nratio: %.2f (target >= 0.50)\n' \
  "$OURS" "$LOOPS" "$OURS_CIPHER" "$REF" "$REF_CIPHER" "$(python3 -c "print($OURS/$REF)")"

echo "== memory: $RSS_N more requests"
run_h2load "$SANDBOX/3/device/$TOKEN" "$RSS_N" > /dev/null
RSS_END=$(rss_kb)
printf 'RSS after warm-up: %d KiB; after %d more requests: %d KiB (growth %+d KiB); peak (VmHWM): %d KiB\n' \
  "$RSS_WARM" "$RSS_N" "$RSS_END" "$((RSS_END - RSS_WARM))" "$(hwm_kb)"
