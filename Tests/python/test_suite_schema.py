"""Suites/suite.schema.json (`pushcheck schema`) under a real validator, check-jsonschema (jsonschema + ruamel.yaml,
YAML 1.2 as the loader reads it), the way an editor or a CI lint step would use it:

- the schema is a valid draft 2020-12 schema, and the checked-in file is what `pushcheck schema` prints;
- every file of Suites/ names it in its first line and validates (world files under Suites/apps/ too);
- every file of the broken corpus (Tests/schema/broken/) is refused by the schema AND by the loader, whose
  `file:line:col` error, the one its first line names, is what `pushcheck run` prints first;
- the schema is never stricter than the loader: every suite the Swift tests wrote (collected by `make test` in
  $PUSHCHECK_SUITE_CORPUS) that the loader accepts validates.
"""
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import PUSHCHECK, ROOT

SCHEMA = ROOT / "Suites" / "suite.schema.json"
BROKEN = ROOT / "Tests" / "schema" / "broken"
CHECK_JSONSCHEMA = str(Path(sys.executable).parent / "check-jsonschema")
REGENERATE = "make schema (pushcheck schema > Suites/suite.schema.json)"


def validate(files):
    """check-jsonschema over `files` in one run: {file: [best-match messages]} for those that fail."""
    result = subprocess.run([CHECK_JSONSCHEMA, "-o", "json", "--schemafile", str(SCHEMA), *map(str, files)],
                            capture_output=True, text=True)
    report = json.loads(result.stdout)
    failures = {}
    for error in report.get("errors", []) + report.get("parse_errors", []):
        deep = error.get("best_deep_match") or error
        failures.setdefault(error["filename"], []).append(f"{deep.get('path', '')}: {deep.get('message', error)}")
    assert (result.returncode == 0) == (not failures), result.stderr
    return failures


def suite_files():
    suites = sorted(p for p in (ROOT / "Suites").glob("*") if p.suffix in (".yaml", ".json") and p != SCHEMA)
    return suites + sorted((ROOT / "Suites" / "apps").glob("*.yaml"))


