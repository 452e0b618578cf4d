#!/usr/bin/env bash
# make bench-side: one or more builds and nghttpd side by side, all running at once, in interleaved rounds — the
# tightest comparison this machine allows (issue 21). Each build's `serve --loops 1` and `nghttpd -n 1` start
# together with the gateway bench's configuration and stay up (warm, logs full) for the whole run; in each round
# every server in turn gets SIDE_N requests from h2load (`-c 4 -m 64 -t 1`, as the other benches), so a round
# lasts a second or two and whatever else the machine does falls on all of them alike. A server's CPU per request
# is the run time of all its threads over its burst (`/proc/PID/task/*/schedstat`: nanoseconds, where
# `/proc/PID/stat` counts 10 ms ticks), so a value repeats to about 1 % between rounds where the sequential
# benches swing by ±15 %.
# Prints each round's CPU per request, then per build the median, the median of the per-round ratios to nghttpd
# (nghttpd's CPU per request over the build's: the target's measure) with their range, and for every build after
# the first the median of its per-round ratio to the first (below 1: cheaper).
# Usage: Tests/bench/side-bench.sh PATH/TO/pushcheck [PATH/TO/other/pushcheck …]
# Env: SIDE_WHAT (apns: valid pushes to the APNs listener, the default; fcm: v1 sends to the FCM listener, compared
# with nghttpd under the APNs push's load as in fcm-bench.sh), SIDE_ROUNDS (default 8), SIDE_N (default 30000).
# A thread that ends during a burst takes its time with it; serve's loop thread, which does all the work here,
# lives as long as the server.
set -euo pipefail
[ $# -ge 1 ] || { echo "usage: side-bench.sh PATH/TO/pushcheck [PATH/TO/other/pushcheck …]" >&2; exit 2; }
WHAT=${SIDE_WHAT:-apns}
ROUNDS=${SIDE_ROUNDS:-8}
N=${SIDE_N:-30000}
FLAGS=(-c 4 -m 64 -t 1)
BIN=$1
source "$(dirname "$0")/lib.sh"
case $WHAT in
  apns) apns_bench_config ;;
  fcm) fcm_bench_config ;;
  *) echo "SIDE_WHAT is apns or fcm, not $WHAT" >&2; exit 2 ;;
esac

BINS=("$@"); NAMES=(); PIDS=(); URLS=(); HEADS=()
for i in "${!BINS[@]}"; do
  b=${BINS[$i]}
  [ -x "$b" ] || { echo "side-bench: $b is not an executable" >&2; exit 2; }
  dir="$WORK/s$i"; mkdir -p "$dir"
  "$b" serve --config "$WORK/serve.yaml" --ca-out "$dir/ca.pem" --loops 1 > "$dir/ready.json" 2> "$dir/log" &
  PIDS+=($!); BENCH_PIDS+=($!)
  for _ in $(seq 1 100); do [ -s "$dir/ready.json" ] && break; sleep 0.1; done
  [ -s "$dir/ready.json" ] || { echo "$b serve did not start:"; cat "$dir/log"; exit 1; }
  NAMES+=("$(printf '%d:%s' "$i" "$b")")
  if [ "$WHAT" = apns ]; then
    URLS+=("$(ready '["apns"]["sandbox"]' "$dir/ready.json")/3/device/$TOKEN"); HEADS+=("APNS")
  else
    fcm=$(ready '["fcm"]' "$dir/ready.json"); cp "$dir/ca.pem" "$WORK/ca.pem"   # fcm_access_token trusts $WORK/ca.pem
    URLS+=("$fcm/v1/projects/bench-project/messages:send"); HEADS+=("$(fcm_access_token "$fcm")")
  fi
done
start_nghttpd "$TOKEN" 1
NAMES+=(nghttpd); PIDS+=("$NGHTTPD_PID"); URLS+=("https://127.0.0.1:$NPORT/3/device/$TOKEN"); HEADS+=("APNS")

# snapshot PID FILE — each thread's run time so far ("tid ns" lines); used() sums what each thread ran between two
# snapshots (a thread that ended in between is left out, one that started counts whole): a plain sum of the
# threads' totals lost the whole past of any dispatch worker that ended during a burst.
snapshot() {
  local t
  for t in /proc/"$1"/task/*; do
    read -r ns _ < "$t/schedstat" 2> /dev/null && echo "${t##*/} $ns"
  done > "$2" || true
}
used() { awk 'NR == FNR {a[$1] = $2; next} {s += $2 - ($1 in a ? a[$1] : 0)} END {printf "%d", s}' "$1" "$2"; }
burst() { # INDEX COUNT — h2load against server INDEX; fails unless every request got 2xx
  local h=() ok
  if [ "${HEADS[$1]}" = APNS ]; then h=("${APNS_H[@]}")
  else h=(-H "authorization: Bearer ${HEADS[$1]}" -H "content-type: application/json" -d "$WORK/message.json"); fi
  ok=$(h2load -n "$2" "${FLAGS[@]}" "${h[@]}" "${URLS[$1]}" | awk '/status codes:/{print $3}')
  [ "$ok" = "$2" ] || { echo "h2load against ${NAMES[$1]}: only $ok of $2 requests got 2xx" >&2; exit 1; }
}

echo "== side by side: ${#NAMES[@]} servers, $ROUNDS rounds of $N $WHAT requests each (h2load ${FLAGS[*]}), CPU ns per request"
for i in "${!NAMES[@]}"; do burst "$i" 20000; done   # warm-up: TLS sessions, the 10,000-entry logs filled
for r in $(seq 1 "$ROUNDS"); do
  line="round $r:"
  for i in "${!NAMES[@]}"; do
    snapshot "${PIDS[$i]}" "$WORK/before"; burst "$i" "$N"; snapshot "${PIDS[$i]}" "$WORK/after"
    v=$(( $(used "$WORK/before" "$WORK/after") / N )); line="$line $v"; printf '%s\t%s\t%s\n' "$r" "$i" "$v" >> "$WORK/values"
  done
  echo "$line"
done
python3 - "$WORK/values" "${NAMES[@]}" <<'PY'
import statistics, sys
names = sys.argv[2:]
ns = {}  # (round, server) -> ns per request
for line in open(sys.argv[1]):
    r, i, v = line.split()
    ns[(int(r), int(i))] = int(v)
rounds = sorted({r for r, _ in ns})
ref = len(names) - 1
print("(columns: " + ", ".join(names) + ")")
for i, name in enumerate(names):
    cpu = statistics.median(ns[(r, i)] for r in rounds) / 1000
    if i == ref:
        print(f"{name}: {cpu:.2f} µs CPU per request (median)")
        continue
    to_ref = [ns[(r, ref)] / ns[(r, i)] for r in rounds]
    line = (f"{name}: {cpu:.2f} µs CPU per request (median); nghttpd / this, per round: median {statistics.median(to_ref):.3f}"
            f" ({min(to_ref):.3f}–{max(to_ref):.3f})")
    if i > 0:
        to_first = [ns[(r, i)] / ns[(r, 0)] for r in rounds]
        line += f"; this / build 0, per round: median {statistics.median(to_first):.3f} ({min(to_first):.3f}–{max(to_first):.3f})"
    print(line)
PY
