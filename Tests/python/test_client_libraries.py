"""Real APNs client libraries, unchanged but for where they connect, as the team's backend:
against `pushcheck serve` (through its CONNECT proxy or its URL) and in a suite's `run:` step."""
import os
import subprocess
import textwrap
from pathlib import Path

import pytest

from conftest import BACKEND, PUSHCHECK, PYTHON, ROOT

# Through the CONNECT proxy (pyapns_client, kalyke) or the URL pushcheck hands out (httpx).
LIBRARIES = ["pyapns_client", "kalyke", "httpx"]
HOSTS_ADDRESS = "127.0.0.77"  # aioapns: api.development.push.apple.com → this loopback address, port 443


def can_remap_hosts() -> bool:
    """The /etc/hosts recipe is tested in a private mount namespace (root + unshare), never on the real file."""
    probe = subprocess.run(["unshare", "-m", "sh", "-c", "mount --bind /dev/null /etc/hosts"], capture_output=True)
    return probe.returncode == 0


def send(serve, library, title, tmp_path=None):
    command = [PYTHON, BACKEND, library, title]
    if library == "aioapns":
        hosts = tmp_path / "hosts"
        hosts.write_text(f"{HOSTS_ADDRESS} api.development.push.apple.com api.sandbox.push.apple.com\n")
        command = ["unshare", "-m", "sh", "-c", f'mount --bind "{hosts}" /etc/hosts && exec "$@"', "sh"] + command
    return subprocess.run(command, env=serve.backend_env(), capture_output=True, text=True, timeout=60)


@pytest.mark.parametrize("library", LIBRARIES + ["aioapns"])
def test_library_against_serve_is_delivered(serve, library, tmp_path, request):
    if library == "aioapns":
        if not can_remap_hosts():
            pytest.skip("needs root and unshare for a private /etc/hosts")
        serve = request.getfixturevalue("serve_on_443")
    title = f"Hello from {library}"
    r = send(serve, library, title, tmp_path)
    assert r.returncode == 0, r.stdout + r.stderr
    shown = serve.events(type="notification-presented")
    assert [e["title"] for e in shown] == [title]
    assert shown[0]["user_info"]["order_id"] == "42"
    log = serve.get("/apns/log")["entries"]
    assert [e["status"] for e in log] == [200]
    if library in ("pyapns_client", "kalyke"):  # iat as a float / as a string: delivered, with a warning
        assert "iat is a" in log[0]["detail"]
    else:
        assert "detail" not in log[0]


def test_libraries_in_a_run_step_are_delivered(tmp_path):
    steps = "".join(
        textwrap.dedent(f"""\
              - run: '"{PYTHON}" "{BACKEND}" {library} "From {library}"'
                expect: {{ exit: 0, status: 200, delivered: true, user_info: {{ order_id: "42", library: {library} }} }}
            """)
        for library in LIBRARIES)
    suite = tmp_path / "backend-libraries.yaml"
    suite.write_text(
        f"world:\n  include: {ROOT}/Suites/apps/news-app.yaml\nscenarios:\n  - name: every library delivers\n"
        "    steps:\n" + textwrap.indent(steps, "      "))
    junit = tmp_path / "junit.xml"
    r = subprocess.run([PUSHCHECK, "run", str(suite), "--junit", str(junit)], capture_output=True, text=True,
                       timeout=300, env={**os.environ, "NO_COLOR": "1"})
    assert r.returncode == 0, r.stdout + r.stderr
    assert "1 passed, 0 failed" in r.stdout
    transcript = junit.read_text()
    for library in LIBRARIES:
        assert f'"library":"{library}"' in transcript  # what each backend sent is in the transcript
