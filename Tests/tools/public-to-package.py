#!/usr/bin/env python3
"""Rewrite the `public` access modifier to `package` in Swift sources (issue 7).

pushcheck ships one executable product; no module is a library product, so nothing is user-facing API and
what modules share with each other is `package` (SE-0386), not `public`.

    python3 Tests/tools/public-to-package.py            # rewrite Sources/ and Tests/PushcheckTestSupport/
    python3 Tests/tools/public-to-package.py --check    # only list what would change; exit 1 if anything would
    python3 Tests/tools/public-to-package.py DIR|FILE …  # other roots

Deterministic and idempotent: the output depends only on the input text, and a second run changes nothing.
Python 3 standard library only.

How it decides. Each file is lexed as Swift far enough to know what is code: `//` and nested `/* */` comments,
string literals ("…", multi-line \"\"\"…\"\"\", raw #"…"# with any number of #, and the code inside
`\\(…)` / `\\#(…)` interpolations, recursively), `#/…/#` regex literals and `backticked` identifiers are
skipped. A `public` word in code is rewritten only where it is the access modifier: not after `.` (member
access such as `.public`), and followed by a declaration keyword, another modifier, an attribute or `(`
(`public(set)`). So `public init`, `public static`, `public private(set) var` (→ `package private(set)`),
`@inlinable public func`, `@discardableResult public func`, `public extension`, `public protocol`,
witnesses of protocol conformances, `public import` all become `package …`. Anything else named `public` in
code stops the run with file:line:col and nothing is written, so a new construct is looked at, not guessed.

What it keeps:
- `open` (a class or member subclassable/overridable from other modules) is listed and left alone: `package`
  has no subclassable-outside-the-module form, so a cross-module subclass needs a design change, not a word.
- `@frozen` stays: Swift 6.3 accepts it on `package` types (checked with swiftc 6.3.1, with and without
  -enable-library-evolution), and without library evolution it changes nothing.
- `@usableFromInline` is only allowed on internal or package declarations, so there is no
  `@usableFromInline public` to convert.

What it cannot see (needs the type checker): an `@inlinable` body may reference only public or
`@usableFromInline` declarations. A `public` declaration that an `@inlinable` body uses becomes `package` and
the compiler then says "'X' is package and cannot be referenced from an '@inlinable' function", with a note
at X ("is not '@usableFromInline' or public"). `--usable-from-inline BUILD_LOG` reads those notes from a
build log and puts `@usableFromInline` in front of each named declaration; build again until none are left.
"""

from __future__ import annotations

import argparse
import os
import re
import sys

DEFAULT_ROOTS = ["Sources", "Tests/PushcheckTestSupport"]

# What may follow the access modifier `public` in a declaration.
DECLARATION_WORDS = {
    # introducers
    "func", "var", "let", "init", "deinit", "subscript", "struct", "class", "enum", "protocol", "extension",
    "typealias", "actor", "associatedtype", "import", "macro", "operator", "precedencegroup",
    # modifiers
    "static", "final", "convenience", "required", "override", "mutating", "nonmutating", "nonisolated",
    "indirect", "lazy", "weak", "unowned", "dynamic", "private", "fileprivate", "internal", "package",
    "distributed", "consuming", "borrowing", "prefix", "postfix", "infix", "optional", "isolated",
    "__consuming", "_const",
}
MODIFIERS_BEFORE = DECLARATION_WORDS | {"open", "public"}
INTRODUCERS = {"func", "var", "let", "init", "subscript", "struct", "class", "enum", "protocol", "typealias", "actor"}

IDENT_START = re.compile(r"[A-Za-z_]")
IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


class LexError(Exception):
    pass


def line_col(text: str, offset: int) -> tuple[int, int]:
    line = text.count("\n", 0, offset) + 1
    col = offset - (text.rfind("\n", 0, offset) + 1) + 1
    return line, col


