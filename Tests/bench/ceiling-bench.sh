#!/usr/bin/env bash
# Where the gateway's cost per push goes, measured rather than read off a profile: three release builds of one
# source snapshot (the working tree, uncommitted changes included) under gateway-bench.sh's load, 1 loop vs
# nghttpd's 1 thread, in interleaved rounds:
#   full        the tree as it is;
#   rules-only  Tests/bench/ceiling/rules-only.patch: every APNs rule runs and the answer is the same, but nothing is
#               logged, recorded in the delivery history or handed to the device;
#   http-only   Tests/bench/ceiling/http-only.patch: no APNs rule runs; every request gets an accepted push's answer
#               (200, a fresh apns-id and apns-unique-id). TLS, nghttp2 and our HTTP/2 layer remain.
# The patched builds are experiments, never shipped: http-only accepts what APNs refuses. The gap between rows is
# what that layer costs; http-only is the ceiling any APNs logic is measured under.
# Usage: Tests/bench/ceiling-bench.sh [ROUNDS=5]   (`make bench-ceiling`). Env: BENCH_N (default 100000).
# Builds take a few minutes (one full release build, two incremental ones) in a scratch directory removed on exit.
set -euo pipefail
ROUNDS=${1:-5}
export BENCH_N=${BENCH_N:-100000} BENCH_LOOPS=1 BENCH_RSS_N=0
HERE=$(cd "$(dirname "$0")" && pwd)
REPO=$(cd "$HERE/../.." && pwd)
SCRATCH=$(mktemp -d /tmp/pushcheck-ceiling.XXXXXX)
trap 'rm -rf "$SCRATCH"' EXIT

# The snapshot: tracked and untracked-but-not-ignored files of the working tree.
mkdir -p "$SCRATCH/src" "$SCRATCH/bin"
(cd "$REPO" && git ls-files -co --exclude-standard -z | tar --null -cf - -T -) | tar -xf - -C "$SCRATCH/src"
build() { # NAME [PATCH]: the snapshot, PATCH applied, built into $SCRATCH/bin/NAME; then the patch is reverted
  local name=$1 patch=${2:-}
  if [ -n "$patch" ]; then
    (cd "$SCRATCH/src" && git apply --check "$patch" 2>/dev/null) \
      || { echo "ceiling-bench: $patch no longer applies to this tree; update it (see this script's header)" >&2; exit 1; }
    (cd "$SCRATCH/src" && git apply "$patch")
  fi
  echo "== building $name"
  (cd "$SCRATCH/src" && swift build -c release --product pushcheck --scratch-path "$SCRATCH/build" 2>&1 | tail -n 1)
  cp "$SCRATCH/build/release/pushcheck" "$SCRATCH/bin/$name"
  if [ -n "$patch" ]; then (cd "$SCRATCH/src" && git apply -R "$patch"); fi
}
build full
build rules-only "$HERE/ceiling/rules-only.patch"
build http-only "$HERE/ceiling/http-only.patch"

LINES="$SCRATCH/lines"
for r in $(seq 1 "$ROUNDS"); do
  for name in full rules-only http-only; do
    out=$(bash "$HERE/gateway-bench.sh" "$SCRATCH/bin/$name")
    ours=$(echo "$out" | sed -n 's/^pushcheck gateway: .* \([0-9.]*\) µs CPU\/request.*/\1/p')
    ref=$(echo "$out" | sed -n 's/^nghttpd (static): .* \([0-9.]*\) µs CPU\/request.*/\1/p')
    line=$(echo "$out" | grep '^gateway ratio')
    echo "round $r/$ROUNDS $name: ours $ours µs, nghttpd $ref µs per request; $line"
    printf '%s\t%s\t%s\t%s\n' "$name" "$ours" "$ref" "$line" >> "$LINES"
  done
done

python3 - "$LINES" "$ROUNDS" <<'PY'
import re, statistics, sys
cols = {}  # build -> {"cpu": [...], "rps": [...], "ours": [...], "ref": [...]} in round order
for row in open(sys.argv[1]):
    name, ours, ref, line = row.rstrip("\n").split("\t", 3)
    rps, cpu = re.search(r": ([\d.]+) .*?CPU per request: ([\d.]+)", line).groups()
    c = cols.setdefault(name, {"cpu": [], "rps": [], "ours": [], "ref": []})
    for key, value in (("cpu", cpu), ("rps", rps), ("ours", ours), ("ref", ref)):
        c[key].append(float(value))
med = {name: {key: statistics.median(v) for key, v in c.items()} for name, c in cols.items()}
print(f"== medians of {sys.argv[2]} interleaved rounds, 1 loop vs nghttpd's 1 thread (ratios in round order)")
for name in ("full", "rules-only", "http-only"):
    m = med[name]
    print(f"{name:10s} CPU per request ratio {m['cpu']:.3f} ({' / '.join(f'{x:.3f}' for x in cols[name]['cpu'])}), "
          f"req/s ratio {m['rps']:.3f}, ours {m['ours']:.1f} µs, nghttpd {m['ref']:.1f} µs")
ref = statistics.median([r for c in cols.values() for r in c["ref"]])
full, rules, http = (med[n]["ours"] for n in ("full", "rules-only", "http-only"))
print(f"0.8 × nghttpd is {ref / 0.8:.1f} µs per push: over http-only that leaves {ref / 0.8 - http:.1f} µs for the APNs "
      f"rules, log, history and delivery, which cost {full - http:.1f} µs ({rules - http:.1f} rules, "
      f"{full - rules:.1f} log, history and delivery)")
PY
