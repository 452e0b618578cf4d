"""A VoIP push sent by real PyPI APNs clients, unchanged but for where they connect, to `pushcheck serve`'s PushKit
token: the simulated app is launched from not-running, PushKit calls it and it reports the call to CallKit — read back
over the control API. The same library sending to the app's APNs device token gets DeviceTokenNotForTopic, as APNs
answers (Tests/reference/ios-push-types.md §1.2, §4)."""
import os
import subprocess
from pathlib import Path

import pytest

from conftest import KEY_ID, PYTHON, TEAM_ID, start_serve, stop
from test_client_libraries import HOSTS_ADDRESS, can_remap_hosts

SEND_VOIP = str(Path(__file__).parent / "backends" / "send_voip.py")
BUNDLE = "com.example.calls"


def voip_config(key: Path) -> str:
    return f"""
apns:
  keys:
    - {{ key_id: {KEY_ID}, team_id: {TEAM_ID}, private_key: {key} }}
apps:
  - bundle_id: {BUNDLE}
    team_id: {TEAM_ID}
    aps_environment: development
    background_modes: [voip]
    profile: {{ all_devices: true }}
    push_types: [voip]
devices:
  - name: iphone
    udid: 00008110-000A1C2E0E12801E
    seed: 3
    apps: [{BUNDLE}]
"""


@pytest.fixture
def voip_serve(tmp_path, p8_key):
    s = start_serve(tmp_path, p8_key, config_text=voip_config(p8_key))
    yield s
    stop(s)


@pytest.fixture
def voip_serve_on_443(tmp_path, p8_key):
    """serve's sandbox on 127.0.0.77:443, for aioapns, which always dials api.development.push.apple.com:443."""
    s = start_serve(tmp_path, p8_key, "--host", HOSTS_ADDRESS, "--sandbox-port", "443",
                    config_text=voip_config(p8_key))
    yield s
    stop(s)


def send(serve, library, token, tmp_path=None):
    env = dict(os.environ)
    env.update({
        "PUSHCHECK_VOIP_TOKEN": token, "PUSHCHECK_APNS_TOPIC": BUNDLE, "PUSHCHECK_APNS_KEY_FILE": serve.key,
        "PUSHCHECK_APNS_KEY_ID": KEY_ID, "PUSHCHECK_APNS_TEAM_ID": TEAM_ID, "PUSHCHECK_CA_FILE": serve.ca,
        "PUSHCHECK_APNS_PROXY_URL": serve.proxy,
    })
    command = [PYTHON, SEND_VOIP, library, f"Alice via {library}"]
    if library == "aioapns":
        hosts = tmp_path / "hosts"
        hosts.write_text(f"{HOSTS_ADDRESS} api.development.push.apple.com api.sandbox.push.apple.com\n")
        command = ["unshare", "-m", "sh", "-c", f'mount --bind "{hosts}" /etc/hosts && exec "$@"', "sh"] + command
    return subprocess.run(command, env=env, capture_output=True, text=True, timeout=60)


@pytest.mark.parametrize("library", ["kalyke", "pyapns_client", "aioapns"])
def test_voip_push_from_a_real_client_reaches_pushkit_and_callkit(voip_serve, library, tmp_path, request):
    if library == "aioapns":
        if not can_remap_hosts():
            pytest.skip("needs root and unshare for a private /etc/hosts")
        voip_serve = request.getfixturevalue("voip_serve_on_443")
    device = voip_serve.ready["devices"]["iphone"]
    voip = device["push_tokens"][BUNDLE]["voip"]
    assert voip != device["tokens"][BUNDLE], "the PushKit token is not the APNs device token"
    since = voip_serve.get("/devices/iphone")["last_seq"]
    r = send(voip_serve, library, voip, tmp_path)
    assert r.returncode == 0, r.stdout + r.stderr
    events = voip_serve.events(since=since, wait="5s")
    kinds = [(e["type"], e.get("callback")) for e in events]
    assert ("push-received", None) in kinds
    callbacks = [e["callback"] for e in events if e["type"] == "callback"]
    assert callbacks == ["didFinishLaunching", "didReceiveIncomingPush"], events
    incoming = next(e for e in events if e.get("callback") == "didReceiveIncomingPush")
    assert incoming["user_info"]["caller"] == f"Alice via {library}"
    assert ("callkit", None) in kinds
    log = voip_serve.get("/apns/log")["entries"]
    assert [(e["status"], e["push_type"], e["topic"]) for e in log] == [(200, "voip", f"{BUNDLE}.voip")]


def test_voip_push_at_the_device_token_is_refused_as_apns_refuses_it(voip_serve):
    device_token = voip_serve.ready["devices"]["iphone"]["tokens"][BUNDLE]
    r = send(voip_serve, "kalyke", device_token)
    assert r.returncode != 0
    assert "DeviceTokenNotForTopic" in r.stdout + r.stderr
    assert [e["reason"] for e in voip_serve.get("/apns/log")["entries"]] == ["DeviceTokenNotForTopic"]
