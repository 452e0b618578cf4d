"""Real PyPI clients against `serve`, unchanged: kalyke-apns 1.5.0's LiveActivityClient and aioapns 4.0
(PushType.LIVEACTIVITY) update an activity on the simulated iPhone's ActivityKit (Tests/reference/live-activities.md
§4); kalyke's push-to-start, which leaves out `attributes-type` and `attributes` (its LiveActivityPayload.dict() never
writes them), is dropped by the device as iOS drops it (§2.2) — while APNs answers 200."""
import subprocess
from pathlib import Path

import pytest

from conftest import KEY_ID, PYTHON, ROOT, TEAM_ID, start_serve, stop

BACKEND = str(Path(__file__).parent / "backends" / "live_activity.py")


def rides_config(key) -> str:
    app = (ROOT / "Suites" / "apps" / "rides-app.yaml").read_text()
    return f"apns:\n  keys:\n    - {{ key_id: {KEY_ID}, team_id: {TEAM_ID}, private_key: {key} }}\n{app}"


@pytest.fixture
def rides(tmp_path, p8_key):
    s = start_serve(tmp_path, p8_key, config_text=rides_config(p8_key))
    yield s
    stop(s)


def backend(serve, *args, prefix=()):
    r = subprocess.run([*prefix, PYTHON, BACKEND, *args], env=serve.backend_env_for("com.example.rides"),
                       capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stdout + r.stderr
    return r


def start_activity(serve) -> dict:
    serve.post("/devices/iphone/actions", {"launch": "com.example.rides"})
    serve.post("/devices/iphone/actions", {
        "start_activity": {"attributes": {"ride_id": "R-1"}, "content_state": {"eta": 9, "driver": "Ann"}},
        "app": "com.example.rides"})
    return serve.get("/devices/iphone")["live_activities"]["activities"][0]


def test_kalyke_update_reaches_the_activity(rides):
    activity = start_activity(rides)
    assert activity["state"] == "active" and activity["push_token"]
    backend(rides, "update", activity["push_token"], "4")
    updated = rides.events(type="activity-updated")
    assert [e["content_state"] for e in updated] == [{"eta": 4, "driver": "Ann"}]
    assert updated[0]["alerted"] is True and updated[0]["priority"] == 10
    after = rides.get("/devices/iphone")["live_activities"]["activities"][0]
    assert after["content_state"] == {"eta": 4, "driver": "Ann"} and after["updates"] == 1


def test_kalyke_push_to_start_lacks_the_attributes(rides):
    token = rides.ready["devices"]["iphone"]["push_to_start_tokens"]["com.example.rides"]["RideAttributes"]
    backend(rides, "start", token)
    log = rides.get("/apns/log")["entries"]
    assert [e["status"] for e in log] == [200]  # APNs accepts it: the device refuses it
    dropped = rides.events(type="push-dropped")
    assert [e["reason"] for e in dropped] == ["activity-attributes-invalid"]
    ignored = rides.events(type="activity-push-ignored")
    assert ignored[0]["detail"] == "aps.attributes-type missing"
    assert rides.get("/devices/iphone")["live_activities"]["activities"] == []


def test_aioapns_update_reaches_the_activity(tmp_path, p8_key):
    """aioapns 4.0 (PushType.LIVEACTIVITY, a raw aps) dials api.development.push.apple.com:443: a private /etc/hosts
    points it at serve, as in test_client_libraries.py."""
    from test_client_libraries import HOSTS_ADDRESS, can_remap_hosts
    if not can_remap_hosts():
        pytest.skip("needs root and unshare for a private /etc/hosts")
    s = start_serve(tmp_path, p8_key, "--host", HOSTS_ADDRESS, "--sandbox-port", "443",
                    config_text=rides_config(p8_key))
    try:
        activity = start_activity(s)
        hosts = tmp_path / "hosts"
        hosts.write_text(f"{HOSTS_ADDRESS} api.development.push.apple.com api.sandbox.push.apple.com\n")
        remap = ["unshare", "-m", "sh", "-c", f'mount --bind "{hosts}" /etc/hosts && exec "$@"', "sh"]
        backend(s, "aioapns", activity["push_token"], "2", prefix=remap)
        updated = s.events(type="activity-updated")
        assert [e["content_state"] for e in updated] == [{"eta": 2, "driver": "Ann"}]
    finally:
        stop(s)
