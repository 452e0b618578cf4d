#!/usr/bin/env python3
"""Each module's face: the declarations it shows other modules (`package`), and which of them no other module names.

pushcheck is one executable; its modules share declarations with `package` access (never `public`), and what a
module's neighbours do not use stays `internal`. This script measures that:

    python3 Tests/tools/module-faces.py              # table: module, package declarations, named elsewhere, not
    python3 Tests/tools/module-faces.py --unused     # also list each declaration no other module's code names
    python3 Tests/tools/module-faces.py --markdown   # the table as README's layout section shows it
    python3 Tests/tools/module-faces.py --internalize MODULE …    # drop `package` from what no other module names
    python3 Tests/tools/module-faces.py --restore BUILD_LOG       # put it back where the compiler says it is needed

`--internalize` then `swift build --build-tests 2>&1 | tee log` then `--restore log`, until the build is clean:
the compiler names each declaration that must stay visible (a protocol witness, a member another module reaches
through a type, a test importing without `@testable`), and `--restore` gives exactly those their `package` back.

A declaration is "named elsewhere" when its name occurs as an identifier in the code (not comments or strings) of
another module under Sources/. Tests do not count: they read internals through `@testable import`. The test is by
name, so it can only err one way: a declaration named elsewhere may still be unused there (a common name such as
`name` or `init`), but one that no other module names is certainly unused by them — unless it is a protocol
requirement's witness or a conformance, which must be as visible as the protocol (those are listed too; read them
before making them internal). Python 3 standard library only; the Swift lexer is public-to-package.py's.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
_spec = importlib.util.spec_from_file_location("public_to_package", os.path.join(HERE, "public-to-package.py"))
p2p = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(p2p)

# Words after which the declared name follows directly.
NAMED = {"func", "var", "let", "struct", "class", "enum", "protocol", "typealias", "actor", "case",
         "associatedtype"}
# Declarations whose name is the introducer itself.
UNNAMED = {"init", "subscript"}
MEMBERS = {"func", "var", "let", "init", "subscript"}


def modules(root: str) -> dict[str, list[str]]:
    """Swift modules under Sources/ (C system-library targets hold no Swift files) and their files."""
    out: dict[str, list[str]] = {}
    for name in sorted(os.listdir(root)):
        files = p2p.swift_files([os.path.join(root, name)]) if os.path.isdir(os.path.join(root, name)) else []
        if files:
            out[name] = files
    return out


def declarations(path: str) -> tuple[list[tuple[int, str, str]], set[str]]:
    """(line, name, introducer) of each `package` declaration in the file, and every identifier its code uses."""
    with open(path, encoding="utf-8") as f:
        text = f.read()
    identifiers = p2p.Lexer(text).run()
    found: list[tuple[int, str, str]] = []
    for index, (offset, word) in enumerate(identifiers):
        if word != "package" or p2p.previous_char(text, offset) == ".":
            continue
        following = p2p.next_token(text, offset + len(word))
        if following not in p2p.DECLARATION_WORDS and following not in ("@", "("):
            continue  # `package` used as a name
        # The first introducer after the modifiers, then the name after it.
        for k in range(index + 1, min(index + 12, len(identifiers))):
            w = identifiers[k][1]
            if w == "extension" or w == "import":
                break
            if w in UNNAMED:
                found.append((p2p.line_col(text, offset)[0], w, w))
                break
            if w in NAMED and k + 1 < len(identifiers):
                found.append((p2p.line_col(text, offset)[0], identifiers[k + 1][1], w))
                break
    return found, {w for _, w in identifiers}


def internalize(mods: dict[str, list[str]], chosen: list[str], decls) -> int:
    """Removes the `package` modifier of every declaration in `chosen` modules that no other module names."""
    count = 0
    for mod in chosen:
        by_file: dict[str, set[int]] = {}
        for path, line, _, _ in decls[mod]:
            by_file.setdefault(path, set()).add(line)
        for path, lines in by_file.items():
            with open(path, encoding="utf-8") as f:
                text = f.read()
            out, last = [], 0
            for offset, word in p2p.Lexer(text).run():
                if word == "package" and p2p.line_col(text, offset)[0] in lines \
                        and p2p.previous_char(text, offset) != "." \
                        and p2p.next_token(text, offset + len(word)) in p2p.DECLARATION_WORDS | {"@"}:
                    end = offset + len(word)
                    while end < len(text) and text[end] == " ":
                        end += 1
                    out.append(text[last:offset])
                    last = end
                    count += 1
            out.append(text[last:])
            with open(path, "w", encoding="utf-8") as f:
                f.write("".join(out))
    return count


# `path:line:col: note: 'x' declared here` and the errors a declaration itself gets when it must be visible.
NOTE = re.compile(r"^(/[^:]+\.swift):(\d+):\d+: note: .*declared here")
MUST = re.compile(r"^(/[^:]+\.swift):(\d+):\d+: error: .*(must be declared (package|public)|must be as accessible|"
                  r"cannot be declared package|uses an internal type|is internal and cannot|"
                  r"must be declared (fileprivate|internal) because)")


def restore(log_path: str, root: str) -> int:
    """Gives back `package` to each declaration a build log names (see MUST and NOTE)."""
    targets: dict[str, set[int]] = {}
    with open(log_path, encoding="utf-8", errors="replace") as f:
        for row in f:
            m = NOTE.match(row) or MUST.match(row)
            if m and os.path.abspath(root) in m.group(1):
                targets.setdefault(m.group(1), set()).add(int(m.group(2)))
    count = 0
    for path, lines in targets.items():
        with open(path, encoding="utf-8") as f:
            rows = f.read().split("\n")
        for line in sorted(lines):
            text = rows[line - 1]
            if re.search(r"\bpackage\b", text):
                continue
            m = re.match(r"^(\s*(?:@\w+(?:\([^)]*\))?\s+)*)(.*)$", text)
            rows[line - 1] = m.group(1) + "package " + m.group(2)
            count += 1
        with open(path, "w", encoding="utf-8") as f:
            f.write("\n".join(rows))
    return count


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--root", default="Sources")
    parser.add_argument("--unused", action="store_true", help="list declarations no other module names")
    parser.add_argument("--markdown", action="store_true", help="print the table as Markdown")
    parser.add_argument("--internalize", nargs="+", metavar="MODULE", help="make what no other module names internal")
    parser.add_argument("--restore", metavar="BUILD_LOG", help="give back package where the build log needs it")
    args = parser.parse_args()
    if args.restore:
        print(f"restored {restore(args.restore, args.root)} declarations")
        return 0

    mods = modules(args.root)
    decls: dict[str, list[tuple[str, int, str]]] = {}
    words: dict[str, set[str]] = {}
    for mod, files in mods.items():
        decls[mod], words[mod] = [], set()
        for path in files:
            found, used = declarations(path)
            decls[mod] += [(path, line, name, kind) for line, name, kind in found]
            words[mod] |= used

    if args.internalize:
        unknown = [m for m in args.internalize if m not in mods]
        if unknown:
            print(f"unknown module(s): {', '.join(unknown)}", file=sys.stderr)
            return 2
        elsewhere_of = {mod: set().union(*(words[m] for m in mods if m != mod)) for mod in args.internalize}
        # Members only: a type no other module names is usually in the signature of a member that stays package
        # (the compiler would refuse the member), so types are left for a reader.
        chosen = {mod: [d for d in decls[mod] if d[2] not in elsewhere_of[mod] and d[3] in MEMBERS]
                  for mod in args.internalize}
        print(f"made {internalize(mods, args.internalize, chosen)} declarations internal")
        return 0

    rows = []
    for mod in mods:
        elsewhere = set().union(*(words[m] for m in mods if m != mod))
        unused = [d for d in decls[mod] if d[2] not in elsewhere]
        rows.append((mod, len(decls[mod]), len(decls[mod]) - len(unused), unused))

    if args.markdown:
        print("| module | `package` declarations | named by another module |")
        print("|---|---:|---:|")
        for mod, total, named, _ in rows:
            print(f"| `{mod}` | {total} | {named} |")
    else:
        print(f"{'module':<20} {'package':>8} {'named elsewhere':>16} {'not named':>10}")
        for mod, total, named, unused in rows:
            print(f"{mod:<20} {total:>8} {named:>16} {len(unused):>10}")
        print(f"{'total':<20} {sum(r[1] for r in rows):>8} {sum(r[2] for r in rows):>16} "
              f"{sum(len(r[3]) for r in rows):>10}")
    if args.unused:
        for mod, _, _, unused in rows:
            for path, line, name, _ in unused:
                print(f"{path}:{line}: {mod}.{name} is package, but no other module names it")
    return 0


if __name__ == "__main__":
    sys.exit(main())
