"""Tests for Tests/tools/public-to-package.py, the `public` → `package` converter (issue 7).

The converter is re-run on the merged tree at the end, so what it must leave alone (comments, strings,
interpolations, raw strings, member names) matters as much as what it rewrites.
"""
import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parents[1] / "tools" / "public-to-package.py"
_spec = importlib.util.spec_from_file_location("public_to_package", SCRIPT)
converter = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(converter)


def convert(text: str) -> str:
    new, _, errors, _ = converter.convert("t.swift", text)
    assert not errors, [str(e) for e in errors]
    return new


@pytest.mark.parametrize("before, after", [
    ("public struct S {}", "package struct S {}"),
    ("public init(x: Int) {}", "package init(x: Int) {}"),
    ("public static let x = 1", "package static let x = 1"),
    ("public private(set) var x = 1", "package private(set) var x = 1"),
    ("public internal(set) var x = 1", "package internal(set) var x = 1"),
    ("@inlinable\npublic func f() {}", "@inlinable\npackage func f() {}"),
    ("@inlinable public func f() {}", "@inlinable package func f() {}"),
    ("@discardableResult public func f() -> Int { 1 }", "@discardableResult package func f() -> Int { 1 }"),
    ("public extension String {}", "package extension String {}"),
    ("public protocol P { func f() }", "package protocol P { func f() }"),
    ("public final class C {}", "package final class C {}"),
    ("public nonisolated func f() {}", "package nonisolated func f() {}"),
    ("public typealias T = Int", "package typealias T = Int"),
    ("public enum E: Error { case a, b }", "package enum E: Error { case a, b }"),
    ("public var description: String { \"d\" }", "package var description: String { \"d\" }"),
    ("public subscript(i: Int) -> Int { i }", "package subscript(i: Int) -> Int { i }"),
    ("public import Foundation", "package import Foundation"),
    ("@frozen public struct F {}", "@frozen package struct F {}"),
    ("public /* why */ func f() {}", "package /* why */ func f() {}"),
])
def test_rewrites_the_access_modifier(before, after):
    assert convert(before) == after


@pytest.mark.parametrize("text", [
    "// a public key\nlet x = 1",
    "/// The public half.\nlet x = 1",
    "/* outer /* public */ still a comment public */ let x = 1",
    'let s = "the public key"',
    'let s = "a \\"quoted\\" public word"',
    'let s = "\\(f("public")) public"',
    'let s = "\\(g(a, "x\\(h("public"))")) and public"',
    'let s = #"raw "public" key"#',
    'let s = ##"raw "#public"# key"##',
    'let s = #"interpolated \\#(f("public")) public"#',
    'let s = """\n    a public key\n    "quoted" public\n    """',
    'let s = #"""\n    """public"""\n    """#',
    "let r = #/public\\s+key/#",
    "let x = level.public",
    "let x = `public`",
    "let open = 1\nlet y = open + 1\nlet z = s.open",
    "let fd = open(path, O_RDONLY)",
])
def test_leaves_comments_strings_and_names_alone(text):
    assert convert(text) == text


def test_code_inside_an_interpolation_is_still_code():
    # Only declarations carry modifiers, so the interpolation holds no `public` to rewrite; what matters is
    # that the lexer comes back out of the string at the right place.
    text = 'let s = "\\(x.map { ")" })"\npublic func f() {}'
    assert convert(text) == 'let s = "\\(x.map { ")" })"\npackage func f() {}'


def test_open_is_kept_and_reported():
    new, count, errors, notes = converter.convert("t.swift", "open class C { open func f() {} }")
    assert (new, count, errors) == ("open class C { open func f() {} }", 0, [])
    assert [(n.line, n.col) for n in notes] == [(1, 1), (1, 16)]


def test_an_unknown_use_of_public_stops_the_file_with_its_position():
    new, count, errors, _ = converter.convert("t.swift", "public struct S {}\nfunc f(public: Int) {}")
    assert (new, count) == ("public struct S {}\nfunc f(public: Int) {}", 0)
    assert [str(e).split(": ")[0] for e in errors] == ["t.swift:2:8"]


def test_unterminated_string_is_an_error_not_a_guess():
    _, _, errors, _ = converter.convert("t.swift", 'let s = "public\npublic func f() {}')
    assert errors and "unterminated string" in str(errors[0])


def test_whole_run_is_idempotent_and_check_mode_reports(tmp_path):
    source = tmp_path / "A.swift"
    source.write_text('/// public docs\npublic struct A {\n    public init() {}\n    let s = "public"\n}\n')
    run = lambda *args: subprocess.run([sys.executable, str(SCRIPT), *args], capture_output=True, text=True)
    assert run("--check", str(tmp_path)).returncode == 1
    assert run(str(tmp_path)).returncode == 0
    assert source.read_text() == '/// public docs\npackage struct A {\n    package init() {}\n    let s = "public"\n}\n'
    assert run("--check", str(tmp_path)).returncode == 0
    assert run(str(tmp_path)).stdout.startswith("public-to-package: 0 ")


def test_usable_from_inline_from_a_build_log(tmp_path):
    source = tmp_path / "B.swift"
    source.write_text("package struct F {\n    package init(x: Int) {}\n}\n    @inlinable package static func g() {}\n")
    log = tmp_path / "build.log"
    log.write_text(
        f"{source}:1:16: note: struct 'F' is not '@usableFromInline' or public\n"
        f"{source}:2:13: note: initializer 'init(x:)' is not '@usableFromInline' or public\n"
        "unrelated: note: something else\n")
    assert converter.add_usable_from_inline(str(log)) == 2
    assert source.read_text() == (
        "@usableFromInline package struct F {\n    @usableFromInline package init(x: Int) {}\n}\n"
        "    @inlinable package static func g() {}\n")
    assert converter.add_usable_from_inline(str(log)) == 0


def test_ci_refuses_a_new_public(tmp_path):
    """`.ci/run` runs the check on the tree, and the check fails on a `public` declaration in Sources/."""
    root = SCRIPT.parents[2]
    ci = (root / ".ci" / "run").read_text()
    assert "python3 Tests/tools/public-to-package.py --check" in ci
    assert ci.index("public-to-package.py --check") < ci.index("make test"), "before the slow steps"
    sources = tmp_path / "Sources" / "M"
    sources.mkdir(parents=True)
    (sources / "A.swift").write_text("package struct Fine {}\n")
    ok = subprocess.run([sys.executable, str(SCRIPT), "--check", str(tmp_path / "Sources")], capture_output=True, text=True)
    assert ok.returncode == 0, ok.stdout + ok.stderr
    (sources / "B.swift").write_text("public func leak() {}\n")
    bad = subprocess.run([sys.executable, str(SCRIPT), "--check", str(tmp_path / "Sources")], capture_output=True, text=True)
    assert bad.returncode == 1 and "B.swift" in bad.stdout, bad.stdout + bad.stderr
