#!/usr/bin/env python3
"""Sums `perf script` call stacks into the tables `make bench-map` prints (Tests/bench/map-bench.sh).

Input: `perf script -F comm,tid,ip,sym,dso` of a `perf record --call-graph dwarf` run, demangled by
`swift demangle --simplified` (one sample per block: a header line, then one frame per line, leaf first; a frame
the compiler inlined reads `(inlined)` where the others name their object file).

Two modes:
- `time` (samples of CPU time): each library's share of the samples; then, for each `--root` (a substring of a
  frame's name), the root's share and how it splits over its direct callees. A callee is the first frame below
  the outermost frame of the root that is not the root itself (a function inlined into itself, or a specialized
  copy calling the generic one, shows as the same name twice); samples in the root's own code count as "(self)".
  With `--per-unit-us` every share is also given in microseconds per request.
- `calls` (one sample per call of a probed function, e.g. a uprobe on malloc): calls per request (`--requests`)
  by who made them: the first frame, from the leaf up, outside the allocator, the C library, the Swift runtime and
  the dynamic loader, named by its function when it is in the main binary (`--main`) and by its library otherwise.
"""

import argparse
import collections
import os
import re
import sys

FRAME = re.compile(r"^\s+[0-9a-f]+ (?P<sym>.*?) \((?P<dso>[^()]*|inlined)\)$")
# Object files whose frames `calls` mode looks through to find who asked.
PLUMBING = ("libjemalloc", "libc.so", "libswiftCore", "ld-linux", "libstdc++", "[unknown]")
# The standard library's generic code the compiler specialized into the main binary: looked through as well.
STDLIB = re.compile(
    r"^(?:(?:specialized|static|protocol witness for|closure #\d+ in|merged|outlined \w+ of) )*"
    r"(?:_?ContiguousArray|_ContiguousArrayBuffer|Array|_?ArrayBuffer|String|Substring|_StringGuts|Sequence|"
    r"Collection|RangeReplaceableCollection|_NativeDictionary|Dictionary|_NativeSet|Set|Optional|"
    r"_copyCollectionToContiguousArray|_copySequenceToContiguousArray|Unsafe\w*Pointer)\b"
)


def parse(lines):
    """Samples as lists of (name, object file), leaf first. An inlined frame takes the object file of the frame
    it was inlined into (the next one up that names one)."""
    samples, frames = [], None
    for line in lines:
        line = line.rstrip("\n")
        if not line.strip():
            if frames:
                samples.append(frames)
            frames = None
            continue
        if not line[0].isspace():
            if frames:
                samples.append(frames)
            frames = []
            continue
        m = FRAME.match(line)
        if m is None or frames is None:
            continue
        frames.append([m.group("sym"), None if m.group("dso") == "inlined" else m.group("dso")])
    if frames:
        samples.append(frames)
    for frames in samples:
        dso = None
        for frame in reversed(frames):
            if frame[1] is None:
                frame[1] = dso or "?"
            dso = frame[1]
    return [[(name, dso) for name, dso in frames] for frames in samples]


# The outermost frame of a stack perf unwound completely: a thread's start, or the program's.
STACK_BASES = ("clone3", "clone", "start_thread", "_start", "__libc_start_main", "__libc_start_call_main")


def cut_short(samples):
    """Samples whose stack does not reach a thread's start: perf could not unwind it all (too little of the stack
    copied, `--call-graph dwarf,SIZE`, or no unwind information where it stopped), so frames near the base, a
    handler's among them, are missing from them."""
    return sum(1 for frames in samples if frames and frames[-1][0] not in STACK_BASES)


def library(dso):
    base = os.path.basename(dso)
    return re.sub(r"\.so(\.[0-9.]+)?$", "", base) if base else dso


def by_library(samples):
    counts = collections.Counter(library(frames[0][1]) for frames in samples if frames)
    return counts.most_common()


