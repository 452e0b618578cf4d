#!/usr/bin/env bash
# How a run's peak memory grows with its suite (issue 21's "peak RSS flat"): the runner bench's generated suite at
# SMALL and at LARGE scenarios (`runner-bench.sh BIN N 2`, each run ROUNDS times, the lowest peak kept: a busy host
# only adds), then the peak RSS of each and the growth per scenario between them, in KB. A run that held nothing per
# scenario would print 0; with the defaults stop 42's tree printed 15.0, stop 43's 6.7 (README "Benchmarks").
# Usage: Tests/bench/runner-rss.sh PATH/TO/pushcheck [SMALL=500] [LARGE=5000]   Env: ROUNDS (default 1).
set -euo pipefail
BIN=${1:?usage: runner-rss.sh PATH/TO/pushcheck [SMALL] [LARGE]}
SMALL=${2:-500}
LARGE=${3:-5000}
ROUNDS=${ROUNDS:-1}
HERE=$(cd "$(dirname "$0")" && pwd)
[ "$LARGE" -gt "$SMALL" ] || { echo "runner-rss: LARGE ($LARGE) must be more than SMALL ($SMALL)" >&2; exit 2; }

peak() { # N -> the lowest peak RSS in MB over ROUNDS runs of N scenarios; fails when a run fails
  local n=$1 best= out mb
  for _ in $(seq 1 "$ROUNDS"); do
    out=$(bash "$HERE/runner-bench.sh" "$BIN" "$n" 2) || { echo "$out" >&2; return 1; }
    mb=$(echo "$out" | sed -n 's/.*peak RSS \([0-9.]*\) MB.*/\1/p')
    [ -n "$mb" ] || { echo "runner-rss: no peak RSS in the runner bench's output:" >&2; echo "$out" >&2; return 1; }
    if [ -z "$best" ] || [ "$(echo "$mb < $best" | bc -l)" = 1 ]; then best=$mb; fi
  done
  echo "$best"
}

small=$(peak "$SMALL")
large=$(peak "$LARGE")
per=$(echo "($large - $small) * 1024 / ($LARGE - $SMALL)" | bc -l)
printf 'runner RSS: peak %.1f MB for %d scenarios, %.1f MB for %d: %.1f KB more a scenario (lowest of %d run(s) each)\n' \
  "$small" "$SMALL" "$large" "$LARGE" "$per" "$ROUNDS"
