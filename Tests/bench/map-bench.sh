#!/usr/bin/env bash
# make bench-map: where an APNs push's CPU time goes inside `pushcheck serve`, by function, in µs per push — the map
# to read before cutting anything on the request path (issue 21). `serve --loops 1` with the gateway bench's
# configuration under h2load's load of valid pushes, after a warm-up that fills the 10,000-entry logs:
#  1. CPU per push, unprofiled: serve's user + system time over MAP_N pushes;
#  2. `perf record --call-graph dwarf` over MAP_N more, demangled by `swift demangle` and summed by callee_map.py:
#     each library's share, then the APNs handler, `evaluate`, `decide` and the HTTP/2 header callback split by
#     direct callee, in % of the samples and in µs of step 1's CPU per push;
#  3. a uprobe on the allocator's `malloc` over MAP_CALLS_N pushes, counted exactly (`perf stat`) and recorded the
#     same way: calls per push by the library that made them, or by the function in pushcheck and its caller
#     (the recorded calls' shares of the exact count; TLS handshakes left out).
# Usage: Tests/bench/map-bench.sh PATH/TO/pushcheck
# Env: MAP_WHAT (apns, the default, or fcm: v1 sends to a token through the FCM listener, split at the FCM
# handler, `sendChecked`, `sendDirect`, the APNs `evaluate` it hands the push to and the header callback),
# MAP_N (default 200000), MAP_CALLS_N (default 2000; 0 skips step 3), BENCH_FLAGS (default "-c 4 -m 64 -t 1").
# Needs root and perf (Debian's linux-perf), like count-bench.sh; without them it says "skipped" and exits 0.
set -euo pipefail
BIN=${1:?usage: map-bench.sh PATH/TO/pushcheck}
N=${MAP_N:-200000}
CALLS_N=${MAP_CALLS_N:-2000}
WHAT=${MAP_WHAT:-apns}
FLAGS=${BENCH_FLAGS:--c 4 -m 64 -t 1}
HERE=$(cd "$(dirname "$0")" && pwd)
source "$HERE/lib.sh"

skip() { echo "== where a request's time goes: skipped ($1)"; exit 0; }
command -v perf > /dev/null || skip "no perf: apt-get install linux-perf"
[ "$(id -u)" = 0 ] || skip "perf record on another process and uprobes need root"
DEMANGLE=(swift demangle --simplified)
"${DEMANGLE[@]}" < /dev/null > /dev/null 2>&1 || skip "no swift demangle"

case $WHAT in
  apns) apns_bench_config
    start_serve --loops 1
    URL="$(ready '["apns"]["sandbox"]')/3/device/$TOKEN"; HEADERS=("${APNS_H[@]}")
    ROOTS=('APNsHTTPHandler.handle(' 'APNsGateway.evaluate(_:)' 'APNsGateway.decide(' 'HTTP2Session.header(') ;;
  fcm) fcm_bench_config
    start_serve --loops 1
    FCM=$(ready '["fcm"]'); fcm_bench_headers "$FCM"
    URL="$FCM/v1/projects/bench-project/messages:send"; HEADERS=("${FCM_H[@]}")
    ROOTS=('FCMHTTPHandler.handle(' 'FCMGateway.sendChecked(' 'FCMGateway.sendDirect(' 'APNsGateway.evaluate(_:)'
      'HTTP2Session.header(') ;;
  *) echo "MAP_WHAT is apns or fcm, not $WHAT" >&2; exit 2 ;;
esac
push() { # N -> fails unless all N requests got 2xx
  local ok; ok=$(h2load -n "$1" $FLAGS "${HEADERS[@]}" "$URL" | awk '/status codes:/{print $3}')
  [ "$ok" = "$1" ] || { echo "h2load: only $ok of $1 requests got 2xx" >&2; exit 1; }
}
# record OUT N PERF-ARGS… — perf record on serve while N pushes are sent, then the samples demangled into OUT.
# perf drops samples it cannot write out in time (a dwarf stack is 8–32 KiB), so what is recorded gives shares;
# counts come from `perf stat` (COUNT_EVENT, when set: its exact count over the same pushes goes to $WORK/count).
record() {
  local out=$1 n=$2 stat=; shift 2
  perf record "$@" -p "$SERVE_PID" -o "$WORK/perf.data" > /dev/null 2>&1 & local rec=$!
  if [ -n "${COUNT_EVENT:-}" ]; then perf stat -x, -e "$COUNT_EVENT" -p "$SERVE_PID" -o "$WORK/stat" & stat=$!; fi
  sleep 0.5
  push "$n"
  if [ -n "$stat" ]; then
    kill -INT $stat; wait $stat || true
    awk -F, '/probe_/{print $1}' "$WORK/stat" > "$WORK/count"
  fi
  sleep 1   # perf is still writing out what it buffered
  kill -INT $rec; wait $rec || true
  perf script -i "$WORK/perf.data" -F comm,tid,ip,sym,dso 2> /dev/null | "${DEMANGLE[@]}" > "$out"
  rm -f "$WORK/perf.data"
}

push 20000   # fills the logs: from here each request also frees what the rings drop
C0=$(cpu_ms "$SERVE_PID"); push "$N"; CPU=$(( $(cpu_ms "$SERVE_PID") - C0 ))
US=$(python3 -c "print(f'{$CPU*1000/$N:.2f}')")
KIND=$([ "$WHAT" = apns ] && echo "APNs pushes" || echo "FCM sends")
echo "== where a request's time goes: serve --loops 1, h2load -n $N $FLAGS, valid $KIND"
echo "CPU per request, unprofiled: $US µs ($CPU ms over $N requests)"
record "$WORK/time.txt" "$N" -F 4000 --call-graph dwarf,32768
python3 "$HERE/callee_map.py" time "$WORK/time.txt" --per-unit-us "$US" "${ROOTS[@]/#/--root=}"
echo "(shares of the profiled samples; µs are those shares of the unprofiled CPU per request)"

[ "$CALLS_N" -gt 0 ] || exit 0
ALLOCATOR=$(allocator_of "$BIN")
add_probe "$ALLOCATOR" malloc || skip "perf probe -x $ALLOCATOR malloc failed"
echo "== malloc per request, by caller ($CALLS_N requests; TLS handshakes left out)"
COUNT_EVENT=${PROBE_EVENTS[0]} record "$WORK/calls.txt" "$CALLS_N" -e "${PROBE_EVENTS[0]}" --call-graph dwarf,8192
python3 "$HERE/callee_map.py" calls "$WORK/calls.txt" --requests "$CALLS_N" --calls "$(cat "$WORK/count")" \
  --main "$(basename "$BIN")" --top 15 --exclude 'TLSSession.handshake('   # h2load's new connections