class Lexer:
    """Finds the code identifiers of a Swift file, skipping comments, strings and regex literals."""

    def __init__(self, text: str):
        self.text = text
        self.n = len(text)
        # (offset, word) of every identifier in code, in order
        self.identifiers: list[tuple[int, str]] = []

    def run(self) -> list[tuple[int, str]]:
        end = self.code(0, interpolation=False)
        if end != self.n:
            raise LexError(f"unbalanced ')' at offset {end}")
        return self.identifiers

    # Code: until end of text, or (inside an interpolation) the `)` that closes it. Returns the offset after it.
    def code(self, i: int, interpolation: bool) -> int:
        t, n = self.text, self.n
        depth = 0
        while i < n:
            c = t[i]
            if c == "/" and t.startswith("//", i):
                j = t.find("\n", i)
                i = n if j < 0 else j
            elif c == "/" and t.startswith("/*", i):
                i = self.block_comment(i)
            elif c == '"' or (c == "#" and re.match(r"#+\"", t[i:i + 64])):
                i = self.string(i)
            elif c == "#" and re.match(r"#+/", t[i:i + 64]):
                i = self.extended_regex(i)
            elif c == "`":
                j = t.find("`", i + 1)
                if j < 0:
                    raise LexError(f"unterminated backtick at {line_col(t, i)}")
                i = j + 1
            elif IDENT_START.match(c):
                m = IDENT.match(t, i)
                self.identifiers.append((i, m.group()))
                i = m.end()
            elif c.isdigit():
                m = re.compile(r"[0-9][0-9A-Za-z_.]*").match(t, i)
                # keep `1.0` but not `x.0.public`: a number never ends in an identifier we care about
                i = m.end()
            elif c == "(":
                depth += 1
                i += 1
            elif c == ")":
                if interpolation and depth == 0:
                    return i + 1
                depth -= 1
                i += 1
            else:
                i += 1
        if interpolation:
            raise LexError("unterminated string interpolation")
        return i

    def block_comment(self, i: int) -> int:
        t = self.text
        depth = 0
        while i < self.n:
            if t.startswith("/*", i):
                depth += 1
                i += 2
            elif t.startswith("*/", i):
                depth -= 1
                i += 2
                if depth == 0:
                    return i
            else:
                i += 1
        raise LexError(f"unterminated /* comment at {line_col(t, i)}")

    def extended_regex(self, i: int) -> int:
        t = self.text
        hashes = len(re.match(r"#+", t[i:]).group())
        close = "/" + "#" * hashes
        j = t.find(close, i + hashes + 1)
        if j < 0:
            raise LexError(f"unterminated regex literal at {line_col(t, i)}")
        return j + len(close)

    def string(self, start: int) -> int:
        t = self.text
        i = start
        hashes = 0
        while t[i] == "#":
            hashes += 1
            i += 1
        multiline = t.startswith('"""', i)
        i += 3 if multiline else 1
        close = ('"""' if multiline else '"') + "#" * hashes
        escape = "\\" + "#" * hashes
        while i < self.n:
            if t.startswith(escape, i):
                k = i + len(escape)
                if k < self.n and t[k] == "(":
                    i = self.code(k + 1, interpolation=True)
                else:
                    i = k + 1  # the escaped character (\", \\, \n, \u{…} is harmless)
            elif t.startswith(close, i):
                return i + len(close)
            elif t[i] == "\n" and not multiline:
                raise LexError(f"unterminated string literal at {line_col(t, start)}")
            else:
                i += 1
        raise LexError(f"unterminated string literal at {line_col(t, start)}")


def next_token(text: str, i: int) -> str:
    """The next token after offset i, skipping whitespace and comments: a word, '@', '(' or another character."""
    n = len(text)
    while i < n:
        if text[i].isspace():
            i += 1
        elif text.startswith("//", i):
            j = text.find("\n", i)
            i = n if j < 0 else j
        elif text.startswith("/*", i):
            j = text.find("*/", i)
            i = n if j < 0 else j + 2
        else:
            m = IDENT.match(text, i)
            return m.group() if m else text[i]
    return ""


def previous_char(text: str, i: int) -> str:
    j = i - 1
    while j >= 0 and text[j] in " \t":
        j -= 1
    return text[j] if j >= 0 else ""


class Finding:
    def __init__(self, path: str, text: str, offset: int, message: str):
        self.line, self.col = line_col(text, offset)
        self.path, self.message = path, message

    def __str__(self) -> str:
        return f"{self.path}:{self.line}:{self.col}: {self.message}"


def convert(path: str, text: str) -> tuple[str, int, list[Finding], list[Finding]]:
    """Returns (new text, number of rewrites, errors, notes)."""
    errors: list[Finding] = []
    notes: list[Finding] = []
    try:
        identifiers = Lexer(text).run()
    except LexError as e:
        return text, 0, [Finding(path, text, 0, f"cannot lex: {e}")], notes
    rewrites: list[int] = []
    for offset, word in identifiers:
        if word not in ("public", "open"):
            continue
        if previous_char(text, offset) == ".":
            continue  # member access: `.public`, `x.open`
        following = next_token(text, offset + len(word))
        is_modifier = following in DECLARATION_WORDS or following in ("@", "(") or following == "public"
        if word == "open":
            if is_modifier and following not in ("(",):
                notes.append(Finding(path, text, offset, "`open` kept: `package` cannot be subclassed or "
                                     "overridden outside its module; change it by hand if no other module does"))
            continue
        if not is_modifier:
            errors.append(Finding(path, text, offset, f"`public` followed by `{following}` is not an access "
                                  "modifier this script knows; rewrite it by hand or teach DECLARATION_WORDS"))
            continue
        rewrites.append(offset)
    if errors:
        return text, 0, errors, notes
    out = []
    last = 0
    for offset in rewrites:
        out.append(text[last:offset])
        out.append("package")
        last = offset + len("public")
    out.append(text[last:])
    return "".join(out), len(rewrites), errors, notes


