#!/usr/bin/env python3
"""Compare two JUnit reports of `pushcheck run` for what a change did, ignoring what differs run to run.

    python3 Tests/tools/junit-normalise.py a.xml b.xml            # prints "identical", or a unified diff (exit 1)
    python3 Tests/tools/junit-normalise.py --print a.xml          # prints a.xml normalised (to diff by other means)

For a refactoring that must not change behaviour: run both builds with the same `--seed` and compare. The
scenario order within a suite file, the transcripts, the checks and their failure texts stay as they are; only
these are replaced before comparing, because two runs of one binary differ in them:

- `time="…"` (durations), `timestamp="…"`, `hostname="…"` attributes;
- loopback ports (`127.0.0.1:43117`, `localhost:…`, `[::1]:…`) and the shared server's world prefix `/w/<n>`
  (worlds are numbered in the order they mount, which parallel scenarios change);
- UUIDs (apns-ids and unique ids a gateway makes up), JWTs (provider tokens and OAuth assertions signed with
  fresh keys and the wall clock), broadcast channel ids the APNs gateway generates (16 bytes from a channel seed
  that is random per gateway: base64, 22 characters and `==`), and the names of temporary directories
  (`/tmp/pushcheck-fixture-<pid>-<hex>`);
- the checkout's absolute path in front of `Suites/`, `Tests/`, `Sources/` (a worktree's against main's);
- epoch times in seconds or milliseconds of the last ten years and ISO 8601 times, wherever a world runs on the
  wall clock (`clock: now`, the default): `iat`, 410 `timestamp`s, FCM message names.

Python 3 standard library only.
"""

import difflib
import re
import sys
import time

_NOW = time.time()
_TEN_YEARS = 10 * 365 * 86400

RULES = [
    (re.compile(r'\b(time|timestamp|hostname)="[^"]*"'), r'\1="…"'),
    (re.compile(r"(127\.0\.0\.1|localhost|\[::1\]):[0-9]+"), r"\1:<port>"),
    (re.compile(r"/w/[0-9]+\b"), "/w/<id>"),
    (re.compile(r"\b[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}\b"), "<uuid>"),
    (re.compile(r"(?<![A-Za-z0-9+/=])[A-Za-z0-9+/]{22}==(?![A-Za-z0-9+/=])"), "<channel-id>"),
    (re.compile(r"\beyJ[A-Za-z0-9_-]*\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*"), "<jwt>"),
    (re.compile(r"(/tmp/|/var/tmp/)[A-Za-z]+(?:-[A-Za-z]+)*(?:[-_.][0-9A-Za-z]*[0-9][0-9A-Za-z]*)+"), r"\1<tmp>"),
    (re.compile(r"(?<![\w.~])/[^\s\"'<>:]*?/(Suites|Tests|Sources)/"), r"<repo>/\1/"),
    (re.compile(r"\b\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:?\d{2})?"), "<iso-time>"),
]

_EPOCH = re.compile(r"(?<![0-9A-Za-z.])(\d{10}|\d{13}|\d{16})(?![0-9A-Za-z])")


def _epoch(match: re.Match) -> str:
    digits = match.group(1)
    seconds = int(digits) / {10: 1, 13: 1e3, 16: 1e6}[len(digits)]
    return "<epoch>" if abs(seconds - _NOW) < _TEN_YEARS else digits


def normalise(text: str) -> str:
    for pattern, replacement in RULES:
        text = pattern.sub(replacement, text)
    return _EPOCH.sub(_epoch, text)


def read(path: str) -> str:
    with open(path, encoding="utf-8", errors="replace") as f:
        return normalise(f.read())


def main(argv: list) -> int:
    if len(argv) == 2 and argv[0] == "--print":
        sys.stdout.write(read(argv[1]))
        return 0
    if len(argv) != 2:
        sys.stderr.write(__doc__)
        return 2
    a, b = (read(p).splitlines(keepends=True) for p in argv)
    if a == b:
        print("identical")
        return 0
    sys.stdout.writelines(difflib.unified_diff(a, b, fromfile=argv[0], tofile=argv[1]))
    return 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