def test_the_schema_is_a_draft_2020_12_schema_and_current():
    checked_in = SCHEMA.read_text()
    assert json.loads(checked_in)["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    meta = subprocess.run([CHECK_JSONSCHEMA, "--check-metaschema", str(SCHEMA)], capture_output=True, text=True)
    assert meta.returncode == 0, meta.stdout + meta.stderr
    printed = subprocess.run([PUSHCHECK, "schema"], capture_output=True, text=True, check=True).stdout
    assert printed == checked_in, f"Suites/suite.schema.json is stale: regenerate it with {REGENERATE}"


def test_every_suite_names_the_schema_and_validates():
    files = suite_files()
    assert len(files) >= 12
    for path in files:
        first = path.read_text().split("\n", 1)[0]
        if path.suffix == ".json":
            assert json.loads(path.read_text()).get("$schema") == "suite.schema.json", path
            continue
        relative = os.path.relpath(SCHEMA, path.parent)
        assert first == f"# yaml-language-server: $schema={relative}", f"{path}: first line {first!r}"
        assert (path.parent / relative).resolve() == SCHEMA
    assert validate(files) == {}


def broken_cases():
    """(the file, the file the error is in, line, column, message) from each corpus file's first line."""
    cases = []
    for path in sorted(BROKEN.glob("*.yaml")):
        header = path.read_text().split("\n", 1)[0]
        match = re.fullmatch(r"# loader: (?:(\S+\.yaml):)?(\d+):(\d+): (.+)", header)
        assert match, f"{path}: first line must be '# loader: [file:]line:col: message', not {header!r}"
        where = BROKEN / match[1] if match[1] else path
        cases.append((path, where, int(match[2]), int(match[3]), match[4]))
    return cases


def test_the_broken_corpus_is_refused_by_the_schema_and_by_the_loader():
    cases = broken_cases()
    assert len(cases) >= 15
    # The schema sees each file as an editor does; an include's mistake is in the included file.
    refused = validate(sorted({where for _, where, *_ in cases}))
    for path, where, line, column, message in cases:
        assert str(where) in refused, f"{where.name}: the schema accepts it"
        run = subprocess.run([PUSHCHECK, "run", "--list", str(path.relative_to(ROOT))], capture_output=True,
                             text=True, cwd=ROOT, env={**os.environ, "NO_COLOR": "1"})
        assert run.returncode == 2, f"{path.name}: exit {run.returncode}\n{run.stderr}"
        lines = run.stderr.splitlines()
        # The loader's message comes first, then where: file:line:col (relative to the working directory).
        assert lines[0] == f"error: {message}", f"{path.name}: {run.stderr}"
        assert lines[1].strip() == f"--> {where.relative_to(ROOT)}:{line}:{column}", f"{path.name}: {run.stderr}"


def corpus_suites(corpus: Path):
    """The suite files (a top-level scenarios: key) the Swift tests wrote."""
    from check_jsonschema.parsers.yaml import construct_yaml_implementation
    yaml = construct_yaml_implementation()
    for path in sorted(corpus.rglob("*")):
        if path.suffix not in (".yaml", ".yml", ".json") or not path.is_file():
            continue
        try:
            root = yaml.load(path.read_bytes())
        except Exception:
            continue  # not YAML to begin with (the loader's own syntax tests)
        if isinstance(root, dict) and "scenarios" in root:
            yield path


def test_the_schema_is_never_stricter_than_the_loader():
    corpus = os.environ.get("PUSHCHECK_SUITE_CORPUS")
    if not corpus or not Path(corpus).is_dir():
        pytest.skip("no $PUSHCHECK_SUITE_CORPUS: `make test` collects the suites the Swift tests write there")
    accepted = []
    for path in corpus_suites(Path(corpus)):
        run = subprocess.run([PUSHCHECK, "run", "--list", "--allow-empty", str(path)], capture_output=True,
                             text=True, cwd=path.parent)
        if run.returncode == 0:
            accepted.append(path)
    assert len(accepted) >= 100, f"only {len(accepted)} suites the loader accepts in {corpus}"
    failures = validate(accepted + suite_files())
    assert failures == {}, "\n".join(f"{f}:\n  " + "\n  ".join(m) + "\n" + Path(f).read_text()[:2000]
                                     for f, m in list(failures.items())[:5])


def test_draft_07_validators_read_it_the_same_way():
    """Editors with an older validator (draft-07) accept the same suites and refuse the same mistakes."""
    from check_jsonschema.parsers.yaml import construct_yaml_implementation
    from jsonschema import Draft7Validator
    yaml = construct_yaml_implementation()
    validator = Draft7Validator(json.loads(SCHEMA.read_text()))

    def load(path):
        return json.loads(path.read_text()) if path.suffix == ".json" else yaml.load(path.read_bytes())

    for path in suite_files():
        errors = list(validator.iter_errors(load(path)))
        assert not errors, f"{path}: {errors[0].message}"
    for _, where, *_ in broken_cases():
        assert list(validator.iter_errors(load(where))), f"{where.name}: draft-07 accepts it"
    # A serve config (the nested if/then/else): README's validates, a misspelt listener key does not.
    assert not list(validator.iter_errors(yaml.load(readme_serve_config())))
    assert list(validator.iter_errors(yaml.load("listen: { sandbx: 0 }\n")))


# --- serve configs: the same schema reads a file with listen:, tls:, apns: or fcm: at its top as one ---

README = ROOT / "README.md"


def readme_serve_config():
    """The YAML block of README's "Config file" section (serve's config, every key)."""
    text = README.read_text()
    section = text[text.index("#### Config file"):]
    start = section.index("```yaml\n") + len("```yaml\n")
    return section[start:section.index("```\n", start)]


def test_readmes_serve_config_validates_and_a_typo_in_it_is_refused_by_both(tmp_path):
    good = tmp_path / "serve.yaml"
    good.write_text(readme_serve_config())
    assert "listen:" in good.read_text() and "apns:" in good.read_text()
    assert validate([good]) == {}
    # A misspelt listener: the schema and `serve --check` both refuse it, the loader at its line and column.
    bad = tmp_path / "serve-typo.yaml"
    bad.write_text("listen:\n  host: 127.0.0.1\n  sandbx: 0\n")
    assert str(bad) in validate([bad])
    run = subprocess.run([PUSHCHECK, "serve", "--config", str(bad), "--check"], capture_output=True, text=True,
                         env={**os.environ, "NO_COLOR": "1"})
    assert run.returncode == 2, run
    assert run.stderr.splitlines()[0] == "error: unknown key 'sandbx'", run.stderr
    assert f"--> {bad}:3:3" in run.stderr and "did you mean 'sandbox'?" in run.stderr, run.stderr


def test_serve_configs_serve_accepts_validate():
    """Never stricter than the loader, for serve configs too: every `serve*.yaml` the Swift tests wrote (collected
    with its directory, see TempDirectory.write) that `serve --check` accepts validates."""
    corpus = os.environ.get("PUSHCHECK_SUITE_CORPUS")
    if not corpus or not Path(corpus).is_dir():
        pytest.skip("no $PUSHCHECK_SUITE_CORPUS: `make test` collects the serve configs the Swift tests write there")
    accepted = []
    for path in sorted(Path(corpus).rglob("serve*.yaml")):
        run = subprocess.run([PUSHCHECK, "serve", "--config", str(path), "--check"], capture_output=True, text=True)
        if run.returncode == 0:
            assert run.stdout.startswith(f"{path}: ok: "), run.stdout
            accepted.append(path)
    assert len(accepted) >= 8, f"only {len(accepted)} serve configs `serve --check` accepts in {corpus}"
    failures = validate(accepted)
    assert failures == {}, "\n".join(f"{f}:\n  " + "\n  ".join(m) + "\n" + Path(f).read_text()[:2000]
                                     for f, m in list(failures.items())[:5])