def swift_files(roots: list[str]) -> list[str]:
    files = []
    for root in roots:
        if os.path.isfile(root):
            files.append(root)
            continue
        if not os.path.isdir(root):
            sys.exit(f"public-to-package: no such file or directory: {root}")
        for directory, subdirectories, names in os.walk(root):
            subdirectories.sort()
            subdirectories[:] = [d for d in subdirectories if not d.startswith(".")]
            files.extend(os.path.join(directory, name) for name in sorted(names) if name.endswith(".swift"))
    return files


NOTE = re.compile(r"^(?P<path>/?[^:\n]+\.swift):(?P<line>\d+):(?P<col>\d+): note: .*'(?P<name>[^']+)' "
                  r"is not '@usableFromInline' or public$")


def add_usable_from_inline(log_path: str) -> int:
    """Puts `@usableFromInline` in front of every declaration a build log's notes name. Returns the count.

    The note's line and declared name locate the declaration (the name, not the column, so a log read twice
    does not insert twice); the modifiers and introducer before the name on that line are part of it.
    """
    targets: dict[str, set[tuple[int, str, int]]] = {}
    with open(log_path, encoding="utf-8", errors="replace") as log:
        for line in log:
            m = NOTE.match(line.rstrip("\n"))
            if m:
                name = m.group("name").split("(")[0]
                targets.setdefault(m.group("path"), set()).add((int(m.group("line")), name, int(m.group("col"))))
    count = 0
    for path in sorted(targets):
        with open(path, encoding="utf-8") as f:
            lines = f.read().split("\n")
        # right to left within a line, so earlier insertions do not move later positions
        for number, name, col in sorted(targets[path], key=lambda t: (t[0], -t[2])):
            line = lines[number - 1]
            found = re.search(r"\b" + re.escape(name) + r"\b", line)
            start = found.start() if found else col - 1
            while True:
                m = re.search(r"(\b[A-Za-z_]+)(\([a-z]+\))?\s*$", line[:start])
                if not m or m.group(1) not in MODIFIERS_BEFORE | INTRODUCERS:
                    break
                start = m.start()
            if re.search(r"@(usableFromInline|inlinable)\s*$", line[:start]):
                continue
            lines[number - 1] = line[:start] + "@usableFromInline " + line[start:]
            count += 1
            print(f"{path}:{number}: added @usableFromInline")
        with open(path, "w", encoding="utf-8") as f:
            f.write("\n".join(lines))
    return count


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("roots", nargs="*", default=None, help=f"files or directories (default: {' '.join(DEFAULT_ROOTS)})")
    parser.add_argument("--check", action="store_true", help="write nothing; exit 1 if a file would change")
    parser.add_argument("--usable-from-inline", metavar="BUILD_LOG",
                        help="add @usableFromInline where a build log says an @inlinable body needs it")
    args = parser.parse_args()
    if args.usable_from_inline:
        count = add_usable_from_inline(args.usable_from_inline)
        print(f"public-to-package: {count} declaration(s) marked @usableFromInline")
        return 0
    roots = args.roots
    if not roots:
        os.chdir(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))  # the repo root
        roots = DEFAULT_ROOTS
    total, changed, all_errors = 0, [], []
    for path in swift_files(roots):
        with open(path, encoding="utf-8") as f:
            text = f.read()
        new, count, errors, notes = convert(path, text)
        for note in notes:
            print(f"{note} (note)", file=sys.stderr)
        all_errors.extend(errors)
        if count:
            total += count
            changed.append((path, new, count))
    if all_errors:
        for error in all_errors:
            print(f"{error} (error)", file=sys.stderr)
        print(f"public-to-package: {len(all_errors)} error(s); nothing written", file=sys.stderr)
        return 2
    if args.check:
        for path, _, count in changed:
            print(f"{path}: {count} `public` would become `package`")
        print(f"public-to-package: {total} in {len(changed)} file(s) would change")
        return 1 if changed else 0
    for path, new, _ in changed:
        with open(path, "w", encoding="utf-8") as f:
            f.write(new)
    print(f"public-to-package: {total} `public` → `package` in {len(changed)} file(s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
