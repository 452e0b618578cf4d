#!/usr/bin/env bash
# make bench: allocations and reference-count operations per request — exact counts, not timings.
# Usage: Tests/bench/count-bench.sh PATH/TO/pushcheck
#
# CPU time per request drifts ±10 % between runs on these shared machines; a count does not. Uprobes (`perf probe`,
# Debian's linux-perf) on malloc and free (jemalloc's when the binary links it, as it does since stop 33; else
# glibc's, for older builds) and on the Swift runtime's swift_allocObject, swift_retain and
# swift_release count every call `serve --loops 1` makes while h2load sends BENCH_COUNT_N valid APNs pushes, then
# as many FCM sends, after a warm-up that fills the 10,000-entry logs (so each request also frees what it evicts).
# A change on the request path shows here as whole calls per request, and `perf record -e probe_… --call-graph
# dwarf` on the same probes names their callers. Each hit traps into the kernel, so this run is slow (never time
# it). Needs root (uprobes); without perf or the rights it says so and exits 0. Probes it added are removed on exit.
# swift_bridgeObjectRetain/Release (strings, arrays) end in swift_retain/swift_release, so they are counted there.
set -euo pipefail
BIN=${1:?usage: count-bench.sh PATH/TO/pushcheck}
N=${BENCH_COUNT_N:-20000}
FLAGS=${BENCH_FLAGS:--c 4 -m 64 -t 1}
source "$(dirname "$0")/lib.sh"

ALLOCATOR=$(allocator_of "$BIN")  # where malloc and free go (lib.sh)
LIBSWIFT=$(ldd "$BIN" | awk '$1 ~ /^libswiftCore\.so/ {print $3}')
skip() { echo "== counts per request: skipped ($1)"; exit 0; }
command -v perf > /dev/null || skip "no perf: apt-get install linux-perf"
[ "$(id -u)" = 0 ] || skip "uprobes need root"
[ -n "$ALLOCATOR" ] && [ -n "$LIBSWIFT" ] || skip "the allocator (jemalloc or libc) or libswiftCore not found in ldd $BIN"
probe() { add_probe "$1" "$2" || skip "perf probe -x $1 $2 failed"; }  # removed on exit (lib.sh)
for s in malloc free; do probe "$ALLOCATOR" $s; done
for s in swift_allocObject swift_retain swift_release; do probe "$LIBSWIFT" $s; done

fcm_bench_config
start_serve --loops 1
SANDBOX=$(ready '["apns"]["sandbox"]'); FCM=$(ready '["fcm"]')
fcm_bench_headers "$FCM"
echo "== counts per request: h2load -n $N $FLAGS, serve --loops 1 (whole calls; a valid push, then a valid send)"
for what in apns fcm; do
  if [ $what = apns ]; then URL="$SANDBOX/3/device/$TOKEN"; HEADERS=("${APNS_H[@]}")
  else URL="$FCM/v1/projects/bench-project/messages:send"; HEADERS=("${FCM_H[@]}"); fi
  h2load -n 12000 $FLAGS "${HEADERS[@]}" "$URL" > /dev/null   # fills the 10,000-entry logs
  perf stat -x, -e "$(IFS=,; echo "${PROBE_EVENTS[*]}")" -p "$SERVE_PID" -o "$WORK/stat.$what" & STAT_PID=$!
  sleep 0.5
  OK=$(h2load -n "$N" $FLAGS "${HEADERS[@]}" "$URL" | awk '/status codes:/{print $3}')
  kill -INT $STAT_PID; wait $STAT_PID || true
  [ "$OK" = "$N" ] || { echo "h2load: only $OK of $N requests got 2xx"; exit 1; }
  LABEL=$([ $what = apns ] && echo "APNs push" || echo "FCM send ")
  awk -F, -v n="$N" -v label="$LABEL" '/probe_/{split($3, e, ":"); printf "%s %s=%.2f", (c++ ? "," : label ":"), e[2], $1 / n}
    END {print ""}' "$WORK/stat.$what"
done
echo "(outside the request: h2load's connection setup is counted too, 4 connections over $N requests)"
