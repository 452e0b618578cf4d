#!/usr/bin/env bash
# Where the gateway's cost per push goes, measured rather than read off a profile: four release builds of one
# source snapshot (the working tree, uncommitted changes included), each against nghttpd's 1 thread at 1 loop:
#   full        the tree as it is;
#   log-only    Tests/bench/ceiling/log-only.patch: every APNs rule runs and every push is logged, but an accepted push
#               is not recorded in the delivery history or handed to the device;
#   rules-only  Tests/bench/ceiling/rules-only.patch: every APNs rule runs and the answer is the same, but nothing is
#               logged, recorded in the delivery history or handed to the device;
#   http-only   Tests/bench/ceiling/http-only.patch: no APNs rule runs; every request gets an accepted push's answer
#               (200, a fresh apns-id and apns-unique-id). TLS, nghttp2 and our HTTP/2 layer remain.
# The patched builds are experiments, never shipped: http-only accepts what APNs refuses. The gap between rows is
# what that layer costs; http-only is the ceiling any APNs logic is measured under.
# The four builds and nghttpd are measured side by side (side-bench.sh: all five servers up at once, warm, each
# getting SIDE_N pushes in turn in every round, CPU per push from each thread's schedstat), so a build's value
# repeats to about 1 % between rounds; stop 35's version ran gateway-bench.sh on each in turn (±15 % a round).
# Usage: Tests/bench/ceiling-bench.sh [ROUNDS=8]   (`make bench-ceiling`). Env: SIDE_N (default 30000),
# CEILING_DIR (default $TMPDIR/pushcheck-ceiling: the snapshot and its build products are kept there, so a second run
# builds incrementally, seconds a build, where the first takes a full release build; outside the repository, where
# `git apply` would take the patch's paths as the repository's own and skip them).
set -euo pipefail
ROUNDS=${1:-8}
HERE=$(cd "$(dirname "$0")" && pwd)
REPO=$(cd "$HERE/../.." && pwd)
DIR=${CEILING_DIR:-${TMPDIR:-/tmp}/pushcheck-ceiling}
mkdir -p "$DIR/src" "$DIR/bin"

# The snapshot: tracked and untracked-but-not-ignored files of the working tree, synced into $DIR/src. A file is
# rewritten only when its bytes differ, and one gone from the tree is removed, so the build stays incremental.
(cd "$REPO" && git ls-files -co --exclude-standard -z) | python3 -c '
import os, shutil, sys
repo, dst = sys.argv[1], sys.argv[2]
files = [f for f in sys.stdin.read().split("\0") if f and os.path.isfile(os.path.join(repo, f))]
wanted = set(files)
for f in files:
    s, d = os.path.join(repo, f), os.path.join(dst, f)
    if os.path.isfile(d) and open(s, "rb").read() == open(d, "rb").read():
        continue
    os.makedirs(os.path.dirname(d), exist_ok=True)
    shutil.copy2(s, d)
for root, dirs, names in os.walk(dst):
    for n in names:
        rel = os.path.relpath(os.path.join(root, n), dst)
        if rel not in wanted:
            os.remove(os.path.join(root, n))
' "$REPO" "$DIR/src"
build() { # NAME [PATCH]: the snapshot, PATCH applied, built into $DIR/bin/NAME; then the patch is reverted
  local name=$1 patch=${2:-}
  if [ -n "$patch" ]; then
    (cd "$DIR/src" && git apply --check "$patch" 2>/dev/null) \
      || { echo "ceiling-bench: $patch no longer applies to this tree; update it (see this script's header)" >&2; exit 1; }
    (cd "$DIR/src" && git apply "$patch")
    grep -rqs "Ceiling experiment" "$DIR/src/Sources" || { echo "ceiling-bench: $patch was not applied" >&2; exit 1; }
  fi
  echo "== building $name"
  local status=0
  (cd "$DIR/src" && swift build -c release --product pushcheck --scratch-path "$DIR/build" 2>&1 | tail -n 1) || status=$?
  if [ -n "$patch" ]; then (cd "$DIR/src" && git apply -R "$patch"); fi
  [ "$status" = 0 ] || exit "$status"
  cp "$DIR/build/release/pushcheck" "$DIR/bin/$name"
}
build full
build log-only "$HERE/ceiling/log-only.patch"
build rules-only "$HERE/ceiling/rules-only.patch"
build http-only "$HERE/ceiling/http-only.patch"

OUT=$(mktemp /tmp/pushcheck-ceiling.XXXXXX)
trap 'rm -f "$OUT"' EXIT
SIDE_ROUNDS=$ROUNDS bash "$HERE/side-bench.sh" "$DIR/bin/full" "$DIR/bin/log-only" "$DIR/bin/rules-only" "$DIR/bin/http-only" | tee "$OUT"

python3 - "$OUT" <<'PY'
import re, sys
cpu, ratio = {}, {}
for line in open(sys.argv[1]):
    m = re.match(r"(?:\d+:.*/)?(full|log-only|rules-only|http-only|nghttpd): ([\d.]+) µs CPU per request", line)
    if m:
        cpu[m.group(1)] = float(m.group(2))
        r = re.search(r"nghttpd / this, per round: median ([\d.]+)", line)
        if r:
            ratio[m.group(1)] = float(r.group(1))
print("== medians, 1 loop vs nghttpd's 1 thread, by CPU per push (nghttpd / build)")
for name in ("full", "log-only", "rules-only", "http-only"):
    print(f"{name:10s} {cpu[name]:.2f} µs a push, ratio {ratio[name]:.3f}")
ref, full, log, rules, http = cpu["nghttpd"], cpu["full"], cpu["log-only"], cpu["rules-only"], cpu["http-only"]
print(f"0.8 × nghttpd is {ref / 0.8:.2f} µs a push: over http-only that leaves {ref / 0.8 - http:.2f} µs for the APNs "
      f"rules, log, history and delivery, which cost {full - http:.2f} µs ({rules - http:.2f} rules, "
      f"{log - rules:.2f} log, {full - log:.2f} history and delivery)")
PY
