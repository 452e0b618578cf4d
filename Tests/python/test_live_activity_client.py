"""kalyke-apns (1.5.0), a PyPI client with Live Activity support, against `serve` unchanged: its update reaches the
simulated iPhone's ActivityKit (Tests/reference/live-activities.md §4), and its push-to-start, which leaves out
`attributes-type` and `attributes` (kalyke's LiveActivityPayload.dict() never writes them), is dropped by the device as
iOS drops it (§2.2) — while APNs answers 200."""
import subprocess
from pathlib import Path

import pytest

from conftest import KEY_ID, PYTHON, ROOT, TEAM_ID, start_serve, stop

BACKEND = str(Path(__file__).parent / "backends" / "live_activity.py")


@pytest.fixture
def rides(tmp_path, p8_key):
    app = (ROOT / "Suites" / "apps" / "rides-app.yaml").read_text()
    config = f"apns:\n  keys:\n    - {{ key_id: {KEY_ID}, team_id: {TEAM_ID}, private_key: {p8_key} }}\n{app}"
    s = start_serve(tmp_path, p8_key, config_text=config)
    yield s
    stop(s)


def kalyke(serve, *args):
    r = subprocess.run([PYTHON, BACKEND, *args], env=serve.backend_env_for("com.example.rides"),
                       capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stdout + r.stderr
    return r


def test_kalyke_update_reaches_the_activity(rides):
    rides.post("/devices/iphone/actions", {"launch": "com.example.rides"})
    rides.post("/devices/iphone/actions", {
        "start_activity": {"attributes": {"ride_id": "R-1"}, "content_state": {"eta": 9, "driver": "Ann"}},
        "app": "com.example.rides"})
    activity = rides.get("/devices/iphone")["live_activities"]["activities"][0]
    assert activity["state"] == "active" and activity["push_token"]
    kalyke(rides, "update", activity["push_token"], "4")
    updated = rides.events(type="activity-updated")
    assert [e["content_state"] for e in updated] == [{"eta": 4, "driver": "Ann"}]
    assert updated[0]["alerted"] is True and updated[0]["priority"] == 10
    after = rides.get("/devices/iphone")["live_activities"]["activities"][0]
    assert after["content_state"] == {"eta": 4, "driver": "Ann"} and after["updates"] == 1


def test_kalyke_push_to_start_lacks_the_attributes(rides):
    token = rides.ready["devices"]["iphone"]["push_to_start_tokens"]["com.example.rides"]["RideAttributes"]
    kalyke(rides, "start", token)
    log = rides.get("/apns/log")["entries"]
    assert [e["status"] for e in log] == [200]  # APNs accepts it: the device refuses it
    dropped = rides.events(type="push-dropped")
    assert [e["reason"] for e in dropped] == ["activity-attributes-invalid"]
    ignored = rides.events(type="activity-push-ignored")
    assert ignored[0]["detail"] == "aps.attributes-type missing"
    assert rides.get("/devices/iphone")["live_activities"]["activities"] == []
