"""Fixtures for the tests where real third-party APNs client libraries are the backend.

`serve` starts `pushcheck serve` with a provider key, the demo app and one simulated iPhone, waits for its
ready file, and stops it afterwards. The binary is $PUSHCHECK (default .build/debug/pushcheck).
"""
import json
import os
import signal
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

import pytest

# Everything here talks to loopback: a CI machine's own proxy settings (for PyPI) must not capture it.
for _name in ("HTTPS_PROXY", "https_proxy", "HTTP_PROXY", "http_proxy", "ALL_PROXY", "all_proxy"):
    os.environ.pop(_name, None)

ROOT = Path(__file__).resolve().parents[2]
PUSHCHECK = os.environ.get("PUSHCHECK", str(ROOT / ".build" / "debug" / "pushcheck"))
PYTHON = sys.executable
BACKEND = str(Path(__file__).parent / "backends" / "send.py")
KEY_ID, TEAM_ID = "KEY1234567", "ABCDE12345"


@pytest.fixture(scope="session")
def p8_key(tmp_path_factory) -> Path:
    """A fresh .p8 provider key (PKCS#8 P-256), as the developer portal hands out."""
    path = tmp_path_factory.mktemp("key") / f"AuthKey_{KEY_ID}.p8"
    ec = subprocess.run(["openssl", "ecparam", "-name", "prime256v1", "-genkey", "-noout"], check=True,
                        capture_output=True).stdout
    p8 = subprocess.run(["openssl", "pkcs8", "-topk8", "-nocrypt"], input=ec, check=True, capture_output=True).stdout
    path.write_bytes(p8)
    return path


def serve_config(key: Path) -> str:
    demo = (ROOT / "Suites" / "apps" / "news-app.yaml").read_text()
    return f"""
apns:
  keys:
    - {{ key_id: {KEY_ID}, team_id: {TEAM_ID}, private_key: {key} }}
{demo}
"""


class Serve:
    """A running `pushcheck serve`: its ready line and a few control-endpoint helpers."""

    def __init__(self, ready: dict, process: subprocess.Popen):
        self.ready, self.process = ready, process
        self.control = ready["control"]
        self.ca = ready["ca"]
        self.proxy = ready["proxy"]
        self.sandbox = ready["apns"]["sandbox"]

    def token(self, device="iphone", app="com.example.pushdemo") -> str:
        return self.ready["devices"][device]["tokens"][app]

    def get(self, path: str) -> dict:
        with urllib.request.urlopen(self.control + path, timeout=30) as r:
            return json.load(r)

    def post(self, path: str, body: dict | None = None) -> dict:
        data = json.dumps(body or {}).encode()
        req = urllib.request.Request(self.control + path, data=data, method="POST",
                                     headers={"content-type": "application/json"})
        with urllib.request.urlopen(req, timeout=30) as r:
            return json.load(r)

    def events(self, device="iphone", since=0, wait="5s", type=None) -> list:
        query = f"since={since}&wait={wait}" + (f"&type={type}" if type else "")
        return self.get(f"/devices/{device}/events?{query}")["events"]

    def backend_env(self) -> dict:
        """What a run: step would get, pointed at this serve (proxy for libraries fixed to Apple's hosts)."""
        env = dict(os.environ)
        env.update({
            "PUSHCHECK_DEVICE_TOKEN_IPHONE": self.token(), "PUSHCHECK_APNS_TOPIC": "com.example.pushdemo",
            "PUSHCHECK_APNS_KEY_FILE": self.key, "PUSHCHECK_APNS_KEY_ID": KEY_ID, "PUSHCHECK_APNS_TEAM_ID": TEAM_ID,
            "PUSHCHECK_CA_FILE": self.ca, "PUSHCHECK_APNS_PROXY_URL": self.proxy,
            "PUSHCHECK_APNS_SANDBOX_URL": self.sandbox,
        })
        return env

    def backend_env_for(self, app: str) -> dict:
        """backend_env for another app than the demo one (its topic; no device token of the demo app)."""
        env = dict(os.environ)
        env.update({
            "PUSHCHECK_APNS_TOPIC": app, "PUSHCHECK_APNS_KEY_FILE": self.key, "PUSHCHECK_APNS_KEY_ID": KEY_ID,
            "PUSHCHECK_APNS_TEAM_ID": TEAM_ID, "PUSHCHECK_CA_FILE": self.ca, "PUSHCHECK_APNS_PROXY_URL": self.proxy,
            "PUSHCHECK_APNS_SANDBOX_URL": self.sandbox,
        })
        return env


def start_serve(directory: Path, key: Path, *options: str, config_text: str | None = None):
    directory = Path(tempfile.mkdtemp(dir=directory))
    config = directory / "serve.yaml"
    config.write_text(config_text or serve_config(key))
    ready_file = directory / "ready.json"
    process = subprocess.Popen([PUSHCHECK, "serve", "--config", str(config), "--ready-file", str(ready_file),
                                "--proxy-port", "0", *options], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 30
    while not ready_file.exists():
        if process.poll() is not None or time.monotonic() > deadline:
            process.kill()
            raise RuntimeError(f"serve did not start: {process.stderr.read().decode()}")
        time.sleep(0.05)
    s = Serve(json.loads(ready_file.read_text()), process)
    s.key = str(key)
    return s


def stop(s: Serve):
    s.process.send_signal(signal.SIGTERM)
    s.process.wait(timeout=30)


@pytest.fixture
def serve(tmp_path, p8_key):
    s = start_serve(tmp_path, p8_key)
    yield s
    stop(s)


@pytest.fixture
def serve_on_443(tmp_path, p8_key):
    """serve's sandbox on 127.0.0.77:443, for a client that always dials api.development.push.apple.com:443."""
    s = start_serve(tmp_path, p8_key, "--host", "127.0.0.77", "--sandbox-port", "443")
    yield s
    stop(s)


@pytest.fixture
def chrome():
    """Headless chromium through chromium-driver (see browser.py: skips without them, fails in CI)."""
    import browser
    driver = browser.start()
    yield driver
    driver.quit()
