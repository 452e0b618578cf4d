#!/usr/bin/env bash
# Two builds, interleaved: for each of ROUNDS rounds, gateway-bench.sh then fcm-bench.sh on BEFORE, then the same
# on AFTER (one machine, one invocation, so drift hits both alike). Prints each round's summary lines as they come,
# then per ratio the median and the values of each build: what a closing note on a performance change quotes.
# Usage: Tests/bench/compare-bench.sh PATH/TO/BEFORE/pushcheck PATH/TO/AFTER/pushcheck [ROUNDS=5]
# (`make bench-compare BEFORE=… AFTER=…`). Env: BENCH_N (default 100000), BENCH_LOOPS (default "1 2"), as for the
# two benches; the RSS phase of gateway-bench.sh is skipped.
set -euo pipefail
BEFORE=${1:?usage: compare-bench.sh BEFORE AFTER [ROUNDS]}
AFTER=${2:?usage: compare-bench.sh BEFORE AFTER [ROUNDS]}
ROUNDS=${3:-5}
export BENCH_N=${BENCH_N:-100000} BENCH_LOOPS=${BENCH_LOOPS:-1 2} BENCH_RSS_N=0
HERE=$(dirname "$0")
LINES=$(mktemp)
trap 'rm -f "$LINES"' EXIT

for r in $(seq 1 "$ROUNDS"); do
  for which in before after; do
    bin=$([ $which = before ] && echo "$BEFORE" || echo "$AFTER")
    echo "== round $r/$ROUNDS, $which ($bin), load $(cut -d' ' -f1 /proc/loadavg)"
    { bash "$HERE/gateway-bench.sh" "$bin" | grep '^gateway ratio'
      bash "$HERE/fcm-bench.sh" "$bin" | grep '^FCM ratio'; } | while IFS= read -r line; do
      echo "$line"; printf '%s\t%s\n' "$which" "$line" >> "$LINES"
    done
  done
done

python3 - "$LINES" "$ROUNDS" <<'PY'
import re, statistics, sys
rows = [l.rstrip("\n").split("\t", 1) for l in open(sys.argv[1])]
values = {}  # (label, which) -> [float]
for which, line in rows:
    m = re.match(r"(gateway|FCM) ratio, (\d+) loops vs nghttpd -n \d+: ([\d.]+) .*?CPU per request: ([\d.]+)", line)
    if not m:
        continue
    what, loops, rps, cpu = m.group(1), m.group(2), float(m.group(3)), float(m.group(4))
    for metric, v in (("CPU per request", cpu), ("req/s", rps)):
        values.setdefault((f"{what}, {loops} loop{'s' if loops != '1' else ''} vs nghttpd -n {loops}, {metric} ratio",
                           which), []).append(v)
labels = list(dict.fromkeys(label for label, _ in values))
print(f"== medians of {sys.argv[2]} interleaved rounds (the values in round order)")
for label in labels:
    cells = []
    for which in ("before", "after"):
        v = values.get((label, which), [])
        cells.append(f"{which} {statistics.median(v):.3f} ({' / '.join(f'{x:.3f}' for x in v)})" if v else f"{which} -")
    print(f"{label}: " + "; ".join(cells))
PY
