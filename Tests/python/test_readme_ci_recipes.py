"""README "CI recipes": the GitHub Actions and GitLab CI blocks parse as YAML, have the shape their text promises
(a matrix of shards and a merge job; `parallel:` and a `junit:` report), and every `pushcheck` command in them is
one the binary accepts: the command exists, each option is in its --help, and `run` selects scenarios with it."""
import re
import shlex
import subprocess
from pathlib import Path

import yaml

from conftest import PUSHCHECK, ROOT


def recipes():
    readme = (ROOT / "README.md").read_text()
    section = readme.split("### CI recipes\n", 1)[1].split("\n## ", 1)[0]
    blocks = re.findall(r"```yaml\n(.*?)```", section, re.S)
    assert len(blocks) == 2, "expected the GitHub Actions and the GitLab CI block"
    return [yaml.safe_load(block) for block in blocks]


def commands(scripts, substitutions):
    """The `pushcheck …` lines of shell scripts, split into arguments, with CI variables filled in."""
    for script in scripts:
        for line in script.splitlines():
            line = line.strip()
            for name, value in substitutions.items():
                line = line.replace(name, value)
            if line.startswith("pushcheck "):
                yield shlex.split(line)[1:]


def check_command(arguments):
    name, rest = arguments[0], arguments[1:]
    if name.startswith("-"):  # pushcheck --version
        assert subprocess.run([PUSHCHECK, *arguments], capture_output=True).returncode == 0, arguments
        return ""
    help = subprocess.run([PUSHCHECK, "help", name], capture_output=True, text=True)
    assert help.returncode == 0, f"pushcheck {name}: no such command"
    for argument in rest:
        if argument.startswith("--"):
            assert re.search(rf"--{re.escape(argument[2:].split('=')[0])}\b", help.stdout), \
                f"pushcheck {name}: {argument} is not in its --help"
    if name == "run":
        listed = subprocess.run([PUSHCHECK, *arguments, "--list"], capture_output=True, text=True, cwd=ROOT)
        assert listed.returncode == 0 and listed.stdout.strip(), f"{arguments}: {listed.stderr}"
    return help.stdout


def test_github_actions_recipe():
    github, _ = recipes()
    shard, merge = github["jobs"]["shard"], github["jobs"]["merge-reports"]
    shards = shard["strategy"]["matrix"]["shard"]
    assert shards == list(range(1, len(shards) + 1)) and merge["needs"] == "shard"
    assert shard["container"] == merge["container"] == "debian:12"
    uploads = [s["with"]["path"] for s in shard["steps"] if s.get("uses", "").startswith("actions/upload-artifact")]
    scripts = [s["run"] for job in (shard, merge) for s in job["steps"] if "run" in s]
    seen = set()
    for arguments in commands(scripts, {"${{ matrix.shard }}": "1"}):
        help = check_command(arguments)
        seen.add(arguments[0])
        if arguments[0] == "run":
            # The artifact path is the shard report's default name, as `run --help` states it.
            assert "Reports/junit-<i>-of-<N>.xml" in help
            # Each shard uploads its JUnit file and the HTML report it was told to write.
            shard_files = [f"Reports/junit-${{{{ matrix.shard }}}}-of-{len(shards)}.xml",
                           f"Reports/report-${{{{ matrix.shard }}}}-of-{len(shards)}.html"]
            assert [line.strip() for u in uploads for line in u.splitlines()] == shard_files
            assert f"--html {shard_files[1]}".replace("${{ matrix.shard }}", "1") in " ".join(arguments)
            assert f"--shard 1/{len(shards)}" in " ".join(arguments)
    assert seen == {"--version", "run", "merge-reports"}


def test_gitlab_ci_recipe():
    _, gitlab = recipes()
    job = gitlab["push-tests"]
    assert job["image"] == "debian:12" and job["parallel"] > 1
    assert job["artifacts"]["reports"]["junit"] == "Reports/junit-*-of-*.xml"
    scripts = job["before_script"] + job["script"]
    found = list(commands(scripts, {"$CI_NODE_INDEX": "1", "$CI_NODE_TOTAL": str(job["parallel"])}))
    assert [a[0] for a in found] == ["run"]
    for arguments in found:
        check_command(arguments)