def callees(samples, root):
    """(the root's full name, samples under it, Counter of direct callee -> samples) for the outermost frame whose
    name contains `root`."""
    under, split, names = 0, collections.Counter(), collections.Counter()
    for frames in samples:
        outer = next((i for i in range(len(frames) - 1, -1, -1) if root in frames[i][0]), None)
        if outer is None:
            continue
        under += 1
        name = frames[outer][0]
        names[name] += 1
        callee = next((frames[i][0] for i in range(outer - 1, -1, -1) if frames[i][0] != name), "(self)")
        split[callee] += 1
    return (names.most_common(1)[0][0] if names else root), under, split


def callers(samples, main, depth=2, exclude=None):
    """(Counter of who made each call, calls left out): the first frame, leaf up, outside the plumbing libraries
    and the standard library's code specialized into the main binary, with the `depth - 1` frames of the main
    binary above it (its callers), or the library it is in. A call with a frame containing `exclude` in its stack
    is only counted as left out."""
    split, left_out = collections.Counter(), 0
    for frames in samples:
        if exclude and any(exclude in name for name, _ in frames):
            left_out += 1
            continue
        chain = []
        for name, dso in frames:
            if not chain:
                if any(p in dso for p in PLUMBING) or main in dso and STDLIB.match(name):
                    continue
                if main not in dso:
                    chain.append(library(dso))
                    break
            elif main not in dso or len(chain) == depth:
                break
            if not chain or chain[-1] != name:
                chain.append(name)
        split[" < ".join(chain) or "?"] += 1
    return split, left_out


def share(n, total, per_unit_us):
    text = f"{100 * n / total:5.1f} %"
    return text + (f"  {n / total * per_unit_us:5.2f} µs" if per_unit_us else "")


def short(name, width=110):
    return name if len(name) <= width else name[: width - 1] + "…"


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("mode", choices=["time", "calls"])
    p.add_argument("file", nargs="?", default="-")
    p.add_argument("--root", action="append", default=[], help="time: a frame name (substring) to split")
    p.add_argument("--top", type=int, default=12, help="rows per table")
    p.add_argument("--per-unit-us", type=float, help="time: CPU µs per request, to turn shares into µs")
    p.add_argument("--requests", type=int, help="calls: requests sent while recording")
    p.add_argument("--main", default="pushcheck", help="calls: the main binary's file name")
    p.add_argument("--calls", type=int, help="calls: the exact number of calls (the samples give shares of it)")
    p.add_argument("--depth", type=int, default=2, help="calls: frames of the main binary per caller")
    p.add_argument("--exclude", help="calls: leave out calls with this frame (substring) in their stack")
    args = p.parse_args(argv)
    lines = sys.stdin if args.file == "-" else open(args.file, errors="replace")
    samples = parse(lines)
    total = len(samples)
    if total == 0:
        print("no samples")
        return 1
    if args.mode == "time":
        print(f"by library ({total} samples):")
        for lib, n in by_library(samples)[: args.top]:
            print(f"  {share(n, total, args.per_unit_us)}  {lib}")
        short_stacks = cut_short(samples)
        if short_stacks:
            print(f"({100 * short_stacks / total:.1f} % of the stacks stop short of their thread's start: the shares")
            print(" below count only the samples whose stack reaches the root, so read them as lower bounds)")
        for root in args.root:
            name, under, split = callees(samples, root)
            print(f"{short(name)}: {share(under, total, args.per_unit_us)} inclusive, by direct callee:")
            for name, n in split.most_common(args.top):
                print(f"  {share(n, total, args.per_unit_us)}  {short(name)}")
    else:
        requests = args.requests or 1
        split, left_out = callers(samples, args.main, args.depth, args.exclude)
        # Recorded calls stand for the exact count in proportion (perf may drop some under load).
        scale = (args.calls or total) / total
        counted = (total - left_out) * scale
        note = f"{total} of {args.calls} calls recorded" if args.calls else f"{total} calls recorded"
        print(f"{counted / requests:.2f} calls per request ({note}, {requests} requests), by caller:")
        for name, n in split.most_common(args.top):
            print(f"  {n * scale / requests:5.2f}  {short(name, 150)}")
        if left_out:
            print(f"  (left out: {left_out * scale / requests:.2f} per request, calls under {args.exclude}…)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
